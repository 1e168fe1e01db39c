/**
 * Tool-call approval through the real worker with an openai_compatible agent step against the
 * scripted model (docs/governance.md). The lane's rule holds every Write: a call is held open
 * while a person answers (a Wait row with the arguments' hash), an approval lets exactly that
 * call run, a later call with other arguments waits again and a denial reaches the agent as the
 * tool's error with the person's message. Past the hold limit the step is suspended: the run
 * waits holding no process and no worker, its session sealed with the run; answered after the
 * worker was replaced, the run resumes on the new worker with its workspace, the approved call
 * runs, and the step goes on in the same attempt row.
 */
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { argumentsHash } from "@switchyard/core/governance";
import { listStepToolCalls, saveWorkflowVersion, sumSpend } from "@switchyard/db";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, processesOfRun, startWorker, waitFor } from "./helpers/worker-process";

const KEY = "sk-model-key-approvals-7c1e";
let stack: RunStack;
let model: ScriptedModel;
let workerEnv: Record<string, string>;
const keyring = environmentKeyring();
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

beforeAll(async () => {
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        {
          match: { messagesContain: "HOLD-A" },
          times: 1,
          toolCalls: [{ name: "Write", arguments: { path: "notes/a.txt", content: "approved\n" } }],
        },
        {
          match: { messagesContain: "HOLD-A" },
          times: 1,
          toolCalls: [{ name: "Write", arguments: { path: "notes/b.txt", content: "changed\n" } }],
        },
        { match: { messagesContain: "HOLD-A" }, times: 1, text: "held calls done" },
        {
          match: { messagesContain: "PARK-B" },
          times: 1,
          toolCalls: [
            { name: "Write", arguments: { path: "notes/parked.txt", content: "after the wait\n" } },
          ],
        },
        { match: { messagesContain: "PARK-B" }, times: 1, text: "resumed and wrote it" },
        // A chat whose second turn makes a held call.
        {
          match: { messagesContain: "CHAT-HOLD-2" },
          times: 1,
          toolCalls: [
            { name: "Write", arguments: { path: "notes/chat.txt", content: "turn two\n" } },
          ],
        },
        { match: { messagesContain: "CHAT-HOLD-2" }, times: 1, text: "chat reply two" },
        { match: { messagesContain: "CHAT-HOLD-1" }, times: 1, text: "chat reply one" },
      ],
    },
  });
  workerEnv = {
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_APPROVAL_HOLD_MS: "2500",
  };
  stack = await openRunStack(workerEnv);
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
  await stack.db.lane.updateMany({
    where: { teamId: stack.teamId, name: "default" },
    data: { approvalRules: [{ tool: "Write" }] },
  });
}, 300_000);
afterAll(async () => {
  await closeRunStack(stack);
  await model?.close();
});

const workflow = (name: string, prompt: string) => `name: ${name}
states:
  initial: agent
${openAiAgentState(model.url, prompt, "show")}  show:
    type: step
    command: cat notes/*.txt
    on_success: done
  done:
    type: terminal
    status: success
`;

const openWait = (runId: string, not: string[] = []) =>
  waitFor(
    async () =>
      (await stack.db.wait.findFirst({
        where: { runId, status: "open", id: { notIn: not } },
        orderBy: { createdAt: "desc" },
      })) ?? undefined,
    60_000,
    `an open wait of run ${runId}`,
  );

/** Answered as a person answers, through the API: a parked run is queued again. */
const answer = (waitId: string, decision: "approve" | "deny", message?: string) =>
  caller().waits.answer({ id: waitId, decision, ...(message ? { message } : {}) });

it("holds a call until it is approved, binds the approval to its arguments, and tells the agent of a denial", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "approve-held",
    files: { "workflow.yaml": workflow("approve-held", "HOLD-A write the notes") },
  });
  const { id } = await caller().runs.start({ workflowId });
  const first = await openWait(id);
  expect(first).toMatchObject({ kind: "tool_call", lane: "default", parked: false });
  expect(first.argumentsHash).toBe(argumentsHash({ path: "notes/a.txt", content: "approved\n" }));
  expect(first.detail).toMatchObject({
    tool: "Write",
    source: "builtin",
    rule: "Write",
    ruleOrigin: "lane",
    arguments: { path: "notes/a.txt", content: "approved\n" },
  });
  // Held: nothing was written yet, the run still runs.
  expect((await caller().runs.get({ id })).status).toBe("running");
  await answer(first.id, "approve");
  // The next Write has other arguments: the approval does not cover it, it waits again.
  const second = await openWait(id, [first.id]);
  expect(second.argumentsHash).toBe(argumentsHash({ path: "notes/b.txt", content: "changed\n" }));
  await answer(second.id, "deny", "keep to notes/a.txt");
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
  expect(
    run.status,
    JSON.stringify(run.steps.map((s) => [s.stateName, s.status, s.errorMessage])),
  ).toBe("succeeded");
  const agent = run.steps.find((s) => s.stateName === "agent")!;
  expect(agent.output).toBe("held calls done");
  expect(run.steps.find((s) => s.stateName === "show")!.stdout).toBe("approved\n");
  const calls = await listStepToolCalls(stack.db, stack.teamId, agent.id);
  expect(calls.map((c) => [c.toolName, c.isError, c.errorType])).toEqual([
    ["Write", false, null],
    ["Write", true, "USER.APPROVAL.DENIED"],
  ]);
  expect(JSON.stringify(calls[1]!.result)).toContain("keep to notes/a.txt");
}, 180_000);

