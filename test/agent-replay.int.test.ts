/**
 * Replay of recorded agent attempts under the real worker, for every agent CLI and for
 * openai_compatible: a run's agent step calls Bash (whose answer holds a fresh UUID, so a
 * command run again could never give the same text) and Write, and for openai_compatible a
 * team http connector too; a replay of that attempt starts from the same workspace snapshot
 * and its proxy answers every call from the recording: the agent is given the recorded UUID,
 * every ToolCall of the replay says `recorded`, and the connector's server sees no call.
 * A replay whose agent calls what was not recorded gets a clear tool error, or with
 * `live_builtins` runs the built-in live on the restored workspace.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { CLI_PROVIDERS } from "@switchyard/core/providers";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { CLI_ROWS, type CliRow } from "@switchyard/testing/agents";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { startRecordingMcpServer, type RecordingMcpServer } from "./helpers/recording-mcp-server";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";
import { webEgress } from "~/server/egress";

const MODEL_KEY = "sk-model-key-replay-9c2e5a7f31";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

const BASH = "cat seed.txt; cat /proc/sys/kernel/random/uuid";

let stack: RunStack;
let connector: RecordingMcpServer;
let model: ScriptedModel;

/** The example of the suite replay: a Bash call and an answer, recorded then replayed by the suite. */
const SUITE_TURNS = [
  { toolCalls: [{ name: "Bash", arguments: { command: BASH } }] },
  { text: "the seed is read" },
];

const OC_TURNS = [
  { toolCalls: [{ name: "Bash", arguments: { command: BASH } }] },
  {
    toolCalls: [{ name: "Write", arguments: { path: "out.txt", content: "from the agent\n" } }],
  },
  { toolCalls: [{ name: { suffix: "fingerprint" }, arguments: {} }] },
  { text: "done" },
];

const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
/** The test's servers are on loopback, which the operator's allow-list names. */
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const caller = () => dashboardCaller({ ...stack, keyring, egress }, stack.adminId);
const ended = (id: string, ms = 240_000) =>
  runEnded(() => caller().runs.get({ id }), `run ${id}`, ms);
const why = (run: Awaited<ReturnType<typeof ended>>) =>
  JSON.stringify([
    run.errorCode,
    run.errorMessage,
    run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
  ]);
const connectorCalls = () =>
  connector.requests.filter((r) => r.body.includes('"tools/call"')).length;

/** The seed step writes a UUID into the workspace the agent step then starts from (its snapshot). */
const workflowOf = (name: string, agentState: string) => `name: ${name}
states:
  initial: seed
  seed:
    type: step
    command: cat /proc/sys/kernel/random/uuid > seed.txt
    on_success: agent
${agentState}  done:
    type: terminal
    status: success
`;

/** Runs the workflow to its end: the run, and its agent attempt. */
const recordThenReplay = async (name: string, agentState: string) => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: { "workflow.yaml": workflowOf(name, agentState) },
  });
  const recorded = await ended((await caller().runs.start({ workflowId })).id);
  expect(recorded.status, why(recorded)).toBe("succeeded");
  const attempt = recorded.steps.find((s) => s.stateName === "agent")!;
  return { recorded, attempt, workflowId };
};

const replay = async (
  runId: string,
  stepRunId: string,
  changes: { prompt?: string; unmatched?: "error" | "live_builtins" } = {},
) => {
  const started = await caller().replay.start({ runId, stepRunId, ...changes });
  return ended(started.id);
};

/** What a call answered the agent (a result without an error may or may not say `isError: false`). */
const contentOf = (call: { result: unknown }) => (call.result as { content?: unknown }).content;

const callsOf = (stepRunId: string) => listStepToolCalls(stack.db, stack.teamId, stepRunId);

