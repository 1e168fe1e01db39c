/**
 * An http connector connected over OAuth 2.1 from the web app, against a real authorization
 * server (oidc-provider on 127.0.0.1) and a real MCP server that is its protected resource.
 * beginOAuth discovers the server (refusing one without PKCE S256), registers a client and
 * hands out the authorization URL; the callback, in the browser of the user who began, once,
 * stores the grant sealed (a replayed or forged state, another user's browser or a refusal at
 * the server store nothing). Then a real worker uses the grant: with access tokens that live
 * less than the refresh margin, each call refreshes and the rotated grant is sealed again;
 * once the refresh token is revoked the next call is a tool error asking for a reconnect,
 * the credential says needs_reconnect, the next run fails at start, and connecting again
 * mends it. No access or refresh token is in Postgres outside ciphertext, in the worker's
 * log, in a tool call, run event or span, or in any answer.
 */
import { grantFromJson } from "@switchyard/core/connectors";
import { keyringOf, openConnectorCredential, parseMasterKey } from "@switchyard/core/crypto";
import {
  connectorCredentialForUse,
  createApiToken,
  listStepToolCalls,
  saveWorkflowVersion,
  TEAM_OWNER,
} from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  startMetadataOnlyAuthorizationServer,
  startOAuthServer,
  startProtectedMcpServer,
  type ProtectedMcpServer,
  type TestAuthorizationServer,
} from "@switchyard/testing/oauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { connectorOAuthCallback } from "~/server/connectors/connector-oauth";
import { webEgress } from "~/server/egress";
import { handleRest } from "~/server/rest/rest-api";
import { connectorLines, openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";

// The address the dashboard is reached at; the callback URL is built from it.
const PUBLIC_URL = "http://127.0.0.1:3999";
process.env.AUTH_URL = PUBLIC_URL;
const REDIRECT_URI = `${PUBLIC_URL}/api/connectors/oauth/callback`;
const MODEL_KEY = "sk-model-key-6a1f3c9e2d7b8054";

let stack: RunStack;
let model: ScriptedModel;
let authServer: TestAuthorizationServer;
let mcp: ProtectedMcpServer;
let memberId: string;
const closers: (() => Promise<void>)[] = [];
/** Every access token the MCP server was shown, and every token the test read from a stored grant. */
const tokensSeen = new Set<string>();
/** Every answer the web app gave in this file, to scan for tokens. */
const answers: unknown[] = [];

const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
/** The test's servers are on loopback, which the operator's allow-list names for web and worker alike. */
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const as = (userId: string) =>
  dashboardCaller(
    { db: stack.db, keyring, queue: stack.queue, redis: stack.redis, prefix: stack.prefix, egress },
    userId,
  );
const admin = () => as(stack.adminId);
const callback = async (userId: string | undefined, url: URL) => {
  const response = await connectorOAuthCallback(
    { db: stack.db, redis: stack.redis, keyring, prefix: stack.prefix, egress },
    userId,
    url,
  );
  const location = response.headers.get("location") ?? "";
  answers.push(location, await response.text());
  return { status: response.status, location, query: new URL(location, PUBLIC_URL).searchParams };
};
const begin = async (userId: string, id: string, scope: "team" | "member" = "team") => {
  const begun = await as(userId).connectors.beginOAuth({ id, scope });
  answers.push(begun);
  return begun;
};
/** Begins as the admin, and plays the test user approving at the authorization server. */
const approved = async (id = "crm", options: { deny?: boolean } = {}) => {
  const begun = await begin(stack.adminId, id);
  return authServer.approve(begun.authorizationUrl, begun.redirectUri, options);
};

/** The grant as stored for the team, opened as the worker opens it. */
const storedGrant = async (id = "crm") => {
  const stored = await connectorCredentialForUse(stack.db, {
    teamId: stack.teamId,
    slug: id,
    owner: TEAM_OWNER,
  });
  if (!stored) return undefined;
  const value = openConnectorCredential(
    keyring,
    {
      teamId: stack.teamId,
      credentialId: stored.sealed.credentialId,
      connector: id,
      owner: TEAM_OWNER,
    },
    stored.sealed.envelope,
  );
  const grant = grantFromJson(value);
  tokensSeen.add(grant.tokens.accessToken);
  if (grant.tokens.refreshToken) tokensSeen.add(grant.tokens.refreshToken);
  return { stored, grant };
};
const listing = async (id = "crm") => {
  const list = await admin().connectors.list();
  answers.push(list);
  return list.find((c) => c.id === id)!;
};

const WORKFLOW = (name: string, prompt: string) => `name: ${name}
states:
  initial: agent
${openAiAgentState(model.url, prompt, "done", connectorLines("crm"))}  done:
    type: terminal
    status: success
`;
const startRun = async (name: string, prompt: string) => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: { "workflow.yaml": WORKFLOW(name, prompt) },
  });
  const started = await admin().runs.start({ workflowId });
  answers.push(started);
  return started.id;
};
const ended = async (id: string) => {
  const run = await runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);
  answers.push(run);
  return run;
};
const why = (run: Awaited<ReturnType<typeof ended>>) =>
  JSON.stringify([
    run.errorCode,
    run.errorMessage,
    run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
    model.failures,
  ]);
