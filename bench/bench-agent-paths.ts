/**
 * Two agent paths beyond a plain step, on the lightest agent (openai_compatible against the
 * scripted model, no CLI) and a real worker process:
 * - a step that parks and resumes: its one Write is held for approval by the workflow's own
 *   rule (`mcp_proxy.approve`) with the worker's hold limit at 0, so the step is suspended at
 *   once (session sealed with the run, workspace kept, the run `waiting` with no worker); as
 *   soon as the park is done (the run waiting and its job no longer active) the wait is
 *   approved as the API does (answerWait, resumeParkedRun) and the run resumes on the worker.
 *   Against the same workflow without the rule, whose Write runs straight away. Whole run
 *   time, start to ended, runs taking turns.
 * - a replayed step: a live run's agent step (one Bash call, then the answer) against the
 *   replay of that very attempt (trigger `replay`: workspace restored from its snapshot, the
 *   call answered from the recording). The step's own time (its StepRun's start to finish),
 *   live and replay taking turns; the whole runs' times go in the note.
 * Each run's end is seen by polling its row every 5 ms, the same way for both sides.
 */
import {
  answerWait,
  resumeParkedRun,
  saveWorkflowVersion,
  startRun,
  type Db,
} from "@switchyard/db";
import { startScriptedModel } from "@switchyard/scripted-model";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { openAiAgentState } from "../test/helpers/agent-workflow";
import { closeRunStack, openRunStack } from "../test/helpers/run-stack";
import { summarise, type Sample } from "./measure";
import { buildCli } from "./step-kit";

const quick = () => process.env.SWITCHYARD_BENCH_QUICK === "1";
const POLL_MS = 5;
const RUN_TIMEOUT_MS = 120_000;
const ENDED = new Set(["succeeded", "failed", "cancelled"]);
const PARK = "PARK-ROW";
const REPLAY = "REPLAY-ROW";
/** Bash prints a text its own command does not hold, so the model can tell the result came. */
const BASH = "printf '%s-%s\\n' replay ok";

/** A one-step workflow around the tests' openai_compatible agent state (no key: the scripted model takes none). */
const agentWorkflow = (name: string, modelUrl: string, prompt: string, proxy = "") =>
  `name: ${name}\nstates:\n  initial: agent\n${openAiAgentState(
    modelUrl,
    prompt,
    "done",
    proxy,
  ).replace(
    '      api_key: "{{.env.MODEL_KEY}}"\n',
    "",
  )}  done:\n    type: terminal\n    status: success\n`;

const p50 = (values: number[]) => summarise(values).p50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const until = async <T>(what: string, check: () => Promise<T | undefined>): Promise<T> => {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(POLL_MS);
  }
};

const statusOf = async (db: Db, runId: string) =>
  (await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).status;

/** Waits for the run's end; a run that did not succeed fails the bench with its reasons. */
const succeeded = async (db: Db, runId: string) => {
  await until(`run ${runId} to end`, async () =>
    ENDED.has(await statusOf(db, runId)) ? true : undefined,
  );
  const run = await db.run.findUniqueOrThrow({
    where: { id: runId },
    select: {
      status: true,
      errorMessage: true,
      steps: { select: { stateName: true, status: true, errorMessage: true, output: true } },
    },
  });
  if (run.status !== "succeeded")
    throw new Error(`run ${runId} ${run.status}: ${JSON.stringify([run.errorMessage, run.steps])}`);
  return run;
};

