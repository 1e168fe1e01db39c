/**
 * The newer connector states in a browser. An OAuth connector whose server refused a call
 * for want of a wider scope shows "needs more access" with the scope, and "Reconnect for more
 * access" sends the browser to the authorization server asking for it, back connected. The
 * connector form takes client credentials and enterprise connectors, refuses what does not
 * fit at its field, and takes their secrets write-only. A connector server's form asked in
 * the middle of a run's tool call (elicitation) is answered on "Waiting for you", and the
 * answer reaches the server and the agent.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "@playwright/test";
import {
  connectorCredentialForUse,
  markConnectorCredentialNeedsMoreAccess,
  TEAM_OWNER,
} from "@switchyard/db";
import type { ScriptedModel } from "@switchyard/scripted-model";
import {
  startClientCredentialsServer,
  startMetadataOnlyAuthorizationServer,
  startProtectedMcpServer,
} from "@switchyard/testing/oauth";
import { openConnectorAdmin, startProtectedPair } from "./connector-admin";
import { startScriptedAgent } from "./scripted-agent";
import { signIn } from "./sign-in";

/** The scope a call of `export` needs beyond what a first connection asks for. */
const WIDER = "reports:export";
/** Typed into the page once each; never to be seen in it again. */
const SECRETS = {
  client: "e2e-m2m-client-secret-3f7a91c4",
  server: "e2e-ent-server-secret-c2d85e07",
};

let admin: Awaited<ReturnType<typeof openConnectorAdmin>>;
let pair: Awaited<ReturnType<typeof startProtectedPair>>;
let deployer: Server;
let deployerUrl: string;
/** What the deployer's form was answered with. */
const answered: unknown[] = [];
let model: ScriptedModel | undefined;

/** The model calls `deploy` once, and ends once its result says what was shipped. */
const DEPLOY_RULES = [
  { text: "Release 7 is out.", match: { messagesContain: "shipped release-7" } },
  {
    toolCalls: [{ name: "deployer_deploy", arguments: {} }],
    match: { messagesContain: "DEPLOY-FORM" },
    times: 1,
  },
];

/** The deployer's form: where to, which branch (its default filled in), and a yes. */
const DEPLOY_FORM = {
  type: "object" as const,
  required: ["confirm"],
  properties: {
    env: { enum: ["staging", "production"], type: "string" as const, default: "staging" },
    branch: { title: "Branch", default: "main", type: "string" as const },
    confirm: { title: "Really deploy?", type: "boolean" as const },
  },
};

/** An MCP server (one session per client) whose `deploy` asks which branch and where before it answers. */
const deployerMcp = () => {
  const server = new McpServer({ version: "1.0.0", name: "e2e-deployer" });
  const about = { inputSchema: {}, description: "Deploys a branch, asking which first" };
  server.registerTool("deploy", about, async (_args, extra) => {
    const reply = await extra.sendRequest(
      {
        method: "elicitation/create",
        params: {
          message: "Which branch goes out, and where?",
          requestedSchema: DEPLOY_FORM,
        },
      },
      ElicitResultSchema,
      { timeout: 110_000 },
    );
    answered.push(reply);
    const text =
      reply.action === "accept"
        ? `shipped ${String(reply.content?.branch)} to ${String(reply.content?.env)}`
        : `not shipped: ${reply.action}`;
    return { content: [{ type: "text" as const, text }] };
  });
  return server;
};

const startDeployer = async () => {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const session = req.headers["mcp-session-id"];
      const open = typeof session === "string" ? transports.get(session) : undefined;
      const parsed: unknown = raw === "" ? undefined : JSON.parse(raw);
      const served = open
        ? open.handleRequest(req, res, parsed)
        : (async () => {
            const fresh = new StreamableHTTPServerTransport({
              sessionIdGenerator: () => randomUUID(),
              onsessioninitialized: (id) => void transports.set(id, fresh),
            });
            await deployerMcp().connect(fresh);
            await fresh.handleRequest(req, res, parsed);
          })();
      served.catch((error: Error) => res.headersSent || res.writeHead(500).end(error.message));
    });
  });
  // 127.0.0.2: the one address the web app may reach (global-setup.ts); the worker reaches loopback.
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.2", resolve));
  return http;
};

test.beforeAll(async () => {
  admin = await openConnectorAdmin("e2e-connector-states");
  pair = await startProtectedPair({ toolScopes: { export: WIDER } });
  deployer = await startDeployer();
  deployerUrl = `http://127.0.0.2:${(deployer.address() as AddressInfo).port}/mcp`;
});
const closers: (() => Promise<unknown>)[] = [];
test.afterAll(async () => {
  for (const close of closers) await close().catch(() => undefined);
  await model?.close();
  await pair?.close();
  deployer?.closeAllConnections();
  await new Promise((r) => deployer?.close(r));
  if (!admin) return;
  // Nothing of these runs may wait for anyone in later specs.
  const { db, teamId } = admin;
  await db.wait.updateMany({ where: { teamId, status: "open" }, data: { status: "cancelled" } });
  await db.$disconnect();
});