const agentCalls = (run: Awaited<ReturnType<typeof ended>>) =>
  listStepToolCalls(stack.db, stack.teamId, run.steps.find((s) => s.stateName === "agent")!.id);

/** The model's turns for a prompt: call each tool in order, then answer. */
const rules = (marker: string, calls: string[]) => [
  ...calls.map((name) => ({
    match: { messagesContain: marker },
    times: 1,
    toolCalls: [{ name, arguments: {} }],
  })),
  { match: { messagesContain: marker }, times: 1, text: `done ${marker}` },
];

beforeAll(async () => {
  buildSwitchyardCli();
  // Access tokens live less than the worker's refresh margin (60 s): every use refreshes first.
  authServer = await startOAuthServer({ accessTokenTtlSeconds: 30 });
  closers.push(() => authServer.close());
  mcp = await startProtectedMcpServer({
    authorizationServer: {
      issuer: authServer.issuer,
      addResource: (resource, scope) => authServer.addResource(resource, scope),
      verifyAccessToken: (token, resource) => {
        tokensSeen.add(token);
        return authServer.verifyAccessToken(token, resource);
      },
    },
  });
  closers.push(() => mcp.close());
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        ...rules("WHOAMI-TWICE", ["crm_whoami", "crm_whoami"]),
        ...rules("AFTER-REVOKE", ["crm_whoami"]),
        ...rules("NEVER-STARTS", ["crm_whoami"]),
      ],
    },
  });
  closers.push(() => model.close());
  stack = await openRunStack({
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
  });
  const member = await stack.db.user.create({
    data: { email: "member@test.local", name: "Member" },
  });
  await stack.db.membership.create({
    data: { teamId: stack.teamId, userId: member.id, role: "member" },
  });
  memberId = member.id;
  await admin().variables.set({
    name: "MODEL_KEY",
    value: MODEL_KEY,
    secret: true,
    lanes: ["default"],
  });
  await admin().connectors.create({
    definition: {
      id: "crm",
      name: "CRM",
      transport: "http",
      url: mcp.url,
      auth: "oauth",
      lanes: ["*"],
    },
  });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