export const benchAgentPaths = async (): Promise<Sample[]> => {
  const n = quick() ? 10 : 20;
  buildCli();
  const model = await startScriptedModel({
    host: "127.0.0.1",
    keepRequests: false,
    script: {
      turns: [],
      rules: [
        { match: { messagesContain: "Wrote " }, text: "noted" },
        { match: { messagesContain: "replay-ok" }, text: "ran it" },
        {
          match: { messagesContain: PARK },
          toolCalls: [{ name: "Write", arguments: { path: "note.txt", content: "a note\n" } }],
        },
        {
          match: { messagesContain: REPLAY },
          toolCalls: [{ name: "Bash", arguments: { command: BASH } }],
        },
      ],
    },
  });
  const stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    SWITCHYARD_APPROVAL_HOLD_MS: "0",
  }).catch(async (error: unknown) => {
    await model.close();
    throw error;
  });
  const { db, queue } = stack;
  try {
    const starter = { teamId: stack.teamId, userId: stack.adminId, role: "owner" as const };
    const save = (name: string, yaml: string) =>
      saveWorkflowVersion(db, { teamId: stack.teamId, name, files: { "workflow.yaml": yaml } });
    const start = (workflowId: string) =>
      startRun({ db, queue }, { ...starter, workflowId, trigger: "api" });

    const straight = await save(
      "straight",
      agentWorkflow("straight", model.url, `${PARK} write a note`),
    );
    const parking = await save(
      "parking",
      agentWorkflow(
        "parking",
        model.url,
        `${PARK} write a note`,
        "    mcp_proxy:\n      approve:\n        - tool: Write\n",
      ),
    );
    const live = await save("live", agentWorkflow("live", model.url, `${REPLAY} run it`));

    const runStraight = async () => {
      const t0 = performance.now();
      const run = await start(straight.workflowId);
      await succeeded(db, run.id);
      return performance.now() - t0;
    };
    /** Per parked run: start to parked, and answered to ended. */
    let phases = { parked: [] as number[], resumed: [] as number[] };
    const runParked = async () => {
      const t0 = performance.now();
      const run = await start(parking.workflowId);
      // Parked: the run waits on its parked wait, and its job has ended (the worker let it go).
      const waitId = await until(`run ${run.id} to park`, async () => {
        const status = await statusOf(db, run.id);
        if (ENDED.has(status)) throw new Error(`run ${run.id} ended (${status}) without parking`);
        if (status !== "waiting" || (await queue.getJobState(run.id)) === "active")
          return undefined;
        const wait = await db.wait.findFirst({
          where: { runId: run.id, status: "open", parked: true },
          select: { id: true },
        });
        return wait?.id;
      });
      const parkedAt = performance.now();
      await answerWait(db, {
        teamId: stack.teamId,
        waitId,
        answer: { decision: "approve" },
        caller: { userId: stack.adminId, role: "owner" },
      });
      const resumed = await resumeParkedRun(queue, db, { teamId: stack.teamId, runId: run.id });
      if (resumed !== "enqueued")
        throw new Error(`run ${run.id} was not enqueued again: ${resumed}`);
      const ended = await succeeded(db, run.id);
      const agent = ended.steps.find((s) => s.stateName === "agent");
      if (agent?.output !== "noted")
        throw new Error(`the parked step ended ${JSON.stringify(agent)}`);
      const t1 = performance.now();
      phases.parked.push(parkedAt - t0);
      phases.resumed.push(t1 - parkedAt);
      return t1 - t0;
    };

    const stepMs = async (runId: string) => {
      const step = await db.stepRun.findFirstOrThrow({
        where: { runId, stateName: "agent" },
        orderBy: { createdAt: "desc" },
        select: { id: true, startedAt: true, finishedAt: true },
      });
      if (!step.startedAt || !step.finishedAt) throw new Error(`step ${step.id} has no times`);
      return { id: step.id, ms: step.finishedAt.getTime() - step.startedAt.getTime() };
    };
    const replayTimes = { live: [] as number[], replay: [] as number[] };
    const replayRuns = { live: [] as number[], replay: [] as number[] };
    const liveThenReplay = async (keep: boolean) => {
      let t0 = performance.now();
      const source = await start(live.workflowId);
      await succeeded(db, source.id);
      const liveRun = performance.now() - t0;
      const liveStep = await stepMs(source.id);
      t0 = performance.now();
      const replay = await startRun(
        { db, queue },
        {
          ...starter,
          workflowId: live.workflowId,
          versionId: live.id,
          inputs: {},
          trigger: "replay",
          replay: { ofId: liveStep.id, options: {} },
        },
      );
      const replayed = await succeeded(db, replay.id);
      const replayRun = performance.now() - t0;
      const replayStep = await stepMs(replay.id);
      const calls = await db.toolCall.findMany({
        where: { stepRunId: replayStep.id },
        select: { toolName: true, replay: true },
      });
      if (calls.length !== 1 || calls[0]!.replay !== "recorded")
        throw new Error(
          `the replay's calls: ${JSON.stringify(calls)} (${JSON.stringify(replayed.steps)})`,
        );
      if (!keep) return;
      replayTimes.live.push(liveStep.ms);
      replayTimes.replay.push(replayStep.ms);
      replayRuns.live.push(liveRun);
      replayRuns.replay.push(replayRun);
    };

    // Warm-up: one of each, not counted.
    await runStraight();
    await runParked();
    await liveThenReplay(false);
    phases = { parked: [], resumed: [] };
    const times = { straight: [] as number[], parked: [] as number[] };
    for (let i = 0; i < n; i++) {
      times.straight.push(await runStraight());
      times.parked.push(await runParked());
      await liveThenReplay(true);
    }
    const straightP50 = p50(times.straight);
    const parkedP50 = p50(times.parked);
    const liveP50 = p50(replayTimes.live);
    const replayP50 = p50(replayTimes.replay);
    return [
      {
        name: "agent step suspended and resumed, run (p50)",
        unit: "ms",
        baseline: straightP50,
        subject: parkedP50,
        note: `the same run not parking (openai_compatible, scripted model); added ${(parkedP50 - straightP50).toFixed(0)} ms; start to parked ${p50(phases.parked).toFixed(0)} ms, answer to end ${p50(phases.resumed).toFixed(0)} ms; ${n} runs each`,
      },
      {
        name: "replayed agent step vs live (p50)",
        unit: "ms",
        baseline: liveP50,
        subject: replayP50,
        note: `the live step it replays (one Bash call), StepRun times; runs ${p50(replayRuns.live).toFixed(0)} vs ${p50(replayRuns.replay).toFixed(0)} ms; ${n} each`,
      },
    ];
  } finally {
    await closeRunStack(stack);
    await model.close();
  }
};