beforeAll(async () => {
  buildSwitchyardCli();
  connector = await startRecordingMcpServer();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      // The recorded run, then its replay: the same turns twice.
      turns: [...OC_TURNS, ...OC_TURNS, ...SUITE_TURNS, ...SUITE_TURNS],
      rules: [
        {
          match: { messagesContain: "READ-AGAIN" },
          times: 1,
          toolCalls: [{ name: "Read", arguments: { path: "./seed.txt" } }],
        },
        { match: { messagesContain: "READ-AGAIN" }, text: "read it" },
        {
          match: { messagesContain: "READ-REFUSED" },
          times: 1,
          toolCalls: [{ name: "Read", arguments: { path: "./seed.txt" } }],
        },
        { match: { messagesContain: "READ-REFUSED" }, text: "was refused" },
        {
          match: { messagesContain: "UNMATCHED-RECORD" },
          times: 1,
          toolCalls: [{ name: "Bash", arguments: { command: BASH } }],
        },
        { match: { messagesContain: "UNMATCHED-RECORD" }, text: "recorded" },
      ],
    },
  });
  stack = await openRunStack({
    SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
  });
  await caller().variables.set({
    name: "MODEL_KEY",
    value: MODEL_KEY,
    secret: true,
    lanes: ["default"],
  });
  await caller().connectors.create({
    definition: {
      id: "fp",
      name: "Fingerprint",
      transport: "http",
      url: connector.url,
      auth: "none",
      lanes: ["*"],
    },
  });
}, 900_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await connector?.close();
  await model?.close();
});

describe("openai_compatible", () => {
  it("replays from the recording: the recorded answers reach the agent and no tool or connector runs", async () => {
    const state = openAiAgentState(model.url, "Seed, write, fingerprint.", "done").replace(
      "    timeout: 2m\n",
      "    timeout: 2m\n    mcp_proxy:\n      connectors: [fp]\n",
    );
    const { recorded, attempt } = await recordThenReplay("oc-replay", state);
    const source = await callsOf(attempt.id);
    expect(source.map((c) => [c.toolName, c.replay])).toEqual([
      ["Bash", null],
      ["Write", null],
      [expect.stringContaining("fingerprint"), null],
    ]);
    // The seed's UUID, then the one Bash made.
    const uuid = JSON.stringify(source[0]!.result).match(new RegExp(UUID.source, "g"))!.at(-1)!;
    expect(connectorCalls()).toBe(1);
    const asked = model.requests.length;

    const replayed = await replay(recorded.id, attempt.id);
    expect(replayed.status, why(replayed)).toBe("succeeded");
    const step = replayed.steps.find((s) => s.stateName === "agent")!;
    const calls = await callsOf(step.id);
    expect(calls.map((c) => [c.toolName, c.replay, c.isError])).toEqual(
      source.map((c) => [c.toolName, "recorded", false]),
    );
    expect(calls.map(contentOf)).toEqual(source.map(contentOf));
    // The agent was given the recorded UUID: a Bash run again would have printed a new one.
    expect(JSON.stringify(model.requests.slice(asked).map((r) => r.body))).toContain(uuid);
    expect(connectorCalls()).toBe(1);
    expect(step.output).toBe("done");
    // The replay started from the source's workspace, and keeps that snapshot as its own.
    const [sourceRow, replayRow] = await Promise.all(
      [attempt.id, step.id].map((id) => stack.db.stepRun.findUniqueOrThrow({ where: { id } })),
    );
    expect(sourceRow!.snapshotId).toBeTruthy();
    expect(replayRow!.snapshotId).toBe(sourceRow!.snapshotId);
  }, 600_000);

  it("a call with no recording left is a tool error, or runs live on the restored workspace when allowed", async () => {
    const { recorded, attempt } = await recordThenReplay(
      "oc-unmatched",
      openAiAgentState(model.url, "UNMATCHED-RECORD", "done"),
    );
    const [bash] = await callsOf(attempt.id);
    const seed = JSON.stringify(bash!.result).match(new RegExp(UUID.source, "g"))![0];

    const live = await replay(recorded.id, attempt.id, {
      prompt: "READ-AGAIN",
      unmatched: "live_builtins",
    });
    expect(live.status, why(live)).toBe("succeeded");
    const [read] = await callsOf(live.steps.find((s) => s.stateName === "agent")!.id);
    expect([read!.toolName, read!.replay, read!.isError]).toEqual(["Read", "live", false]);
    // Read live from the workspace as it was when the recorded attempt started.
    expect(JSON.stringify(read!.result)).toContain(seed);

    const refused = await replay(recorded.id, attempt.id, { prompt: "READ-REFUSED" });
    expect(refused.status, why(refused)).toBe("succeeded");
    const [unmatched] = await callsOf(refused.steps.find((s) => s.stateName === "agent")!.id);
    expect([unmatched!.toolName, unmatched!.replay, unmatched!.isError]).toEqual([
      "Read",
      "unmatched",
      true,
    ]);
    expect(JSON.stringify(unmatched!.result)).not.toContain(seed);
  }, 600_000);

  it("a run marked as an example is replayed by a suite replay, which compares each replay with its source", async () => {
    const { recorded, attempt, workflowId } = await recordThenReplay(
      "oc-suite",
      openAiAgentState(model.url, "Read the seed.", "done"),
    );
    await caller().runs.markExample({ id: recorded.id });
    const suite = await caller().replay.suiteStart({ workflowId });
    expect(suite.runs.map((r) => r.replayOfId)).toEqual([attempt.id]);
    const replayed = await ended(suite.runs[0]!.id);
    expect(replayed.status, why(replayed)).toBe("succeeded");
    const table = await caller().replay.suiteShow({ id: suite.id });
    expect(table.counts).toEqual({ total: 1, matched: 1, diverged: 0, pending: 0 });
    expect(table.replays[0]).toMatchObject({
      match: true,
      firstDivergence: null,
      sameAnswer: true,
    });
    // The compare view of the replay against its source says the same.
    const step = replayed.steps.find((s) => s.stateName === "agent")!;
    const compared = await caller().replay.compare({ b: step.id });
    expect(compared.match).toBe(true);
  }, 600_000);
});

