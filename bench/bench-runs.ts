/**
 * End-to-end run latency: a one-step workflow started through the dashboard's startRun and
 * executed by a real worker process, against a bare BullMQ job round trip on the same Redis.
 */
import { Queue, QueueEvents, Worker } from "bullmq";
import { Redis } from "ioredis";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createDb, saveWorkflowVersion } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import { startRun } from "../apps/web/src/server/runs/start-run";
import { randomPrefix, startWorker } from "../test/helpers/worker-process";
import { timeIt, type Sample } from "./measure";

const N = 30;

export const benchRuns = async (): Promise<Sample[]> => {
  const redisUrl = process.env.REDIS_URL!;
  const connection = () => new Redis(redisUrl, { maxRetriesPerRequest: null });

  // Baseline: enqueue a job and wait until a worker in this process has completed it.
  const bp = randomPrefix();
  const bq = new Queue("bare", { connection: connection(), prefix: bp });
  const events = new QueueEvents("bare", { connection: connection(), prefix: bp });
  const bw = new Worker("bare", async () => "ok", { connection: connection(), prefix: bp, concurrency: 4 });
  await events.waitUntilReady();
  const bare = await timeIt(N, async () => {
    const job = await bq.add("j", {});
    await job.waitUntilFinished(events);
  });
  await bw.close();
  await events.close();
  await bq.obliterate({ force: true });
  await bq.close();

  // Subject: a real run of a one-step workflow.
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 4 });
  const prefix = randomPrefix();
  const queue = new Queue<RunJob>(RUN_QUEUE, { connection: connection(), prefix });
  const runEvents = new QueueEvents(RUN_QUEUE, { connection: connection(), prefix });
  await runEvents.waitUntilReady();
  const worker = await startWorker({ DATABASE_URL: database.url, SWITCHYARD_QUEUE_PREFIX: prefix });
  try {
    const { team, admin } = await seed(db, { adminEmail: "bench@local", adminPassword: "bench-password" });
    const version = await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "bench-one-step",
      files: { "workflow.yaml": "name: bench-one-step\nstates:\n  initial: s\n  s:\n    type: step\n    command: 'true'\n" },
    });
    const runs = await timeIt(N, async () => {
      const run = await startRun(
        { db, queue },
        { teamId: team.id, userId: admin.id, role: "owner", workflowId: version.workflowId, trigger: "api" },
      );
      // The job completes after the worker has recorded the run's end.
      const job = await queue.getJob(run.id);
      await job!.waitUntilFinished(runEvents, 30_000);
    });
    return [
      { name: "one-step run, start to finished (p50)", unit: "ms", baseline: bare.p50, subject: runs.p50, note: "bare BullMQ job round trip" },
    ];
  } finally {
    await worker.stop();
    await runEvents.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await db.$disconnect();
    await database.drop();
  }
};
