/**
 * Step attempts are recorded by the engine, which carries the attempt number across a
 * resume: a worker SIGKILLed between two attempts of a retried step, inside a loop inside
 * a parallel branch, leaves the next worker to record attempts 2 and 3, each with the
 * state's path, not a fresh attempt 1.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { saveWorkflowVersion } from "@switchyard/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { startWorker, waitFor } from "./helpers/worker-process";

const LOCK_MS = { SWITCHYARD_JOB_LOCK_MS: "1500" };
let stack: RunStack;

const caller = () => dashboardCaller(stack, stack.adminId);

beforeAll(async () => {
  stack = await openRunStack(LOCK_MS);
});
afterAll(() => closeRunStack(stack));

// The step fails the first time it runs in a workspace. Each worker gives the run a
// workspace of its own, so a run whose worker is killed after the first failure fails once
// more on the next worker, then succeeds: three attempts.
const FLAKY = `name: flaky-fan
states:
  initial: fan
  fan:
    type: parallel
    parallel: [each]
    strategy: all_succeed
    on_success: done
  each:
    type: for_each
    items: '["x"]'
    body: [flaky]
  flaky:
    type: step
    command: 'if [ -f marker ]; then echo passed; else touch marker; echo failed; exit 3; fi'
    retry:
      max_attempts: 3
      initial_delay: 3s
      backoff: constant
  done:
    type: terminal
    status: success
`;

it("records attempts 1, 2, 3 with the state's path when the worker is killed mid-retry", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "flaky-fan",
    files: { "workflow.yaml": FLAKY },
  });
  const { id } = await caller().runs.start({ workflowId });
  // Killed once the checkpoint says the next attempt is the second: during the retry delay.
  await waitFor(
    async () => {
      const row = await stack.db.run.findUniqueOrThrow({
        where: { id },
        select: { checkpoint: true },
      });
      const cursors =
        (row.checkpoint as { cursors?: Record<string, { kind: string; attempt?: number }> } | null)
          ?.cursors ?? {};
      return Object.values(cursors).some((c) => c.kind === "attempt" && c.attempt === 2)
        ? true
        : undefined;
    },
    30_000,
    "the retry of the first attempt to be checkpointed",
  );
  stack.worker.child.kill("SIGKILL");
  await new Promise((r) => stack.worker.child.once("exit", r));
  stack.worker = await startWorker({
    DATABASE_URL: stack.database.url,
    SWITCHYARD_QUEUE_PREFIX: stack.prefix,
    ...LOCK_MS,
  });

  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 60_000);
  expect(run.status).toBe("succeeded");
  const path = { workflow: "flaky-fan", key: "/fan/each/0/flaky", loop: [0], calls: [] };
  expect(
    run.steps.map((s) => [s.stateName, s.attempt, s.status, s.exitCode, s.stdout.trim(), s.path]),
  ).toEqual([
    ["flaky", 1, "failed", 3, "failed", path],
    ["flaky", 2, "failed", 3, "failed", path],
    ["flaky", 3, "succeeded", 0, "passed", path],
  ]);
}, 90_000);

const TWO = `name: two-steps
states:
  initial: first
  first:
    type: step
    command: date +%s%N
    on_success: second
  second:
    type: step
    command: "sleep 2; echo got {{.states.first.Output}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

it("takes a step's stored success as done, not running it again, when its worker died before the checkpoint past it", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "two-steps",
    files: { "workflow.yaml": TWO },
  });
  const { id } = await caller().runs.start({ workflowId });
  await waitFor(
    async () =>
      (await stack.db.stepRun.count({
        where: { runId: id, stateName: "second", status: "running" },
      })) > 0
        ? true
        : undefined,
    30_000,
    "the second step to start",
  );
  stack.worker.child.kill("SIGKILL");
  await new Promise((r) => stack.worker.child.once("exit", r));
  // As a kill between the first step's stored end and the checkpoint past it leaves the run.
  await stack.db.$executeRaw`UPDATE "Run" SET checkpoint = NULL WHERE id = ${id}`;
  stack.worker = await startWorker({
    DATABASE_URL: stack.database.url,
    SWITCHYARD_QUEUE_PREFIX: stack.prefix,
    ...LOCK_MS,
  });

  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 60_000);
  expect(run.status).toBe("succeeded");
  const first = run.steps.filter((s) => s.stateName === "first");
  expect(first.map((s) => [s.attempt, s.status])).toEqual([[1, "succeeded"]]);
  const seconds = run.steps
    .filter((s) => s.stateName === "second")
    .map((s) => [s.attempt, s.status, s.errorCode]);
  expect(seconds).toEqual([
    [1, "failed", "EXECUTION.WORKER_LOST"],
    [1, "succeeded", null],
  ]);
  expect(run.steps.at(-1)?.stdout.trim()).toBe(`got ${first[0]!.stdout.trim()}`);
}, 90_000);
