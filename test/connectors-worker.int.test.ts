/**
 * Connectors under the real worker: stdio connectors (the real package
 * @modelcontextprotocol/server-everything, and the suite's fixture server) run in a sandbox
 * of their own from the connectors folder, and agent steps call their tools through the
 * step's proxy, recorded with the connector as the source. Checked: the credential reaches
 * the server in its variable and never the agent (a server that echoes it is scrubbed); a
 * member's run uses that member's own account; a lane the connector is not open to is
 * refused at start, and a connector disabled or closed to the lane mid-step stops the next
 * call; a tool an admin switches off is neither listed nor callable; the console calls a
 * tool by hand through the worker; no credential value is in Postgres outside ciphertext,
 * in the worker's log, or in what the step stored.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { createRun, listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { connectorLines, openAiAgentState } from "./helpers/agent-workflow";
import { connectorPackages } from "./helpers/connector-packages";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, waitFor } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

const TEAM_TOKEN = "fx-team-token-5b9d2e7c41a8f036";
const MEMBER_TOKEN = "fx-member-token-8e1c6a3f92d7b405";
const MODEL_KEY = "sk-model-key-3f8a1c6e9d2b7045";
const ANTHROPIC_KEY = "sk-ant-team-9c2e5f8a1d4b7036";
const claude = installedAgent("claude", (line) => console.log(`[connectors] ${line}`));
const printOf = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 12);

let stack: RunStack;
let model: ScriptedModel;
let memberId: string;
let packages: ReturnType<typeof connectorPackages>;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const as = (userId: string) =>
  dashboardCaller(
    { db: stack.db, keyring, queue: stack.queue, redis: stack.redis, prefix: stack.prefix },
    userId,
  );
const admin = () => as(stack.adminId);

/** The model's turns for a prompt: call each tool in order, then answer. */
const rules = (
  marker: string,
  calls: { name: string; arguments?: Record<string, unknown>; delayMs?: number }[],
) => [
  ...calls.map((c) => ({
    match: { messagesContain: marker },
    times: 1,
    ...(c.delayMs ? { delayMs: c.delayMs } : {}),
    toolCalls: [{ name: c.name, arguments: c.arguments ?? {} }],
  })),
  { match: { messagesContain: marker }, times: 1, text: `done ${marker}` },
];

const WORKFLOW = (name: string, prompt: string, connectors: string[]) => `name: ${name}
states:
  initial: agent
${openAiAgentState(model.url, prompt, "done", connectorLines(...connectors))}  done:
    type: terminal
    status: success
`;

const runAs = async (
  userId: string,
  name: string,
  prompt: string,
  connectors: string[],
  lane = "operator",
) => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    lane,
    files: { "workflow.yaml": WORKFLOW(name, prompt, connectors) },
  });
  const { id } = await as(userId).runs.start({ workflowId });
  return id;
};
const ended = (id: string) => runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);
const agentCalls = async (run: Awaited<ReturnType<typeof ended>>) =>
  listStepToolCalls(stack.db, stack.teamId, run.steps.find((s) => s.stateName === "agent")!.id);
const why = (run: Awaited<ReturnType<typeof ended>>) =>
  JSON.stringify([
    run.errorCode,
    run.errorMessage,
    run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
    model.failures,
  ]) +
  stack.worker
    .logs()
    .split("\n")
    .filter((l) => l.includes("connector"))
    .join("\n");