describe("connecting over OAuth from the web app", () => {
  it("begins: discovers the server, registers a client and hands out an authorization URL with PKCE S256, the resource and the callback", async () => {
    const begun = await begin(stack.adminId, "crm");
    expect(begun.redirectUri).toBe(REDIRECT_URI);
    const url = new URL(begun.authorizationUrl);
    expect(url.origin).toBe(authServer.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("resource")).toBe(mcp.url);
    expect(url.searchParams.get("redirect_uri")).toBe(REDIRECT_URI);
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // What the callback needs waits in Redis for ten minutes at most, and never in the clear.
    const keys = await stack.redis.keys(`${stack.prefix}:connector-oauth:*`);
    expect(keys.length).toBeGreaterThan(0);
    const ttl = await stack.redis.ttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600);
    const pending = (await Promise.all(keys.map((k) => stack.redis.get(k)))).join("\n");
    expect(pending).not.toContain(url.searchParams.get("client_id")!);
    expect(pending).not.toContain(url.searchParams.get("state")!);
    // Nothing is stored until the callback.
    expect((await listing()).teamCredential).toBeNull();
  });

  it("begins over REST too, for a script whose user then approves in their signed-in browser", async () => {
    const { token } = await createApiToken(stack.db, {
      teamId: stack.teamId,
      userId: stack.adminId,
      name: "oauth",
    });
    const deps = {
      db: stack.db,
      queue: () => stack.queue,
      prefix: stack.prefix,
      publish: () => Promise.resolve(0),
      keyring: () => keyring,
      redis: () => stack.redis,
      egress: () => egress,
    };
    const post = (body: unknown) =>
      handleRest(
        deps,
        new Request(`${PUBLIC_URL}/api/v1/connectors/crm/oauth`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        }),
        "/connectors/crm/oauth",
      );
    const response = await post({ scope: "team" });
    const body = (await response.json()) as {
      authorizationUrl: string;
      redirectUri: string;
      expiresAt: string;
    };
    answers.push(body);
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.redirectUri).toBe(REDIRECT_URI);
    expect(new URL(body.authorizationUrl).searchParams.get("code_challenge_method")).toBe("S256");
    expect(Date.parse(body.expiresAt) - Date.now()).toBeLessThanOrEqual(600_000);
    expect((await post({ scope: "everyone" })).status).toBe(400);
  });

  it("follows the rules of setting a credential: the team's account needs an admin, and only OAuth connectors", async () => {
    await expect(
      as(memberId).connectors.beginOAuth({ id: "crm", scope: "team" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      as(memberId).connectors.beginOAuth({ id: "crm", scope: "member" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      admin().connectors.beginOAuth({ id: "ghost", scope: "team" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await admin().connectors.create({
      definition: { id: "keyed", name: "Keyed", transport: "http", url: mcp.url, auth: "bearer" },
    });
    await expect(
      admin().connectors.beginOAuth({ id: "keyed", scope: "team" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("OAuth") as string,
    });
  });

  it("refuses an authorization server without PKCE S256 with core's error", async () => {
    const plain = await startMetadataOnlyAuthorizationServer({
      code_challenge_methods_supported: ["plain"],
    });
    closers.push(() => plain.close());
    const legacy = await startProtectedMcpServer({ authorizationServer: plain });
    closers.push(() => legacy.close());
    await admin().connectors.create({
      definition: {
        id: "legacy",
        name: "Legacy",
        transport: "http",
        url: legacy.url,
        auth: "oauth",
      },
    });
    await expect(
      admin().connectors.beginOAuth({ id: "legacy", scope: "team" }),
    ).rejects.toMatchObject({
      cause: {
        code: "USER.CONNECTOR.OAUTH_UNSUPPORTED",
        message: expect.stringContaining("S256") as string,
      },
    });
  });

  it("refuses a callback in another user's browser, and the flow is spent", async () => {
    const landed = await approved();
    const foreign = await callback(memberId, landed);
    expect(foreign.status).toBe(303);
    expect(foreign.location).toMatch(/^\/settings\/connectors\?/);
    expect(foreign.query.get("error")).toBe("FORBIDDEN");
    // The state was taken by that attempt: the right browser cannot use it afterwards.
    expect((await callback(stack.adminId, landed)).query.get("error")).toBe(
      "USER.CONNECTOR.OAUTH_FAILED",
    );
    // Nor can anyone who is not signed in.
    expect((await callback(undefined, await approved())).query.get("error")).toBe("UNAUTHORIZED");
    expect((await listing()).teamCredential).toBeNull();
  });

  it("refuses a forged state and a refusal at the authorization server, storing nothing", async () => {
    const landed = await approved();
    const forged = new URL(landed);
    forged.searchParams.set("state", "x".repeat(43));
    expect((await callback(stack.adminId, forged)).query.get("error")).toBe(
      "USER.CONNECTOR.OAUTH_FAILED",
    );
    const noState = new URL(landed);
    noState.searchParams.delete("state");
    expect((await callback(stack.adminId, noState)).query.get("error")).toBe(
      "USER.CONNECTOR.OAUTH_FAILED",
    );
    const denied = await callback(stack.adminId, await approved("crm", { deny: true }));
    expect(denied.query.get("error")).toBe("USER.CONNECTOR.OAUTH_FAILED");
    expect(denied.query.get("connector")).toBe("crm");
    expect((await listing()).teamCredential).toBeNull();
  });

  it("stores the grant sealed at the callback of who began it, once, and sends the browser back to the Connectors page", async () => {
    const landed = await approved();
    expect(landed.searchParams.get("code")).toBeTruthy();
    const done = await callback(stack.adminId, landed);
    expect(done.status).toBe(303);
    expect(done.location).toBe("/settings/connectors?connector=crm&connected=team");

    const shown = (await listing()).teamCredential;
    expect(shown).toMatchObject({
      kind: "oauth",
      status: "active",
      setBy: stack.adminId,
      fingerprint: expect.stringMatching(/^[0-9a-f]{12}$/) as string,
    });
    const { grant, stored } = (await storedGrant())!;
    expect(grant.server.resource).toBe(mcp.url);
    expect(grant.client.issuer).toBe(authServer.issuer);
    expect(grant.tokens.refreshToken).toBeTruthy();
    expect(stored.expiresAt?.getTime()).toBe(grant.tokens.expiresAt?.getTime());
    expect(shown?.expiresAt?.getTime()).toBe(grant.tokens.expiresAt?.getTime());
    const audit = await stack.db.auditLog.findMany({
      where: { teamId: stack.teamId, action: "connector.credential.set", targetId: "crm" },
    });
    expect(audit.map((a) => a.metadata)).toEqual([
      expect.objectContaining({ kind: "oauth", owner: "team" }),
    ]);

    // The same callback again is refused and changes nothing.
    expect((await callback(stack.adminId, landed)).query.get("error")).toBe(
      "USER.CONNECTOR.OAUTH_FAILED",
    );
    expect((await storedGrant())!.grant.tokens.accessToken).toBe(grant.tokens.accessToken);
  });
});

describe("the worker uses the grant", () => {
  it("refreshes before each use, calls through the connector and seals the rotated grant again", async () => {
    const before = (await storedGrant())!;
    const refreshesBefore = authServer.tokenRequests.filter(
      (r) => r.grantType === "refresh_token",
    ).length;
    const unauthorizedBefore = mcp.unauthorized;

    const run = await ended(await startRun("oauth-twice", "WHOAMI-TWICE"));
    expect(run.status, why(run)).toBe("succeeded");
    const calls = await agentCalls(run);
    expect(calls.map((c) => [c.toolName, c.source, c.isError])).toEqual([
      ["crm_whoami", "crm", false],
      ["crm_whoami", "crm", false],
    ]);
    for (const call of calls) expect(JSON.stringify(call.result)).toContain("test-user");

    // Each use refreshed with the resource indicator; the server never saw a stale token.
    const refreshes = authServer.tokenRequests
      .filter((r) => r.grantType === "refresh_token")
      .slice(refreshesBefore);
    expect(refreshes.length).toBeGreaterThanOrEqual(2);
    expect(refreshes.every((r) => r.resource === mcp.url)).toBe(true);
    expect(mcp.unauthorized).toBe(unauthorizedBefore);

    // The rotated grant was sealed again under the same credential.
    const after = (await storedGrant())!;
    expect(after.stored.sealed.credentialId).toBe(before.stored.sealed.credentialId);
    expect(after.grant.tokens.refreshToken).not.toBe(before.grant.tokens.refreshToken);
    expect(after.grant.tokens.accessToken).not.toBe(before.grant.tokens.accessToken);
    expect(after.stored.status).toBe("active");
    const row = await stack.db.credential.findUniqueOrThrow({
      where: { id: after.stored.sealed.credentialId },
    });
    expect(row.rotatedAt).not.toBeNull();
    expect((await listing()).teamCredential?.lastUsedAt).not.toBeNull();
  }, 180_000);

  it("asks for a reconnect once the grant is revoked: a tool error, needs_reconnect, and the next run fails at start", async () => {
    const { grant } = (await storedGrant())!;
    expect(authServer.revokeRefreshToken(grant.tokens.refreshToken!)).toBe(true);
    authServer.expireAccessTokens();

    const run = await ended(await startRun("oauth-revoked", "AFTER-REVOKE"));
    const calls = await agentCalls(run);
    expect(
      calls.map((c) => [c.toolName, c.source, c.isError]),
      why(run),
    ).toEqual([["crm_whoami", "crm", true]]);
    expect(JSON.stringify(calls[0]!.result)).toContain("[USER.CONNECTOR.NEEDS_RECONNECT]");
    expect(JSON.stringify(calls[0]!.result)).toContain("reconnect the connector");
    expect((await listing()).teamCredential?.status).toBe("needs_reconnect");

    // The next run is refused at start, saying so.
    await expect(startRun("oauth-after", "NEVER-STARTS")).rejects.toMatchObject({
      cause: { code: "USER.CONNECTOR.NEEDS_RECONNECT" },
    });
  }, 180_000);

  it("is mended by connecting again", async () => {
    const done = await callback(stack.adminId, await approved());
    expect(done.query.get("connected")).toBe("team");
    expect((await listing()).teamCredential?.status).toBe("active");
    await storedGrant();
  });

  it("leaves no token in Postgres outside ciphertext, in the worker's log, or in any answer", async () => {
    expect(tokensSeen.size).toBeGreaterThanOrEqual(6);
    // Every row of every table as JSON: bytea columns (the sealed envelopes) come out as hex.
    const tables = await stack.db.$queryRaw<
      { name: string }[]
    >`SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(["ToolCall", "Span", "RunEvent", "Credential", "ConnectorCredential"]),
    );
    const rows = await Promise.all(
      tables.map((t) =>
        stack.db.$queryRawUnsafe<{ row: string }[]>(
          `SELECT row_to_json(t)::text AS row FROM "${t.name}" t`,
        ),
      ),
    );
    const stored = rows
      .flat()
      .map((r) => r.row)
      .join("\n");
    expect(stored).toContain(mcp.url);
    const said = JSON.stringify(answers);
    const logs = stack.worker.logs();
    for (const token of tokensSeen) {
      expect(stored).not.toContain(token);
      expect(said).not.toContain(token);
      expect(logs).not.toContain(token);
    }
  });
});
