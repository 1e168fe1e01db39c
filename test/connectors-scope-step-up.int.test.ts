/**
 * Scope step-up against a real authorization server (oidc-provider on 127.0.0.1) and a real
 * MCP server that lets a token with `mcp:tools` list and call `echo` but wants `crm:write`
 * too for `whoami` (403 insufficient_scope). Through the product's own path (the console's
 * call through a worker, "Connect with OAuth" begun in the web app and completed at its
 * callback): the refused call fails with USER.CONNECTOR.NEEDS_MORE_ACCESS, the credential says
 * needs_more_access with the scope, an audit entry says so, other calls still work, the next
 * authorization asks for the granted and the new scope together, and the call then succeeds.
 * A scope the authorization server never grants is asked for once: the next refusal is
 * USER.CONNECTOR.SCOPE_REFUSED and marks nothing. In a workflow, the agent's call gets a tool
 * error saying so and the step goes on. No token is in any answer, row or log.
 */
import { grantFromJson } from "@switchyard/core/connectors";
import { openConnectorCredential } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import {
  connectorCredentialForUse,
  listStepToolCalls,
  saveWorkflowVersion,
  TEAM_OWNER,
} from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import {
  startOAuthServer,
  startProtectedMcpServer,
  type ProtectedMcpServer,
  type TestAuthorizationServer,
} from "@switchyard/testing/oauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectorOAuthCallback } from "~/server/connectors/connector-oauth";
import { webEgress } from "~/server/egress";
import { connectorLines, openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";

const PUBLIC_URL = "http://127.0.0.1:3999";
process.env.AUTH_URL = PUBLIC_URL;

let stack: RunStack;
let authServer: TestAuthorizationServer;
let crm: ProtectedMcpServer;
let ops: ProtectedMcpServer;
let docs: ProtectedMcpServer;
let model: ScriptedModel;
const closers: (() => Promise<void>)[] = [];
const tokensSeen = new Set<string>();
const answers: unknown[] = [];
const keyring = environmentKeyring();
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const admin = () =>
  dashboardCaller(
    { db: stack.db, keyring, queue: stack.queue, redis: stack.redis, prefix: stack.prefix, egress },
    stack.adminId,
  );

/** Connects `id` for the team as the admin would: begin, approve, callback; the scope asked for. */
const connect = async (id: string) => {
  const begun = await admin().connectors.beginOAuth({ id, scope: "team" });
  answers.push(begun);
  const asked = new URL(begun.authorizationUrl).searchParams.get("scope");
  const landed = await authServer.approve(begun.authorizationUrl, begun.redirectUri);
  const response = await connectorOAuthCallback(
    { db: stack.db, redis: stack.redis, keyring, prefix: stack.prefix, egress },
    stack.adminId,
    landed,
  );
  const location = response.headers.get("location") ?? "";
  answers.push(location);
  expect(location).toContain("connected=team");
  const stored = await connectorCredentialForUse(stack.db, {
    teamId: stack.teamId,
    slug: id,
    owner: TEAM_OWNER,
  });
  const grant = grantFromJson(
    openConnectorCredential(
      keyring,
      {
        teamId: stack.teamId,
        credentialId: stored!.sealed.credentialId,
        connector: id,
        owner: TEAM_OWNER,
      },
      stored!.sealed.envelope,
    ),
  );
  tokensSeen.add(grant.tokens.accessToken);
  if (grant.tokens.refreshToken) tokensSeen.add(grant.tokens.refreshToken);
  return asked?.split(" ") ?? [];
};
const call = async (id: string, tool: string) => {
  const result = await admin().connectors.callTool({
    id,
    tool,
    arguments: tool === "echo" ? { text: "hi" } : {},
  });
  answers.push(result);
  return result;
};
/** The code of the error a console call failed with. */
const refusal = async (id: string, tool: string) => {
  const error = (await call(id, tool).then(
    () => undefined,
    (e: unknown) => e,
  )) as { cause?: { code?: string; message?: string } } | undefined;
  answers.push(error?.cause?.message);
  return error?.cause;
};
const credential = async (id: string) => {
  const list = await admin().connectors.list();
  answers.push(list);
  return list.find((c) => c.id === id)!.teamCredential;
};

beforeAll(async () => {
  authServer = await startOAuthServer({ scopes: ["mcp:tools", "crm:write", "crm:admin"] });
  closers.push(() => authServer.close());
  const authority = {
    issuer: authServer.issuer,
    addResource: (resource: string, scope: string) => authServer.addResource(resource, scope),
    verifyAccessToken: (token: string, resource: string) => {
      tokensSeen.add(token);
      return authServer.verifyAccessToken(token, resource);
    },
  };
  crm = await startProtectedMcpServer({
    authorizationServer: authority,
    toolScopes: { whoami: "crm:write" },
  });
  closers.push(() => crm.close());
  // Its tokens never carry crm:admin, however often it is asked for.
  ops = await startProtectedMcpServer({
    authorizationServer: {
      ...authority,
      addResource: (resource, scope) =>
        authServer.addResource(resource, scope.replace("crm:admin", "").trim()),
    },
    toolScopes: { whoami: "crm:admin" },
  });
  closers.push(() => ops.close());
  docs = await startProtectedMcpServer({
    authorizationServer: authority,
    toolScopes: { whoami: "crm:write" },
  });
  closers.push(() => docs.close());
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        {
          match: { messagesContain: "STEP-UP" },
          times: 1,
          toolCalls: [{ name: "docs_whoami", arguments: {} }],
        },
        { match: { messagesContain: "STEP-UP" }, times: 1, text: "done" },
      ],
    },
  });
  closers.push(() => model.close());
  stack = await openRunStack({
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
  });
  await admin().variables.set({
    name: "MODEL_KEY",
    value: "sk-model-key-4f0c1d2e9a8b7c65",
    secret: true,
    lanes: ["default"],
  });
  for (const [id, url] of [
    ["crm", crm.url],
    ["ops", ops.url],
    ["docs", docs.url],
  ] as const)
    await admin().connectors.create({
      definition: { id, name: id, transport: "http", url, auth: "oauth", lanes: ["*"] },
    });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