test("a credential that needs more access says which scope, and reconnecting asks the authorization server for it", async ({
  page,
}) => {
  await admin.addHttp(page, { id: "ledger", url: pair.mcp.url, auth: "oauth" });
  await signIn(page);
  await page.goto("/settings/connectors");
  const card = page.locator('[data-connector="ledger"]');
  await card.getByRole("button", { name: "Connect with OAuth" }).click();
  await expect(page).toHaveURL(/connector=ledger&connected=team/, { timeout: 30_000 });

  // The worker found the server refusing a call for want of WIDER (403 insufficient_scope).
  const stored = await connectorCredentialForUse(admin.db, {
    teamId: admin.teamId,
    slug: "ledger",
    owner: TEAM_OWNER,
  });
  expect(
    await markConnectorCredentialNeedsMoreAccess(admin.db, {
      teamId: admin.teamId,
      id: stored!.id,
      credentialId: stored!.sealed.credentialId,
      requiredScope: `mcp:tools ${WIDER}`,
    }),
  ).toBe(true);
  await page.goto("/settings/connectors");
  await expect(card.locator("[data-needs-more-access]")).toHaveText("needs more access");
  await expect(card.locator("[data-required-scope]")).toContainText(WIDER);

  const authorize = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith("/auth"));
  await card.getByRole("button", { name: "Reconnect for more access" }).click();
  const asked = new URL((await authorize).url()).searchParams.get("scope") ?? "";
  expect(asked.split(" ")).toEqual(expect.arrayContaining(["mcp:tools", WIDER]));
  await expect(page).toHaveURL(/connector=ledger&connected=team/, { timeout: 30_000 });
  await expect(card.locator("[data-needs-more-access]")).toHaveCount(0);
  await expect(card.locator("[data-credential]")).toContainText("active");
  const again = await connectorCredentialForUse(admin.db, {
    teamId: admin.teamId,
    slug: "ledger",
    owner: TEAM_OWNER,
  });
  expect(again?.status).toBe("active");
});

