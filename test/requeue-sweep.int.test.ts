/**
 * The worker's requeue sweep against real Postgres, Redis and BullMQ: an open run whose job
 * Redis lost (a restart without persistence, the queue obliterated) gets its job back, with
 * the run's id and the data a start gives it; ended runs, young runs (their starter may not
 * have added the job yet), runs whose job is there, runs held by a live worker elsewhere
 * and runs this worker is still stopping are left alone; an open run whose job finished is
 * taken up again once that job is no longer fresh.
 */
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RUN_QUEUE, workerHeartbeatKey, type RunJob } from "@switchyard/core/runs";
import { createRun, enqueueRunJob, saveWorkflowVersion } from "@switchyard/db";
import { createLogger } from "../apps/worker/src/logger";
import { sweepLostRuns } from "../apps/worker/src/requeue-sweep";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { randomPrefix, waitFor } from "./helpers/worker-process";

const WORKER = "sweeper:101";
const MIN_AGE_MS = 1500;

let seeded: SeededDatabase;
let workflowId: string;
let workflowVersionId: string;
let prefix: string;
let redis: Redis;
let queue: Queue<RunJob>;
/** Runs this worker is still stopping, as its BullMQ worker would say. */
const stoppingHere = new Set<string>();
const stopAsked: string[] = [];

beforeAll(async () => {
  seeded = await openSeededDatabase();
  const saved = await saveWorkflowVersion(seeded.db, {
    teamId: seeded.teamId,
    name: "sweep",
    files: {
      "workflow.yaml":
        "name: sweep\nstates:\n  initial: a\n  a:\n    type: step\n    command: echo a\n    on_success: done\n  done:\n    type: terminal\n",
    },
  });
  workflowId = saved.workflowId;
  workflowVersionId = saved.id;
  prefix = randomPrefix();
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = new Queue<RunJob>(RUN_QUEUE, { connection: redis, prefix });
});
afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await seeded?.close();
});

const sweep = () =>
  sweepLostRuns({
    db: seeded.db,
    queue,
    redis,
    prefix,
    workerId: WORKER,
    minAgeMs: MIN_AGE_MS,
    log: createLogger("error"),
    stopHere: (runId) => {
      stopAsked.push(runId);
      return stoppingHere.has(runId);
    },
  });

/** A run created a minute ago, then set as given (status, holder). */
const oldRun = async (set: { status?: "running" | "succeeded"; workerId?: string } = {}) => {
  const run = await createRun(seeded.db, {
    teamId: seeded.teamId,
    workflowId,
    workflowVersionId,
    lane: "default",
    trigger: "api",
    inputs: {},
    startedById: seeded.adminId,
  });
  await seeded.db.run.update({
    where: { id: run.id },
    data: {
      createdAt: new Date(Date.now() - 60_000),
      ...set,
      ...(set.status === "succeeded" ? { finishedAt: new Date() } : {}),
    },
  });
  return run;
};

const stateOf = (runId: string) => queue.getJobState(runId);

it("adds the job of a queued run again after the queue lost it, with the run's id and data", async () => {
  const run = await oldRun();
  await enqueueRunJob(queue, { runId: run.id, teamId: seeded.teamId });
  expect((await sweep()).requeued).not.toContain(run.id);

  await queue.obliterate({ force: true });
  expect(await stateOf(run.id)).toBe("unknown");
  expect((await sweep()).requeued).toContain(run.id);
  const job = await queue.getJob(run.id);
  expect(job?.id).toBe(run.id);
  expect(job?.name).toBe("run");
  expect(job?.data).toEqual({ runId: run.id, teamId: seeded.teamId });
  expect(job?.opts.attempts).toBe(5);
  expect(await stateOf(run.id)).toBe("waiting");
  // Once back, it is left as it is.
  expect((await sweep()).requeued).not.toContain(run.id);
});

it("leaves ended runs and young runs alone", async () => {
  const ended = await oldRun({ status: "succeeded" });
  const young = await createRun(seeded.db, {
    teamId: seeded.teamId,
    workflowId,
    workflowVersionId,
    lane: "default",
    trigger: "api",
    inputs: {},
    startedById: seeded.adminId,
  });
  const { requeued } = await sweep();
  expect(requeued).not.toContain(ended.id);
  expect(requeued).not.toContain(young.id);
  expect(await stateOf(ended.id)).toBe("unknown");
  expect(await stateOf(young.id)).toBe("unknown");
});

it("resumes a running run whose worker is gone, not one a live worker elsewhere holds", async () => {
  const orphan = await oldRun({ status: "running", workerId: "gone:7" });
  const held = await oldRun({ status: "running", workerId: "alive:8" });
  await redis.set(workerHeartbeatKey(prefix, "alive:8"), "{}", "EX", 60);
  const { requeued } = await sweep();
  expect(requeued).toContain(orphan.id);
  expect(requeued).not.toContain(held.id);
  expect(await stateOf(orphan.id)).toBe("waiting");
  expect(await stateOf(held.id)).toBe("unknown");
});

it("stops this worker's own execution of a run whose job is gone, and adds the job once it has stopped", async () => {
  const mine = await oldRun({ status: "running", workerId: WORKER });
  stoppingHere.add(mine.id);
  const first = await sweep();
  expect(stopAsked).toContain(mine.id);
  expect(first.requeued).not.toContain(mine.id);
  expect(first.stopping).toContain(mine.id);
  expect(await stateOf(mine.id)).toBe("unknown");

  stoppingHere.delete(mine.id);
  const second = await sweep();
  expect(second.requeued).toContain(mine.id);
  expect(second.stopping).not.toContain(mine.id);
  expect(await stateOf(mine.id)).toBe("waiting");
});

it("takes up again an open run whose job finished, once that job is not fresh; not a run that ended", async () => {
  await queue.obliterate({ force: true });
  const open = await oldRun({ status: "running", workerId: "gone:9" });
  const ended = await oldRun({ status: "succeeded" });
  await enqueueRunJob(queue, { runId: open.id, teamId: seeded.teamId });
  await enqueueRunJob(queue, { runId: ended.id, teamId: seeded.teamId });
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const worker = new Worker<RunJob>(RUN_QUEUE, async () => ({ status: "taken over" }), {
    connection,
    prefix,
  });
  try {
    await waitFor(
      async () =>
        ((await stateOf(open.id)) === "completed" && (await stateOf(ended.id)) === "completed") ||
        undefined,
      20_000,
      "both jobs completed",
    );
  } finally {
    await worker.close();
    connection.disconnect();
  }
  // Just finished: the run may be about to be closed by whoever ran it.
  const fresh = (await sweep()).requeued;
  expect(fresh).not.toContain(open.id);
  expect(fresh).not.toContain(ended.id);
  await new Promise((r) => setTimeout(r, MIN_AGE_MS + 200));
  const { requeued } = await sweep();
  expect(requeued).toContain(open.id);
  expect(requeued).not.toContain(ended.id);
  expect(await stateOf(open.id)).toBe("waiting");
  expect((await queue.getJob(open.id))?.data).toEqual({ runId: open.id, teamId: seeded.teamId });
  expect(await stateOf(ended.id)).toBe("completed");
});
