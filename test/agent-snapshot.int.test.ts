/**
 * What a real worker keeps as an agent attempt starts, for replays: an openai_compatible
 * step against the scripted model, after a shell step laid out the workspace. The attempt's
 * row holds its request (scrubbed, no key) and a snapshot that restores to the workspace as
 * it was before the agent wrote into it; a workspace over the team's cap is not kept, a run
 * event says why, and the step runs all the same.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { restoreWorkspaceSnapshot, saveWorkflowVersion } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { treeListing } from "@switchyard/testing/sandbox";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";

const KEY = "sk-model-key-9d1e4b7a2c60f3";
/** The team's snapshots may hold this much: the first workspace fits, the second does not. */
const TEAM_BYTES = 16_384;

let stack: RunStack;
let model: ScriptedModel;
let scratch: string;
const caller = () => dashboardCaller({ ...stack, keyring: environmentKeyring() }, stack.adminId);

beforeAll(async () => {
  buildSwitchyardCli();
  scratch = await mkdtemp(path.join(tmpdir(), "sy-agent-snap-"));
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        {
          match: { messagesContain: "SNAP-WRITE" },
          times: 1,
          toolCalls: [
            { name: "Write", arguments: { path: "notes/hello.txt", content: "written later\n" } },
          ],
        },
        { match: { messagesContain: "SNAP-WRITE" }, text: "wrote it" },
        { match: { messagesContain: "SNAP-CAP" }, text: "ran anyway" },
      ],
    },
  });
  stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_SNAPSHOT_TEAM_BYTES: String(TEAM_BYTES),
  });
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
}, 300_000);
afterAll(async () => {
  await closeRunStack(stack);
  await model?.close();
  await rm(scratch, { recursive: true, force: true });
});

const workflow = (name: string, prepare: string, prompt: string) => `name: ${name}
states:
  initial: prepare
  prepare:
    type: step
    command: ${prepare}
    on_success: agent
${openAiAgentState(model.url, prompt, "done")}  done:
    type: terminal
    status: success
`;

/** Runs a workflow to its end; the run (succeeded) and its agent attempt's row. */
const runAgent = async (name: string, prepare: string, prompt: string) => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: { "workflow.yaml": workflow(name, prepare, prompt) },
  });
  const { id } = await caller().runs.start({ workflowId });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
  expect(
    run.status,
    JSON.stringify(run.steps.map((s) => [s.stateName, s.status, s.errorMessage, s.stderr])),
  ).toBe("succeeded");
  const agent = run.steps.find((s) => s.stateName === "agent")!;
  return { runId: id, row: await stack.db.stepRun.findUniqueOrThrow({ where: { id: agent.id } }) };
};

it("keeps the attempt's request and the workspace as it was before the agent wrote into it", async () => {
  const { runId, row } = await runAgent(
    "agent-snap",
    `"mkdir -p src empty && printf 'hi\\n' > src/a.txt && chmod 750 src/a.txt && ln -s a.txt src/link"`,
    "SNAP-WRITE with {{.env.MODEL_KEY}}",
  );
  // The request as the engine rendered it, the key gone from its options and its prompt.
  const request = row.agentRequest as { provider: string; prompt: string; options: object };
  expect(request.provider).toBe("openai_compatible");
  expect(request.prompt).toMatch(/^SNAP-WRITE with /);
  expect(request.options).toEqual({ base_url: `${model.url}/v1`, model: "scripted-1" });
  expect(JSON.stringify(row.agentRequest)).not.toContain(KEY);

  expect(row.snapshotId).toBeTruthy();
  const snapshot = await stack.db.workspaceSnapshot.findUniqueOrThrow({
    where: { id: row.snapshotId! },
  });
  expect([snapshot.teamId, snapshot.runId]).toEqual([stack.teamId, runId]);
  const restored = path.join(scratch, "restored");
  await mkdir(restored);
  await restoreWorkspaceSnapshot(stack.db, stack.teamId, row.snapshotId!, restored);
  expect(await treeListing(restored)).toEqual({
    empty: "dir",
    src: "dir",
    "src/a.txt": "file 750 hi\n",
    "src/link": "link a.txt",
  });
  expect(await stack.db.runEvent.count({ where: { runId, type: "snapshot.not_kept" } })).toBe(0);
}, 180_000);

it("runs the step without a snapshot over the team's cap, saying why", async () => {
  const { runId, row } = await runAgent(
    "agent-snap-cap",
    `"head -c ${TEAM_BYTES + 1} /dev/zero > big.bin"`,
    "SNAP-CAP",
  );
  expect(row.output).toBe("ran anyway");
  expect(row.snapshotId).toBeNull();
  expect(row.agentRequest).toMatchObject({ prompt: "SNAP-CAP" });
  const events = await stack.db.runEvent.findMany({
    where: { runId, type: "snapshot.not_kept" },
    select: { payload: true },
  });
  expect(events).toEqual([
    {
      payload: {
        stepRunId: row.id,
        state: "agent",
        attempt: 1,
        reason: expect.stringMatching(/over the team's limit of 16384 bytes$/) as unknown,
      },
    },
  ]);
}, 180_000);