test("the connector form takes client credentials and enterprise connectors, refusing a misfit at its field, and their secrets write-only", async ({
  page,
}) => {
  // A secret is set for the authorization server the connector's server names then (it is
  // discovered and kept with the secret): servers granting client credentials and the
  // jwt-bearer grant, on the one address the web app may reach.
  const machineAuthority = await startClientCredentialsServer({
    clientId: "payouts-m2m",
    clientSecret: SECRETS.client,
    host: "127.0.0.2",
  });
  const enterpriseAuthority = await startMetadataOnlyAuthorizationServer(
    { grant_types_supported: ["urn:ietf:params:oauth:grant-type:jwt-bearer"] },
    "oauth-authorization-server",
    "127.0.0.2",
  );
  const machine = {
    mcp: await startProtectedMcpServer({
      authorizationServer: machineAuthority,
      host: "127.0.0.2",
    }),
  };
  const enterprise = {
    mcp: await startProtectedMcpServer({
      authorizationServer: enterpriseAuthority,
      host: "127.0.0.2",
    }),
  };
  closers.push(
    () => machine.mcp.close(),
    () => machineAuthority.close(),
    () => enterprise.mcp.close(),
    () => enterpriseAuthority.close(),
  );
  await signIn(page);
  await page.goto("/settings/connectors");
  await page.getByRole("button", { name: "Add a connector" }).click();
  const form = page.getByRole("form", { name: "Add a connector" });
  await form.getByLabel("Id", { exact: true }).fill("payouts");
  await form.getByLabel("Name", { exact: true }).fill("Payouts");
  await form.getByRole("radio", { name: /^http/ }).check();
  await form.getByLabel("URL").fill(machine.mcp.url);
  await form.getByLabel("Sign-in").selectOption("client_credentials");
  await form.getByLabel(/^OAuth client id/).fill("payouts-m2m");
  await form.getByLabel("The client proves itself with").selectOption("client_secret");
  // A machine client with each member's own account: refused where that is chosen.
  const mode = form.getByLabel("Whose account runs use");
  await mode.selectOption("member");
  await form.getByRole("button", { name: "Add connector" }).click();
  await expect(mode).toHaveAttribute("aria-invalid", "true");
  await expect(mode).toHaveAccessibleDescription(/credential_mode is "team"/);
  await mode.selectOption("team");
  await form.getByRole("button", { name: "Add connector" }).click();
  await expect(form).toHaveCount(0);

  const card = page.locator('[data-connector="payouts"]');
  await expect(card.locator("[data-client-credentials]")).toContainText("payouts-m2m");
  const secret = card.getByRole("form", { name: "Team credential of Payouts" });
  await secret.getByLabel("Client secret").fill(SECRETS.client);
  await secret.getByRole("button", { name: "Set credential" }).click();
  await expect(card.locator("[data-fingerprint]")).toBeVisible();
  await expect(secret.getByLabel("Client secret")).toHaveValue("");
  await page.reload();
  await expect(card.locator("[data-fingerprint]")).toBeVisible();
  expect(await page.content()).not.toContain(SECRETS.client);

  // Enterprise: the IdP is required, and refused at its own field when left out.
  await page.getByRole("button", { name: "Add a connector" }).click();
  await form.getByLabel("Id", { exact: true }).fill("wiki");
  await form.getByLabel("Name", { exact: true }).fill("Wiki");
  await form.getByRole("radio", { name: /^http/ }).check();
  await form.getByLabel("URL").fill(enterprise.mcp.url);
  await form.getByLabel("Sign-in").selectOption("enterprise");
  await form.getByLabel("Switchyard's client id at the IdP").fill("switchyard-at-idp");
  await form.getByLabel("Switchyard's client id at the server's authorization server").fill("sy");
  await form.getByLabel("Whose account runs use").selectOption("member");
  await form.getByRole("button", { name: "Add connector" }).click();
  const issuer = form.getByLabel(/^IdP issuer/);
  await expect(issuer).toHaveAttribute("aria-invalid", "true");
  await expect(issuer).toHaveAccessibleDescription(/the IdP members sign in with is required/);
  await issuer.fill(process.env.E2E_OIDC_ISSUER!);
  await form.getByRole("button", { name: "Add connector" }).click();
  await expect(form).toHaveCount(0);

  const wiki = page.locator('[data-connector="wiki"]');
  const access = wiki.getByRole("region", { name: "Members' access to Wiki" });
  await expect(access).toContainText(`granted by ${process.env.E2E_OIDC_ISSUER}`);
  const serverSecret = wiki.getByRole("form", { name: "OAuth client secret of Wiki" });
  await expect(serverSecret).toContainText("not set");
  await serverSecret.getByLabel("Client secret").fill(SECRETS.server);
  await serverSecret.getByRole("button", { name: "Set secret" }).click();
  await expect(serverSecret).toHaveAttribute("data-client-secret", "set");
  await expect(serverSecret.getByLabel("Client secret")).toHaveValue("");
  await page.reload();
  await expect(serverSecret).toHaveAttribute("data-client-secret", "set");
  expect(await page.content()).not.toContain(SECRETS.server);
});

test("a connector's form asked during a run is answered on Waiting for you, and the answer reaches the server and the agent", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await admin.addHttp(page, { id: "deployer", url: deployerUrl, auth: "none" });
  model = await startScriptedAgent({
    name: "e2e-deploy",
    workflow: (url) => `name: e2e-deploy
states:
  initial: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: DEPLOY-FORM ship it
    options: { base_url: ${url}/v1, model: scripted-1, api_key: sk-e2e-literal-key }
    timeout: 3m
    mcp_proxy: { connectors: [deployer] }
    on_success: done
  done: { type: terminal, status: success }
`,
    script: { turns: [], rules: DEPLOY_RULES },
  });
  await signIn(page);
  await page.goto("/workflows");
  await page.locator('tr[data-workflow="e2e-deploy"]').getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runUrl = page.url();

  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByTestId("wait-count")).toHaveText("1", { timeout: 90_000 });
  await nav.getByRole("link", { name: /Waiting for you/ }).click();
  const wait = page.getByTestId("wait-banner");
  await expect(wait).toHaveCount(1);
  await expect(wait.getByTestId("elicitation-message")).toHaveText(
    "Which branch goes out, and where?",
  );
  await expect(wait).toContainText("deployer");
  // The server's defaults are filled in.
  await expect(wait.getByLabel("Branch")).toHaveValue("main");
  await wait.getByLabel("Branch").fill("release-7");
  await wait.getByLabel("env").selectOption("production");
  await wait.getByLabel("Really deploy?").check();
  await expect(wait.getByLabel("Branch")).toHaveValue("release-7");
  await wait.getByRole("button", { name: "Submit" }).click();
  await expect(wait).toHaveCount(0);

  // Exactly one answer: the form was asked once, and what was typed is what went.
  await expect
    .poll(() => answered, { timeout: 30_000 })
    .toEqual([
      {
        action: "accept",
        content: { branch: "release-7", confirm: true, env: "production" },
      },
    ]);
  await page.goto(runUrl);
  await expect(page.locator("h1 .badge")).toHaveText("succeeded", { timeout: 60_000 });
  await expect(page.locator('[data-step="agent"]')).toContainText("Release 7 is out.");
});