beforeAll(async () => {
  buildSwitchyardCli();
  packages = connectorPackages();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        ...rules("USE-BOTH", [
          { name: "files_fingerprint" },
          { name: "files_reveal" },
          { name: "everything_echo", arguments: { message: "hello everything" } },
        ]),
        ...rules("MEMBER-A", [{ name: "mine_fingerprint" }]),
        ...rules("MEMBER-B", [{ name: "mine_fingerprint" }]),
        ...rules("MID-STEP", [
          { name: "files_echo", arguments: { text: "first" } },
          { name: "files_echo", arguments: { text: "second" }, delayMs: 4000 },
        ]),
        ...rules("SWITCHED-OFF", [{ name: "files_crash" }]),
        ...rules("SEARCH-FIRST", [
          { name: "tool_search", arguments: { query: "fingerprint" } },
          { name: "call_tool", arguments: { name: "files_fingerprint", arguments: {} } },
        ]),
        ...rules("REVOKED", [
          { name: "files_echo", arguments: { text: "first" } },
          { name: "files_echo", arguments: { text: "second" }, delayMs: 4000 },
        ]),
        ...rules("CLAUDE-CONNECTOR", [{ name: "mcp__switchyard__files_fingerprint" }]),
      ],
    },
  });
  stack = await openRunStack({
    // The scripted model and test servers listen on loopback, which the allow-list names.
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_CONNECTORS_DIR: packages.dir,
    SWITCHYARD_CONNECTOR_IDLE_MS: "60000",
    SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
  });
  if (claude)
    await admin().models.set({ vendor: "anthropic", endpoint: model.url, apiKey: ANTHROPIC_KEY });
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
  await admin().connectors.create({
    definition: {
      id: "files",
      name: "Files",
      transport: "stdio",
      ...packages.fixture,
      credential_env: "FIXTURE_TOKEN",
    },
  });
  await admin().connectors.setCredential({ id: "files", scope: "team", value: TEAM_TOKEN });
  await admin().connectors.create({
    definition: {
      id: "everything",
      name: "Everything",
      transport: "stdio",
      ...packages.everything,
      lanes: ["*"],
    },
  });
  await admin().connectors.create({
    definition: {
      id: "mine",
      name: "Mine",
      transport: "stdio",
      ...packages.fixture,
      credential_env: "FIXTURE_TOKEN",
      credential_mode: "member",
      lanes: ["*"],
    },
  });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
});