describe.each(CLI_ROWS.map((row) => [row.agent, row] as const))("%s", (_, row: CliRow) => {
  const located = installedAgent(row.agent, (line) => console.log(`[replay ${row.agent}] ${line}`));
  const vendor = CLI_PROVIDERS[row.agent]!.cli.vendor;
  let cliModel: ScriptedModel;
  const turns = [
    { toolCalls: [{ name: row.tool("Bash"), arguments: { command: BASH } }] },
    {
      toolCalls: [
        { name: row.tool("Write"), arguments: { path: "out.txt", content: "from the agent\n" } },
      ],
    },
    { text: "done" },
  ];
  beforeAll(async () => {
    if (!located) return;
    cliModel = await startScriptedModel({
      host: "127.0.0.1",
      script: { turns: [...turns, ...turns] },
    });
    const endpoint = vendor === "openai" ? `${cliModel.url}/v1` : cliModel.url;
    await caller().models.set({ vendor, endpoint, apiKey: `key-${row.agent}-5b8e1f0c7a92` });
  }, 900_000);
  afterAll(async () => {
    await cliModel?.close();
  });

  it.skipIf(!located)(
    "replays the attempt from its recording",
    async () => {
      const state = `  agent:
    type: agent
    provider: ${row.agent}
    prompt: Seed and write.
    options:
      model: ${row.model}
    timeout: ${row.limits.startsSlowly ? "4m" : "3m"}
    on_success: done
`;
      const { recorded, attempt } = await recordThenReplay(`${row.agent}-replay`, state);
      const source = await callsOf(attempt.id);
      expect(source.map((c) => c.toolName)).toEqual(["Bash", "Write"]);
      const uuid = JSON.stringify(source[0]!.result).match(new RegExp(UUID.source, "g"))!.at(-1)!;
      const asked = cliModel.requests.length;
      const replayed = await replay(recorded.id, attempt.id);
      expect(replayed.status, why(replayed)).toBe("succeeded");
      const step = replayed.steps.find((s) => s.stateName === "agent")!;
      const calls = await callsOf(step.id);
      expect(calls.map((c) => [c.toolName, c.replay, c.isError])).toEqual([
        ["Bash", "recorded", false],
        ["Write", "recorded", false],
      ]);
      expect(calls.map(contentOf)).toEqual(source.map(contentOf));
      expect(JSON.stringify(cliModel.requests.slice(asked).map((r) => r.body))).toContain(uuid);
      // Compared with its source: the same calls and the same answer.
      const compared = await caller().replay.compare({ b: step.id });
      expect(compared.match, JSON.stringify(compared)).toBe(true);
    },
    900_000,
  );
});
