/**
 * A connector's credential never follows it to a new destination, under the real web
 * operations and a real worker. An http connector with an API key, one used with each
 * member's own key, and one with an OAuth grant (connected through the web app's OAuth flow
 * against a real authorization server) point at server A; an admin points them at server B,
 * a loopback MCP server that records everything it receives. The change marks every
 * credential of the connector needs_reconnect in the same transaction (team's and
 * members'), audited with the fields that changed; the listing shows it; a run is refused at
 * start, and one queued past that check fails in the worker with
 * USER.CONNECTOR.NEEDS_RECONNECT; B never sees a credential. The worker also refuses on its
 * own an OAuth grant whose resource is not the connector's URL, before sending anything.
 * Connecting again mends it, and B then sees only the new key.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { createRun, listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  startOAuthServer,
  startProtectedMcpServer,
  type ProtectedMcpServer,
  type TestAuthorizationServer,
} from "@switchyard/testing/oauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectorOAuthCallback } from "~/server/connectors/connector-oauth";
import { connectorLines, openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";
import {
  startRecordingMcpServer,
  TEST_SERVERS_HOST,
  type RecordingMcpServer,
} from "./helpers/recording-mcp-server";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, waitFor } from "./helpers/worker-process";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { webEgress } from "~/server/egress";

const PUBLIC_URL = `http://${TEST_SERVERS_HOST}:3999`;
process.env.AUTH_URL = PUBLIC_URL;
const MODEL_KEY = "sk-model-key-0c4e8a2f6b1d9375";
const KEY_A = "team-key-for-server-a-5e2b9c7d41f0";
const MEMBER_KEY = "member-key-for-server-a-8d3f1a6c";
const ADMIN_OWN_KEY = "admin-own-key-for-server-a-2c7e9b";
const KEY_B = "team-key-for-server-b-a61f0e3d7c29";

let stack: RunStack;
let model: ScriptedModel;
let serverA: RecordingMcpServer;
let serverB: RecordingMcpServer;
let authServer: TestAuthorizationServer;
let protectedA: ProtectedMcpServer;
let memberId: string;
const closers: (() => Promise<void>)[] = [];
/** Every OAuth token the protected server was shown. */
const grantTokens = new Set<string>();

const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
/** The test's servers (B, the attacker's, too) are on loopback, which the operator's allow-list names: what keeps a credential from B here is its mark, not the egress rule. */
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const as = (userId: string) =>
  dashboardCaller(
    { db: stack.db, keyring, queue: stack.queue, redis: stack.redis, prefix: stack.prefix, egress },
    userId,
  );
const admin = () => as(stack.adminId);
const listing = async (id: string) => (await admin().connectors.list()).find((c) => c.id === id)!;

const WORKFLOW = (name: string, connector: string) => `name: ${name}
states:
  initial: agent
${openAiAgentState(model.url, `CALL-${connector}`, "done", connectorLines(connector))}  done:
    type: terminal
    status: success
`;
const saved = (name: string, connector: string, lane = "operator") =>
  saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    lane,
    files: { "workflow.yaml": WORKFLOW(name, connector) },
  });
const ended = (id: string) => runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);
const why = (run: Awaited<ReturnType<typeof ended>>) =>
  JSON.stringify([
    run.errorCode,
    run.errorMessage,
    run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
  ]);
/** A run of `connector` started by `userId` as runs.start would, then queued past its start check. */
const queuedPastStart = async (
  name: string,
  connector: string,
  userId = stack.adminId,
  lane = "operator",
) => {
  const version = await saved(name, connector, lane);
  const run = await createRun(stack.db, {
    teamId: stack.teamId,
    workflowId: version.workflowId,
    workflowVersionId: version.id,
    lane,
    trigger: "api",
    startedById: userId,
  });
  await stack.queue.add("run", { runId: run.id, teamId: stack.teamId }, { jobId: run.id });
  return ended(run.id);
};
const failedNeedingReconnect = (run: Awaited<ReturnType<typeof ended>>) => {
  expect(run.status, why(run)).toBe("failed");
  expect(why(run)).toContain("USER.CONNECTOR.NEEDS_RECONNECT");
};

