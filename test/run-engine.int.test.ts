/**
 * The full language through the real worker: steps confined at the detected sandbox level,
 * retries recorded per attempt, inputs passed shell-safely, call_workflow pinned to the
 * versions current at run start, the ordered event log, and a run resumed from its
 * checkpoint by a second worker after the first was killed mid-step.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunJob } from "@switchyard/core/runs";
import { claimRun, listRunEvents, saveWorkflowVersion, type Db } from "@switchyard/db";
import type { TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded } from "./helpers/run-stack";
import { startTcpProxy } from "./helpers/tcp-proxy";
import { startWorker, waitFor, type WorkerHandle } from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let redis: Redis;
let prefix: string;
let worker: WorkerHandle;
let adminId: string;
let teamId: string;
const workerEnv = () => ({
  DATABASE_URL: database.url,
  SWITCHYARD_QUEUE_PREFIX: prefix,
  SWITCHYARD_JOB_LOCK_MS: "1500",
});

const caller = () => dashboardCaller({ db, queue, redis, prefix }, adminId);

const save = async (name: string, yaml: string) =>
  (await saveWorkflowVersion(db, { teamId, name, files: { "workflow.yaml": yaml } })).workflowId;

const runToEnd = async (workflowId: string, inputs?: Record<string, unknown>) => {
  const { id } = await caller().runs.start({ workflowId, inputs });
  return finished(id);
};

const finished = (id: string, timeoutMs = 30_000) =>
  runEnded(() => caller().runs.get({ id }), `run ${id}`, timeoutMs);

beforeAll(async () => {
  ({ database, db, queue, redis, prefix, adminId, teamId, worker } = await openRunStack({
    SWITCHYARD_JOB_LOCK_MS: "1500",
  }));
});
afterAll(() => closeRunStack({ database, db, queue, redis, worker }));

it("runs steps as an unprivileged step user that sees none of the worker's secrets", async () => {
  const id = await save(
    "whoami",
    `name: whoami
states:
  initial: look
  look:
    type: step
    command: 'id -u; echo "pwd=$PWD"; env | sort; ls /'
`,
  );
  const run = await runToEnd(id);
  expect(run.status).toBe("succeeded");
  const step = run.steps[0]!;
  const root = process.getuid?.() === 0;
  expect(step.sandboxLevel).toBe(root ? "strict" : "namespaces");
  const [uid] = step.stdout.split("\n");
  if (root) expect(Number(uid)).toBeGreaterThanOrEqual(100_000);
  expect(step.stdout).toContain("pwd=/workspace");
  for (const secret of [
    process.env.DATABASE_URL!,
    process.env.REDIS_URL!,
    "REDIS_PASSWORD",
    "SWITCHYARD_MASTER_KEY",
    "AUTH_SECRET",
  ]) {
    expect(step.stdout).not.toContain(secret);
  }
  expect(step.stdout).not.toMatch(/^work$/m); // the host's /work is not in the sandbox root
});

it("records each attempt of a retried step as its own step run", async () => {
  const id = await save(
    "flaky",
    `name: flaky
states:
  initial: try
  try:
    type: step
    command: 'if [ -f marker ]; then echo second; else touch marker; echo first; exit 4; fi'
    retry:
      max_attempts: 3
      initial_delay: 10ms
    on_success: done
  done:
    type: terminal
    status: success
`,
  );
  const run = await runToEnd(id);
  expect(run.status).toBe("succeeded");
  expect(
    run.steps.map((s) => [s.stateName, s.attempt, s.status, s.exitCode, s.stdout.trim()]),
  ).toEqual([
    ["try", 1, "failed", 4, "first"],
    ["try", 2, "succeeded", 0, "second"],
  ]);
});

it("passes inputs into commands without letting a value break out of its argument", async () => {
  const id = await save(
    "greeter",
    `name: greeter
inputs:
  - name: who
    type: string
    required: true
states:
  initial: greet
  greet:
    type: step
    command: echo "hello {{.inputs.who}}"
`,
  );
  const hostile = `"; touch pwned; echo "`;
  const run = await runToEnd(id, { who: hostile });
  expect(run.status).toBe("succeeded");
  expect(run.steps[0]!.stdout).toBe(`hello ${hostile}\n`);

  const check = await save(
    "check-pwned",
    "name: check-pwned\nstates:\n  initial: c\n  c:\n    type: step\n    command: 'ls'\n",
  );
  expect((await runToEnd(check)).steps[0]!.stdout).not.toContain("pwned");

  // A missing required input is refused at start, by name, before anything is queued.
  const refused = caller().runs.start({ workflowId: id });
  await expect(refused).rejects.toMatchObject({ cause: { code: "USER.INPUT.VALIDATION_FAILED" } });
  await expect(refused).rejects.toThrow(/who/);
});

it("resolves call_workflow by name within the team, pinned to the version current at run start", async () => {
  await save(
    "child",
    "name: child\nstates:\n  initial: say\n  say:\n    type: step\n    command: echo child-v1\n",
  );
  const parent = await save(
    "parent",
    `name: parent
states:
  initial: wait
  wait:
    type: step
    command: sleep 1
    on_success: call
  call:
    type: call_workflow
    workflow: child
    on_success: done
  done:
    type: terminal
    status: success
`,
  );
  const { id } = await caller().runs.start({ workflowId: parent });
  await save(
    "child",
    "name: child\nstates:\n  initial: say\n  say:\n    type: step\n    command: echo child-v2\n",
  );
  const run = await finished(id);
  expect(run.status).toBe("succeeded");
  const say = run.steps.find((s) => s.stateName === "say");
  expect(say?.stdout).toBe("child-v1\n");
});

it("runs a sub-workflow's script_file from the sub-workflow's own bundle", async () => {
  await saveWorkflowVersion(db, {
    teamId,
    name: "scripted-child",
    files: {
      "workflow.yaml":
        "name: scripted-child\nstates:\n  initial: s\n  s:\n    type: step\n    script_file: run.sh\n",
      "run.sh": "echo from-the-child-script\n",
    },
  });
  const parent = await saveWorkflowVersion(db, {
    teamId,
    name: "calls-scripted",
    files: {
      "workflow.yaml":
        "name: calls-scripted\nstates:\n  initial: c\n  c:\n    type: call_workflow\n    workflow: scripted-child\n    on_success: done\n  done:\n    type: terminal\n    status: success\n",
      "run.sh": "echo from-the-parent-script\n",
    },
  });
  const run = await runToEnd(parent.workflowId);
  expect(run.status).toBe("succeeded");
  expect(run.steps.find((s) => s.stateName === "s")?.stdout).toBe("from-the-child-script\n");
});

it("keeps an ordered event log of the run", async () => {
  const hello = (await caller().workflows.list()).find((w) => w.name === "hello-world")!;
  const run = await runToEnd(hello.id);
  const events = await listRunEvents(db, teamId, run.id);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  const types = events.map((e) => {
    const state = (e.payload as { state?: string }).state;
    return state === undefined ? e.type : `${e.type}:${state}`;
  });
  expect(types[0]).toBe("run.started");
  expect(types).toContain("state.started:greet");
  expect(types.indexOf("state.finished:greet")).toBeLessThan(
    types.indexOf("state.started:inspect"),
  );
  expect(types.at(-1)).toBe("run.finished");
});

it("resumes a run from its checkpoint on another worker after its worker is killed mid-step", async () => {
  const id = await save(
    "resumable",
    `name: resumable
states:
  initial: first
  first:
    type: step
    command: echo one
    on_success: second
  second:
    type: step
    command: 'sleep 2; echo slept'
    on_success: third
  third:
    type: step
    command: echo three
    on_success: done
  done:
    type: terminal
    status: success
`,
  );
  const { id: runId } = await caller().runs.start({ workflowId: id });
  await waitFor(async () =>
    (await caller().runs.get({ id: runId })).steps.find((s) => s.stateName === "second")?.status ===
    "running"
      ? true
      : undefined,
  );
  worker.child.kill("SIGKILL");
  await new Promise((r) => worker.child.once("exit", r));
  worker = await startWorker(workerEnv());

  const run = await finished(runId, 60_000);
  expect(run.status).toBe("succeeded");
  expect(run.steps.filter((s) => s.stateName === "first")).toHaveLength(1);
  expect(run.steps.filter((s) => s.stateName === "third")).toHaveLength(1);
  const seconds = run.steps.filter((s) => s.stateName === "second");
  expect(seconds.map((s) => [s.status, s.errorCode])).toEqual([
    ["failed", "EXECUTION.WORKER_LOST"],
    ["succeeded", null],
  ]);
  expect(seconds[1]!.stdout).toBe("slept\n");
});

const sleeper = (name: string) =>
  save(
    name,
    `name: ${name}
states:
  initial: nap
  nap:
    type: step
    command: 'sleep 2; echo rested'
    on_success: done
  done:
    type: terminal
    status: success
`,
  );

const napping = (runId: string) =>
  waitFor(async () =>
    (await caller().runs.get({ id: runId })).steps.some((s) => s.status === "running")
      ? true
      : undefined,
  );

it("hands a run to another worker when its worker is stopped, instead of cancelling it", async () => {
  await worker.stop();
  worker = await startWorker({ ...workerEnv(), SWITCHYARD_SHUTDOWN_GRACE_MS: "300" });
  const { id } = await caller().runs.start({ workflowId: await sleeper("graceful") });
  await napping(id);
  worker.child.kill("SIGTERM");
  await new Promise((r) => worker.child.once("exit", r));
  expect((await caller().runs.get({ id })).status).toBe("running");
  worker = await startWorker(workerEnv());
  const run = await finished(id, 60_000);
  expect(run.status).toBe("succeeded");
  expect(run.steps.map((s) => [s.status, s.errorCode])).toEqual([
    ["failed", "EXECUTION.WORKER_LOST"],
    ["succeeded", null],
  ]);
});

it("keeps a cancel made while the run's worker is gone", async () => {
  const { id } = await caller().runs.start({ workflowId: await sleeper("cancel-orphan") });
  await napping(id);
  worker.child.kill("SIGKILL");
  await new Promise((r) => worker.child.once("exit", r));
  expect(await caller().runs.cancel({ id })).toEqual({ status: "cancelling" });
  worker = await startWorker(workerEnv());
  const run = await finished(id, 60_000);
  expect(run).toMatchObject({ status: "cancelled", errorCode: "EXECUTION.CANCELLED" });
  expect(run.steps.filter((s) => s.status === "succeeded")).toEqual([]);
});

it("lets only one worker claim a run", async () => {
  const hello = (await caller().workflows.list()).find((w) => w.name === "hello-world")!;
  const run = await db.run.create({
    data: {
      teamId,
      workflowId: hello.id,
      workflowVersionId: (await db.workflow.findUniqueOrThrow({ where: { id: hello.id } }))
        .currentVersionId!,
      lane: "default",
      trigger: "api",
      status: "running",
      workerId: "dead:1",
    },
  });
  const seen = { status: "running", workerId: "dead:1" };
  const claims = await Promise.all(
    ["w1", "w2", "w3"].map((w) => claimRun(db, teamId, run.id, w, seen)),
  );
  expect(claims.filter(Boolean)).toHaveLength(1);
});

it("stops a stalled worker's copy of a run once another worker has taken it over, so no step runs twice", async () => {
  const id = await save(
    "stalls",
    `name: stalls
states:
  initial: a
  a:
    type: step
    command: 'sleep 3; echo a'
    on_success: b
  b:
    type: step
    command: echo b
    on_success: done
  done:
    type: terminal
    status: success
`,
  );
  const { id: runId } = await caller().runs.start({ workflowId: id });
  await napping(runId);
  const stalled = worker;
  stalled.child.kill("SIGSTOP");
  const rescuer = await startWorker(workerEnv());
  try {
    await waitFor(
      async () => {
        const row = await db.run.findUniqueOrThrow({ where: { id: runId } });
        return row.workerId?.endsWith(`:${rescuer.child.pid}`) ? true : undefined;
      },
      30_000,
      "another worker to take the run over",
    );
    stalled.child.kill("SIGCONT");
    const run = await finished(runId, 60_000);
    expect(run.status).toBe("succeeded");
    expect(run.steps.filter((s) => s.stateName === "b")).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 4000)); // the stalled worker's copy would finish its sleep by now
    expect(
      (await caller().runs.get({ id: runId })).steps.filter((s) => s.stateName === "b"),
    ).toHaveLength(1);
    expect((await caller().runs.get({ id: runId })).status).toBe("succeeded");
  } finally {
    stalled.child.kill("SIGCONT");
    await stalled.stop();
    worker = rescuer;
  }
});

it("resumes a run after its worker briefly lost the database, instead of failing it", async () => {
  const id = await save(
    "outlives-a-blip",
    `name: outlives-a-blip
states:
  initial: a
  a:
    type: step
    command: 'sleep 1; echo a'
    on_success: b
  b:
    type: step
    command: echo b
    on_success: done
  done:
    type: terminal
    status: success
`,
  );
  const url = new URL(database.url);
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  const viaProxy = new URL(database.url);
  viaProxy.port = String(proxy.port);
  await worker.stop();
  worker = await startWorker({ ...workerEnv(), DATABASE_URL: viaProxy.toString() });
  try {
    const { id: runId } = await caller().runs.start({ workflowId: id });
    await napping(runId);
    proxy.cut();
    await new Promise((r) => setTimeout(r, 2500));
    proxy.restore();
    const run = await finished(runId, 60_000);
    expect(run.status).toBe("succeeded");
    expect(run.steps.filter((s) => s.stateName === "b").map((s) => s.status)).toEqual([
      "succeeded",
    ]);
  } finally {
    await worker.stop();
    worker = await startWorker(workerEnv());
    await proxy.close();
  }
});