describe("connectors in agent steps", () => {
  it("runs stdio connectors in their own sandbox and records each call with the connector as its source", async () => {
    const run = await ended(
      await runAs(stack.adminId, "use-both", "USE-BOTH", ["files", "everything"]),
    );
    expect(run.status, why(run)).toBe("succeeded");
    const calls = await agentCalls(run);
    expect(calls.map((c) => [c.toolName, c.source, c.isError])).toEqual([
      ["files_fingerprint", "files", false],
      ["files_reveal", "files", false],
      ["everything_echo", "everything", false],
    ]);
    // The team's credential reached the server in its variable...
    expect(JSON.stringify(calls[0]!.result)).toContain(`fingerprint=${printOf(TEAM_TOKEN)}`);
    // ...and never the agent, even from a server that echoes it.
    expect(JSON.stringify(calls[1]!.result)).not.toContain(TEAM_TOKEN);
    expect(JSON.stringify(model.requests.map((r) => r.body))).not.toContain(TEAM_TOKEN);
    expect(JSON.stringify(calls[2]!.result)).toContain("hello everything");
    // The first request offered the connectors' tools, named <connector>_<tool>.
    const offered = JSON.stringify(
      model.requests.find((r) => JSON.stringify(r.body).includes("USE-BOTH"))?.body,
    );
    expect(offered).toContain("files_fingerprint");
    expect(offered).toContain("everything_echo");
  }, 180_000);

  it.skipIf(!claude)(
    "lets Claude Code call a connector tool through the proxy, recorded with the connector as its source",
    async () => {
      const yaml = `name: claude-connector
states:
  initial: agent
  agent:
    type: agent
    provider: claude
    prompt: CLAUDE-CONNECTOR
    options:
      model: claude-sonnet-4-5
    mcp_proxy:
      connectors: [files]
    timeout: 3m
    on_success: done
  done:
    type: terminal
    status: success
`;
      const { workflowId } = await saveWorkflowVersion(stack.db, {
        teamId: stack.teamId,
        name: "claude-connector",
        lane: "operator",
        files: { "workflow.yaml": yaml },
      });
      const run = await ended((await admin().runs.start({ workflowId })).id);
      expect(run.status, why(run)).toBe("succeeded");
      const calls = await agentCalls(run);
      expect(calls.map((c) => [c.toolName, c.source, c.fidelity, c.isError])).toEqual([
        ["files_fingerprint", "files", "proxy", false],
      ]);
      expect(JSON.stringify(calls[0]!.result)).toContain(`fingerprint=${printOf(TEAM_TOKEN)}`);
    },
    300_000,
  );

  it("uses the account of the member who started the run, and refuses one who has not connected theirs", async () => {
    await expect(
      runAs(memberId, "member-a0", "MEMBER-A", ["mine"], "default"),
    ).rejects.toMatchObject({
      cause: {
        code: "USER.CONNECTOR.NOT_CONNECTED",
        message: expect.stringContaining("has not connected") as string,
      },
    });

    await as(memberId).connectors.setCredential({
      id: "mine",
      scope: "member",
      value: MEMBER_TOKEN,
    });
    await admin().connectors.setCredential({ id: "mine", scope: "member", value: TEAM_TOKEN });
    const a = await ended(await runAs(memberId, "member-a", "MEMBER-A", ["mine"], "default"));
    const b = await ended(await runAs(stack.adminId, "member-b", "MEMBER-B", ["mine"], "default"));
    expect([a.status, b.status], why(a) + why(b)).toEqual(["succeeded", "succeeded"]);
    expect((await agentCalls(a)).length, why(a)).toBe(1);
    expect(JSON.stringify((await agentCalls(a))[0]!.result)).toContain(
      `fingerprint=${printOf(MEMBER_TOKEN)}`,
    );
    expect(JSON.stringify((await agentCalls(b))[0]!.result)).toContain(
      `fingerprint=${printOf(TEAM_TOKEN)}`,
    );
    const uses = await stack.db.auditLog.findMany({
      where: { teamId: stack.teamId, action: "connector.credential.use", targetId: "mine" },
    });
    expect(uses.map((u) => u.actorUserId).sort()).toEqual([memberId, stack.adminId].sort());
  }, 240_000);

  it("refuses at start a run whose lane the connector is not open to, and so does the worker", async () => {
    await expect(
      runAs(stack.adminId, "wrong-lane", "USE-BOTH", ["files"], "default"),
    ).rejects.toMatchObject({
      cause: {
        code: "USER.MCP_PROXY.LANE_DENIED",
        location: { path: "states.agent.mcp_proxy.connectors" },
      },
    });
    // A run enqueued past the start check is refused by the worker, before any step.
    const version = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "queued-lane",
      lane: "default",
      files: { "workflow.yaml": WORKFLOW("queued-lane", "USE-BOTH", ["files"]) },
    });
    const queued = await createRun(stack.db, {
      teamId: stack.teamId,
      workflowId: version.workflowId,
      workflowVersionId: version.id,
      lane: "default",
      trigger: "api",
      startedById: stack.adminId,
    });
    await stack.queue.add("run", { runId: queued.id, teamId: stack.teamId }, { jobId: queued.id });
    const run = await ended(queued.id);
    expect(run).toMatchObject({
      status: "failed",
      errorCode: "USER.MCP_PROXY.LANE_DENIED",
      steps: [],
    });
  }, 120_000);

  it("stops calls of a running step once the connector is closed to its lane", async () => {
    const id = await runAs(stack.adminId, "mid-step", "MID-STEP", ["files"]);
    await waitFor(
      async () =>
        (await stack.db.toolCall.count({ where: { runId: id } })) > 0 ? true : undefined,
      60_000,
      "the first connector call",
    );
    const files = (await admin().connectors.list()).find((c) => c.id === "files")!;
    await admin().connectors.update({
      id: "files",
      definition: { ...files.definition, lanes: ["default"] },
    });
    const run = await ended(id);
    const calls = await agentCalls(run);
    expect(calls.map((c) => [c.toolName, c.isError])).toEqual([
      ["files_echo", false],
      ["files_echo", true],
    ]);
    expect(JSON.stringify(calls[1]!.result)).toMatch(/not open to lane "operator"|LANE_DENIED/);
    await admin().connectors.update({
      id: "files",
      definition: { ...files.definition, lanes: ["operator"] },
    });
  }, 180_000);

  it("stops calls of a running step once its credential is revoked", async () => {
    const id = await runAs(stack.adminId, "revoked", "REVOKED", ["files"]);
    await waitFor(
      async () =>
        (await stack.db.toolCall.count({ where: { runId: id } })) > 0 ? true : undefined,
      60_000,
      "the first connector call",
    );
    await admin().connectors.revokeCredential({ id: "files", scope: "team" });
    const run = await ended(id);
    const calls = await agentCalls(run);
    expect(calls.map((c) => [c.toolName, c.isError])).toEqual([
      ["files_echo", false],
      ["files_echo", true],
    ]);
    expect(JSON.stringify(calls[1]!.result)).toContain(
      'the credential of connector \\"files\\" was revoked',
    );
    await admin().connectors.setCredential({ id: "files", scope: "team", value: TEAM_TOKEN });
  }, 180_000);

  it("lists a connector's initial tools first under tool search, and finds the others", async () => {
    const files = (await admin().connectors.list()).find((c) => c.id === "files")!;
    await admin().connectors.update({
      id: "files",
      definition: { ...files.definition, initial_tools: ["echo"] },
    });
    const name = "search-first";
    const yaml = WORKFLOW(name, "SEARCH-FIRST", ["files"]).replace(
      "      connectors: [files]\n",
      "      connectors: [files]\n      tool_search: true\n",
    );
    const { workflowId } = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name,
      lane: "operator",
      files: { "workflow.yaml": yaml },
    });
    const before = model.requests.length;
    const run = await ended((await admin().runs.start({ workflowId })).id);
    expect(run.status, why(run)).toBe("succeeded");
    const tools = (
      (model.requests.slice(before)[0]?.body as { tools?: { function: { name: string } }[] })
        .tools ?? []
    ).map((t) => t.function.name);
    expect(tools.filter((t) => t.startsWith("files_"))).toEqual(["files_echo"]);
    expect(tools).toEqual(expect.arrayContaining(["Read", "Bash", "tool_search", "call_tool"]));
    const calls = await agentCalls(run);
    expect(calls.map((c) => c.toolName)).toEqual(["tool_search", "files_fingerprint"]);
    expect(JSON.stringify(calls[1]!.result)).toContain(`fingerprint=${printOf(TEAM_TOKEN)}`);
    await admin().connectors.update({ id: "files", definition: { ...files.definition } });
  }, 180_000);

  it("neither lists nor calls a tool an admin switched off for the lane", async () => {
    const files = (await admin().connectors.list()).find((c) => c.id === "files")!;
    await admin().connectors.update({
      id: "files",
      definition: { ...files.definition, tool_allow: { operator: { deny: ["crash", "sleep*"] } } },
    });
    const before = model.requests.length;
    const run = await ended(await runAs(stack.adminId, "switched-off", "SWITCHED-OFF", ["files"]));
    const offered = JSON.stringify(model.requests.slice(before)[0]?.body);
    expect(offered, why(run)).toContain("files_echo");
    expect(offered).not.toContain("files_crash");
    // The model was told the tool does not exist; nothing reached the server.
    expect(run.status, why(run)).toBe("succeeded");
    expect(await agentCalls(run)).toEqual([]);
    // Called anyway (the console, as lane operator), it is refused where the worker routes calls.
    const refused = await admin().connectors.callTool({
      id: "files",
      tool: "crash",
      arguments: {},
    });
    expect(refused).toMatchObject({ isError: true });
    expect(refused.content).toEqual([
      {
        type: "text",
        text: 'tool "crash" of connector "files" is switched off for lane "operator"',
      },
    ]);
    await admin().connectors.update({
      id: "files",
      definition: { ...files.definition, tool_allow: {} },
    });
  }, 180_000);

  it("calls a tool by hand from the console, through the worker, scrubbed of the credential", async () => {
    const result = await admin().connectors.callTool({
      id: "files",
      tool: "reveal",
      arguments: {},
    });
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result.content)).toContain("credential=");
    expect(JSON.stringify(result)).not.toContain(TEAM_TOKEN);
    await expect(
      as(memberId).connectors.callTool({ id: "files", tool: "echo", arguments: { text: "x" } }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  }, 120_000);

  it("leaves no credential value in Postgres outside ciphertext, nor in the worker's log", async () => {
    const tables = await Promise.all([
      stack.db.toolCall.findMany(),
      stack.db.span.findMany(),
      stack.db.stepRun.findMany(),
      stack.db.runEvent.findMany(),
      stack.db.run.findMany(),
      stack.db.auditLog.findMany(),
      stack.db.connector.findMany(),
      stack.db.connectorCredential.findMany(),
    ]);
    const stored = JSON.stringify(tables, (_k, v: unknown) =>
      typeof v === "bigint" ? v.toString() : v,
    );
    // The worker's folders (runs, workspaces, connector sessions), as files on disk.
    const grep = spawnSync(
      "grep",
      ["-rl", "-e", TEAM_TOKEN, "-e", MEMBER_TOKEN, "-e", ANTHROPIC_KEY, stack.worker.workspaces],
      { encoding: "utf8" },
    );
    expect([grep.status, grep.stdout]).toEqual([1, ""]);
    for (const secret of [TEAM_TOKEN, MEMBER_TOKEN, MODEL_KEY, ANTHROPIC_KEY]) {
      expect(stored).not.toContain(secret);
      expect(stack.worker.logs()).not.toContain(secret);
    }
  });
});