describe("scope step-up", () => {
  it("marks the credential as needing more access, asks for the wider scope when connecting again, and the call then works", async () => {
    expect(await connect("crm")).toEqual(["mcp:tools"]);
    expect((await call("crm", "echo")).content).toEqual([{ type: "text", text: "hi" }]);

    const refused = await refusal("crm", "whoami");
    expect(refused?.code).toBe("USER.CONNECTOR.NEEDS_MORE_ACCESS");
    expect(refused?.message).toContain('connector "crm" needs more access');
    expect(refused?.message).toContain("mcp:tools crm:write");
    expect(await credential("crm")).toMatchObject({
      status: "needs_more_access",
      requiredScope: "mcp:tools crm:write",
    });
    const audit = await stack.db.auditLog.findMany({
      where: { teamId: stack.teamId, action: "connector.credential.needs_more_access" },
    });
    expect(audit.map((a) => [a.targetId, a.metadata])).toEqual([
      ["crm", expect.objectContaining({ owner: "team", requiredScope: "mcp:tools crm:write" })],
    ]);
    // Calls that need no more than the account holds go on meanwhile.
    expect((await call("crm", "echo")).isError).toBe(false);

    // Reconnecting asks for what was granted plus what the server asked for.
    expect((await connect("crm")).sort()).toEqual(["crm:write", "mcp:tools"]);
    expect(await credential("crm")).toMatchObject({ status: "active", requiredScope: null });
    const retried = await call("crm", "whoami");
    expect(retried.isError).toBe(false);
    expect(retried.content).toEqual([{ type: "text", text: "test-user" }]);
    // Connecting again for no reason never narrows the account's access.
    expect((await connect("crm")).sort()).toEqual(["crm:write", "mcp:tools"]);
    expect((await call("crm", "whoami")).isError).toBe(false);
  }, 180_000);

  it("asks for a scope once: a server still refusing it is not sent to authorize again", async () => {
    expect(await connect("ops")).toEqual(["mcp:tools"]);
    expect((await refusal("ops", "whoami"))?.code).toBe("USER.CONNECTOR.NEEDS_MORE_ACCESS");
    expect((await connect("ops")).sort()).toEqual(["crm:admin", "mcp:tools"]);
    const refused = await refusal("ops", "whoami");
    expect(refused?.code).toBe("USER.CONNECTOR.SCOPE_REFUSED");
    expect(refused?.message).toContain("already asked for");
    // Not marked: the card does not invite another authorization that would end the same way.
    expect(await credential("ops")).toMatchObject({ status: "active", requiredScope: null });
    expect((await refusal("ops", "whoami"))?.code).toBe("USER.CONNECTOR.SCOPE_REFUSED");
    expect((await call("ops", "echo")).isError).toBe(false);
  }, 180_000);

  it("tells an agent whose call needs more access, by a tool error, and the step goes on", async () => {
    expect(await connect("docs")).toEqual(["mcp:tools"]);
    const name = "step-up";
    const { workflowId } = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name,
      files: {
        "workflow.yaml": `name: ${name}
states:
  initial: agent
${openAiAgentState(model.url, "STEP-UP", "done", connectorLines("docs"))}  done:
    type: terminal
    status: success
`,
      },
    });
    const started = await admin().runs.start({ workflowId });
    const run = await runEnded(() => admin().runs.get({ id: started.id }), "run", 120_000);
    answers.push(run);
    expect(run.status, JSON.stringify([run.errorCode, run.errorMessage, model.failures])).toBe(
      "succeeded",
    );
    const calls = await listStepToolCalls(
      stack.db,
      stack.teamId,
      run.steps.find((s) => s.stateName === "agent")!.id,
    );
    expect(calls.map((c) => [c.toolName, c.isError])).toEqual([["docs_whoami", true]]);
    expect(JSON.stringify(calls[0]!.result)).toContain("needs more access");
    expect(await credential("docs")).toMatchObject({
      status: "needs_more_access",
      requiredScope: "mcp:tools crm:write",
    });
  }, 180_000);

  it("leaves no token in an answer, a credential row's plain columns, an audit entry or the worker's log", async () => {
    expect(tokensSeen.size).toBeGreaterThanOrEqual(4);
    const plain = JSON.stringify([
      answers,
      await stack.db.connectorCredential.findMany(),
      await stack.db.credential.findMany({ select: { metadata: true, name: true } }),
      await stack.db.auditLog.findMany(),
    ]);
    const logs = stack.worker.logs();
    for (const token of tokensSeen) {
      expect(plain).not.toContain(token);
      expect(logs).not.toContain(token);
    }
  });
});
