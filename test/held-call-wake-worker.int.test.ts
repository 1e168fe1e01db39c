/**
 * The worker process hears an answered wait over Redis (main.ts): a step's held Write, with the
 * worker's poll set to an hour and the hold limit to ten minutes, runs once a person approves
 * it through the dashboard; only the announcement can have woken it.
 */
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { saveWorkflowVersion } from "@switchyard/db";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { waitFor } from "./helpers/worker-process";

const KEY = "sk-model-key-held-wake-5d2a";
let stack: RunStack;
let model: ScriptedModel;
const keyring = environmentKeyring();
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

/** The agent's one held call, then its reply once the call ran. */
const heldWrite = (match: { messagesContain: string }) => [
  {
    match,
    times: 1,
    toolCalls: [{ name: "Write", arguments: { path: "notes/a.txt", content: "woken\n" } }],
  },
  { match, times: 1, text: "written" },
];

beforeAll(async () => {
  const script = { turns: [], rules: heldWrite({ messagesContain: "WAKE-A" }) };
  model = await startScriptedModel({ host: "127.0.0.1", script });
  stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_APPROVAL_HOLD_MS: "600000",
    SWITCHYARD_WAIT_POLL_MS: "3600000",
  });
  const { teamId } = stack;
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
  // Every Write of the default lane waits for a person.
  const rules = [{ tool: "Write" }];
  await stack.db.lane.updateMany({
    where: { teamId, name: "default" },
    data: { approvalRules: rules },
  });
}, 300_000);
afterAll(async () => {
  await closeRunStack(stack);
  await model?.close();
});

it("a held call on a worker that polls hourly runs once it is approved", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "held-wake",
    files: {
      "workflow.yaml": `name: held-wake
states:
  initial: agent
${openAiAgentState(model.url, "WAKE-A write the note", "show")}  show:
    type: step
    command: cat notes/a.txt
    on_success: done
  done:
    type: terminal
    status: success
`,
    },
  });
  const { id } = await caller().runs.start({ workflowId });
  const held = await waitFor(
    async () =>
      (await stack.db.wait.findFirst({ where: { runId: id, status: "open" } })) ?? undefined,
    60_000,
    "the held call's wait",
  );
  await caller().waits.answer({ id: held.id, decision: "approve" });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 60_000);
  expect(run.status).toBe("succeeded");
}, 180_000);