beforeAll(async () => {
  buildSwitchyardCli();
  serverA = await startRecordingMcpServer();
  serverB = await startRecordingMcpServer({ key: KEY_B });
  closers.push(
    () => serverA.close(),
    () => serverB.close(),
  );
  authServer = await startOAuthServer();
  closers.push(() => authServer.close());
  protectedA = await startProtectedMcpServer({
    authorizationServer: {
      issuer: authServer.issuer,
      addResource: (resource, scope) => authServer.addResource(resource, scope),
      verifyAccessToken: (token, resource) => {
        grantTokens.add(token);
        return authServer.verifyAccessToken(token, resource);
      },
    },
  });
  closers.push(() => protectedA.close());
  const call = (connector: string, tool: string) => [
    {
      match: { messagesContain: `CALL-${connector}` },
      times: 1,
      toolCalls: [{ name: `${connector}_${tool}`, arguments: {} }],
    },
    { match: { messagesContain: `CALL-${connector}` }, text: "done" },
  ];
  const moving = [
    {
      match: { messagesContain: "CALL-moving" },
      times: 1,
      toolCalls: [{ name: "moving_fingerprint", arguments: {} }],
    },
    {
      match: { messagesContain: "CALL-moving" },
      times: 1,
      delayMs: 4000,
      toolCalls: [{ name: "moving_fingerprint", arguments: {} }],
    },
    { match: { messagesContain: "CALL-moving" }, text: "done" },
  ];
  model = await startScriptedModel({
    host: TEST_SERVERS_HOST,
    script: {
      turns: [],
      rules: [
        ...call("keyed", "fingerprint"),
        ...call("mine", "fingerprint"),
        ...call("crm", "whoami"),
        ...moving,
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
    lanes: ["default", "operator"],
  });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

describe("a connector pointed somewhere else", () => {
  it("keeps its API key from the new URL: needs_reconnect, audited, refused at start and in the worker; B sees nothing", async () => {
    const definition = {
      id: "keyed",
      name: "Keyed",
      transport: "http",
      url: serverA.url,
      auth: "bearer",
      lanes: ["*"],
    };
    await admin().connectors.create({ definition });
    await admin().connectors.setCredential({ id: "keyed", scope: "team", value: KEY_A });
    const first = await ended(
      (await admin().runs.start({ workflowId: (await saved("keyed-a", "keyed")).workflowId })).id,
    );
    expect(first.status, why(first)).toBe("succeeded");
    expect(serverA.seen()).toContain(KEY_A);

    const changed = await admin().connectors.update({
      id: "keyed",
      definition: { ...definition, url: serverB.url },
    });
    expect(changed.teamCredential).toMatchObject({
      status: "needs_reconnect",
      reconnectReason: "destination_changed",
    });
    expect(
      (await as(memberId).connectors.list()).find((c) => c.id === "keyed")!.teamCredential?.status,
    ).toBe("needs_reconnect");
    const audit = await stack.db.auditLog.findFirstOrThrow({
      where: { teamId: stack.teamId, action: "connector.update", targetId: "keyed" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit.metadata).toMatchObject({ destinationChanged: "url", credentialsToReconnect: 1 });

    await expect(
      admin().runs.start({ workflowId: (await saved("keyed-b", "keyed")).workflowId }),
    ).rejects.toMatchObject({ cause: { code: "USER.CONNECTOR.NEEDS_RECONNECT" } });
    failedNeedingReconnect(await queuedPastStart("keyed-b-queued", "keyed"));
    expect(serverB.requests).toEqual([]);

    // A change that does not move the credential leaves a reconnected one alone.
    await admin().connectors.setCredential({ id: "keyed", scope: "team", value: KEY_B });
    await admin().connectors.update({
      id: "keyed",
      definition: { ...definition, url: serverB.url, name: "Keyed B", lanes: ["operator"] },
    });
    expect((await listing("keyed")).teamCredential).toMatchObject({
      status: "active",
      reconnectReason: null,
    });
    const mended = await ended(
      (
        await admin().runs.start({
          workflowId: (await saved("keyed-b-mended", "keyed")).workflowId,
        })
      ).id,
    );
    expect(mended.status, why(mended)).toBe("succeeded");
    expect(serverB.seen()).toContain(KEY_B);
    expect(serverB.seen()).not.toContain(KEY_A);
  }, 240_000);

  it("marks every member's own key too, and the change of a stdio connector's environment", async () => {
    const definition = {
      id: "mine",
      name: "Mine",
      transport: "http",
      url: serverA.url,
      auth: "bearer",
      credential_mode: "member",
      lanes: ["*"],
    };
    await admin().connectors.create({ definition });
    await as(memberId).connectors.setCredential({ id: "mine", scope: "member", value: MEMBER_KEY });
    await admin().connectors.setCredential({ id: "mine", scope: "member", value: ADMIN_OWN_KEY });
    await admin().connectors.update({
      id: "mine",
      definition: { ...definition, url: serverB.url, headers: { "X-Tenant": "b" } },
    });
    const rows = await stack.db.connectorCredential.findMany({
      where: { teamId: stack.teamId, connector: { slug: "mine" } },
    });
    expect(rows.map((r) => [r.owner, r.status]).sort()).toEqual(
      [
        [memberId, "needs_reconnect"],
        [stack.adminId, "needs_reconnect"],
      ].sort(),
    );
    expect(
      (await as(memberId).connectors.list()).find((c) => c.id === "mine")!.myCredential?.status,
    ).toBe("needs_reconnect");
    expect((await listing("mine")).memberCredentialsToReconnect).toBe(2);
    const audit = await stack.db.auditLog.findFirstOrThrow({
      where: { teamId: stack.teamId, action: "connector.update", targetId: "mine" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit.metadata).toMatchObject({
      destinationChanged: "url,headers",
      credentialsToReconnect: 2,
    });
    failedNeedingReconnect(await queuedPastStart("mine-b-queued", "mine", memberId, "default"));
    expect(serverB.seen()).not.toContain(MEMBER_KEY);

    const stdio = {
      id: "local",
      name: "Local",
      transport: "stdio",
      command: "node",
      args: ["/opt/connectors/server.js"],
      credential_env: "LOCAL_TOKEN",
    };
    await admin().connectors.create({ definition: stdio });
    await admin().connectors.setCredential({ id: "local", scope: "team", value: KEY_A });
    await admin().connectors.update({
      id: "local",
      definition: { ...stdio, env: { UPSTREAM_URL: serverB.url } },
    });
    expect((await listing("local")).teamCredential?.status).toBe("needs_reconnect");
  }, 240_000);

  it("keeps an OAuth grant from the new URL, and the worker refuses a grant made for another resource before sending anything", async () => {
    const definition = {
      id: "crm",
      name: "CRM",
      transport: "http",
      url: protectedA.url,
      auth: "oauth",
      lanes: ["*"],
    };
    await admin().connectors.create({ definition });
    const begun = await admin().connectors.beginOAuth({ id: "crm", scope: "team" });
    const landed = await authServer.approve(begun.authorizationUrl, begun.redirectUri);
    const done = await connectorOAuthCallback(
      { db: stack.db, redis: stack.redis, keyring, prefix: stack.prefix, egress },
      stack.adminId,
      landed,
    );
    expect(done.headers.get("location")).toContain("connected=team");
    const first = await ended(
      (await admin().runs.start({ workflowId: (await saved("crm-a", "crm")).workflowId })).id,
    );
    expect(first.status, why(first)).toBe("succeeded");
    expect(grantTokens.size).toBeGreaterThan(0);

    const attacker = await startRecordingMcpServer();
    closers.push(() => attacker.close());
    // Behind the web app's back (a restored row, say): the URL moves and the grant stays active.
    const row = await stack.db.connector.findFirstOrThrow({
      where: { teamId: stack.teamId, slug: "crm" },
    });
    await stack.db.connector.update({
      where: { id: row.id },
      data: { config: { ...(row.config as object), url: attacker.url } },
    });
    const refused = await queuedPastStart("crm-b-behind", "crm");
    failedNeedingReconnect(refused);
    expect(why(refused)).toContain(protectedA.url);
    expect(attacker.requests).toEqual([]);
    await stack.db.connector.update({
      where: { id: row.id },
      data: { config: row.config as object },
    });

    // Through the web app: needs_reconnect at once, and B sees nothing.
    await admin().connectors.update({
      id: "crm",
      definition: { ...definition, url: attacker.url },
    });
    expect((await listing("crm")).teamCredential).toMatchObject({
      kind: "oauth",
      status: "needs_reconnect",
    });
    failedNeedingReconnect(await queuedPastStart("crm-b-queued", "crm"));
    expect(attacker.requests).toEqual([]);
    for (const token of grantTokens) expect(serverB.seen() + attacker.seen()).not.toContain(token);
  }, 240_000);

  it("stops the calls of a running step once its connector moves", async () => {
    const attacker = await startRecordingMcpServer();
    closers.push(() => attacker.close());
    const definition = {
      id: "moving",
      name: "Moving",
      transport: "http",
      url: serverA.url,
      auth: "bearer",
      lanes: ["*"],
    };
    await admin().connectors.create({ definition });
    await admin().connectors.setCredential({ id: "moving", scope: "team", value: KEY_A });
    const { id } = await admin().runs.start({
      workflowId: (await saved("moving", "moving")).workflowId,
    });
    await waitFor(
      async () =>
        (await stack.db.toolCall.count({ where: { runId: id } })) > 0 ? true : undefined,
      60_000,
      "the first connector call",
    );
    await admin().connectors.update({
      id: "moving",
      definition: { ...definition, url: attacker.url },
    });
    const run = await ended(id);
    const step = run.steps.find((s) => s.stateName === "agent")!;
    const calls = await listStepToolCalls(stack.db, stack.teamId, step.id);
    expect(
      calls.map((c) => [c.toolName, c.isError]),
      why(run),
    ).toEqual([
      ["moving_fingerprint", false],
      ["moving_fingerprint", true],
    ]);
    expect(JSON.stringify(calls[1]!.result)).toContain("USER.CONNECTOR.NEEDS_RECONNECT");
    expect(attacker.requests).toEqual([]);
  }, 180_000);
});