it("suspends a step held past its limit, parks the run without a worker, and resumes it on another worker", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "approve-parked",
    files: { "workflow.yaml": workflow("approve-parked", "PARK-B write after the wait") },
  });
  const { id } = await caller().runs.start({ workflowId });
  const wait = await openWait(id);
  const parked = await waitFor(
    async () => {
      const run = await caller().runs.get({ id });
      return run.status === "waiting" ? run : undefined;
    },
    60_000,
    "the run to wait",
  );
  expect(parked.steps.find((s) => s.stateName === "agent")!.status).toBe("waiting");
  expect(await stack.db.wait.findUniqueOrThrow({ where: { id: wait.id } })).toMatchObject({
    parked: true,
    status: "open",
  });
  // Nothing of the run runs, and no worker holds it.
  await waitFor(
    async () => (processesOfRun(id).length === 0 ? true : undefined),
    10_000,
    "no process",
  );
  expect((await stack.db.run.findUniqueOrThrow({ where: { id } })).workerId).toBeNull();
  const session = await stack.db.agentSession.findFirstOrThrow({ where: { runId: id } });
  expect(session.provider).toBe("openai_compatible");
  // Sealed: what the conversation holds is not readable in the row.
  expect(Buffer.from(session.sealed).toString("utf8")).not.toContain("PARK-B");

  // The worker goes away while the run waits; another one takes it when the answer comes.
  await stack.worker.stop();
  stack.worker = await startWorker({
    DATABASE_URL: stack.database.url,
    SWITCHYARD_QUEUE_PREFIX: stack.prefix,
    ...workerEnv,
  });
  await answer(wait.id, "approve");
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000).catch(() =>
    caller().runs.get({ id }),
  );
  expect(
    run.status,
    JSON.stringify([
      run.errorMessage,
      run.steps.map((s) => [s.stateName, s.status, s.errorMessage]),
    ]),
  ).toBe("succeeded");
  const agents = run.steps.filter((s) => s.stateName === "agent");
  // One attempt, continued: the same row, which ended as the step ended.
  expect(agents.map((s) => [s.id, s.status])).toEqual([
    [parked.steps.find((s) => s.stateName === "agent")!.id, "succeeded"],
  ]);
  expect(agents[0]!.output).toBe("resumed and wrote it");
  expect(run.steps.find((s) => s.stateName === "show")!.stdout).toBe("after the wait\n");
  expect(await stack.db.agentSession.count({ where: { runId: id } })).toBe(0);
  // The attempt's tokens are both parts': before the suspension and after it (the ledger's).
  const row = await stack.db.stepRun.findUniqueOrThrow({ where: { id: agents[0]!.id } });
  const spent = await sumSpend(stack.db, stack.teamId, { stepRunId: row.id });
  expect(spent.tokens).toBeGreaterThan(0);
  expect((row.inputTokens ?? 0) + (row.outputTokens ?? 0)).toBe(spent.tokens);
  // What it started with was recorded once, when it first started.
  expect(row.agentRequest).toMatchObject({ prompt: "PARK-B write after the wait" });
}, 240_000);

it("keeps a chat's earlier turns and tokens when a call held in a later turn is approved after a park", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "chat-held",
    files: {
      "workflow.yaml": workflow("chat-held", "CHAT-HOLD-1 start").replace(
        "    provider: openai_compatible\n",
        "    provider: openai_compatible\n    mode: conversation\n",
      ),
    },
  });
  const { id } = await caller().runs.start({ workflowId });
  const parkedOn = async (kind: string, not: string[]) =>
    waitFor(
      async () =>
        (await stack.db.wait.findFirst({
          where: { runId: id, kind, status: "open", parked: true, id: { notIn: not } },
        })) ?? undefined,
      60_000,
      `run ${id} to park on a ${kind} wait`,
    );
  const first = await parkedOn("message", []);
  const chatStep = () =>
    stack.db.stepRun.findFirstOrThrow({ where: { runId: id, stateName: "agent" } });
  const afterOne = await chatStep();
  await caller().waits.answer({ id: first.id, message: "CHAT-HOLD-2 write it down" });
  // Turn 2's Write is held past the limit: the run parks on the call, then goes on approved.
  const held = await parkedOn("tool_call", []);
  await answer(held.id, "approve");
  const second = await parkedOn("message", [first.id]);
  expect(second.detail).toMatchObject({ turn: 2, reply: "chat reply two" });
  await caller().waits.answer({ id: second.id, message: "exit" });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
  expect(run.status).toBe("succeeded");
  const chat = run.steps.filter((s) => s.stateName === "agent");
  expect(chat.map((s) => [s.id, s.status])).toEqual([[afterOne.id, "succeeded"]]);
  expect(run.steps.find((s) => s.stateName === "show")!.stdout).toBe("turn two\n");
  expect(chat[0]!.conversation!.turns.map((t) => [t.role, t.content])).toEqual([
    ["user", "CHAT-HOLD-1 start"],
    ["assistant", "chat reply one"],
    ["user", "CHAT-HOLD-2 write it down"],
    ["assistant", "chat reply two"],
  ]);
  expect(chat[0]!.conversation!.total_turns).toBe(4);
  // Every turn's tokens: the ledger's for the attempt, the first turn's included.
  const row = await stack.db.stepRun.findUniqueOrThrow({ where: { id: afterOne.id } });
  const spent = await sumSpend(stack.db, stack.teamId, { stepRunId: row.id });
  const requests = model.requests.filter((r) => JSON.stringify(r.body).includes("CHAT-HOLD-1"));
  expect(requests).toHaveLength(3);
  expect((row.inputTokens ?? 0) + (row.outputTokens ?? 0)).toBe(spent.tokens);
  expect(chat[0]!.conversation!.total_tokens).toBe(spent.tokens);
}, 240_000);
