/**
 * End-to-end run latency and the orchestration cost around a step's process: runs of one
 * and of five no-op steps, started through startRun and executed by a real worker process,
 * against a bare BullMQ job round trip on the same Redis, and against the sandboxed
 * processes themselves (each step's process time as the worker's runner measured it in the
 * same run, read from the worker's "step … finished" log lines).
 */
import { Queue, QueueEvents, Worker } from "bullmq";
import { Redis } from "ioredis";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createDb, saveWorkflowVersion, startRun } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import { randomPrefix, startWorker } from "../test/helpers/worker-process";
import { timeIt, type Sample } from "./measure";

const quick = () => process.env.SWITCHYARD_BENCH_QUICK === "1";

const workflowOf = (steps: number) => {
  let yaml = `name: bench-${steps}-steps\nstates:\n  initial: s1\n`;
  for (let i = 1; i <= steps; i++)
    yaml += `  s${i}:\n    type: step\n    command: 'true'\n    on_success: ${i === steps ? "done" : `s${i + 1}`}\n`;
  return `${yaml}  done:\n    type: terminal\n`;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export const benchRuns = async (): Promise<Sample[]> => {
  const n = quick() ? 15 : 40;
  const redisUrl = process.env.REDIS_URL!;
  const connection = () => new Redis(redisUrl, { maxRetriesPerRequest: null });

  // Baseline: enqueue a job and wait until a worker in this process has completed it.
  const bp = randomPrefix();
  const bq = new Queue("bare", { connection: connection(), prefix: bp });
  const events = new QueueEvents("bare", { connection: connection(), prefix: bp });
  const bw = new Worker("bare", async () => "ok", {
    connection: connection(),
    prefix: bp,
    concurrency: 4,
  });
  await events.waitUntilReady();
  const bare = await timeIt(n, async () => {
    const job = await bq.add("j", {});
    await job.waitUntilFinished(events);
  });
  await bw.close();
  await events.close();
  await bq.obliterate({ force: true });
  await bq.close();

  // Subject: real runs, one at a time, on one worker.
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 4 });
  const prefix = randomPrefix();
  const queue = new Queue<RunJob>(RUN_QUEUE, { connection: connection(), prefix });
  const runEvents = new QueueEvents(RUN_QUEUE, { connection: connection(), prefix });
  await runEvents.waitUntilReady();
  const worker = await startWorker({ DATABASE_URL: database.url, SWITCHYARD_QUEUE_PREFIX: prefix });
  /** Each step's process time in a run, as the worker logged it. */
  const processMs = (runId: string) =>
    worker
      .logs()
      .split("\n")
      .filter((line) => line.includes(runId) && line.includes('"msg":"step s'))
      .map((line) => (JSON.parse(line) as { ms: number }).ms);
  try {
    const { team, admin } = await seed(db, {
      adminEmail: "bench@local",
      adminPassword: "bench-password",
    });
    const timeRuns = async (steps: number) => {
      const version = await saveWorkflowVersion(db, {
        teamId: team.id,
        name: `bench-${steps}-steps`,
        files: { "workflow.yaml": workflowOf(steps) },
      });
      const total: number[] = [];
      const beyond: number[] = [];
      const inProcess: number[] = [];
      const timing = await timeIt(n, async (i) => {
        const t0 = performance.now();
        const run = await startRun(
          { db, queue },
          {
            teamId: team.id,
            userId: admin.id,
            role: "owner",
            workflowId: version.workflowId,
            trigger: "api",
          },
        );
        // The job completes after the worker has recorded the run's end.
        const job = await queue.getJob(run.id);
        await job!.waitUntilFinished(runEvents, 30_000);
        const elapsed = performance.now() - t0;
        if (i < 0) return;
        const ms = processMs(run.id);
        if (ms.length !== steps)
          throw new Error(
            `run ${run.id}: ${ms.length} step lines in the worker's log, expected ${steps}`,
          );
        const processes = ms.reduce((a, b) => a + b, 0);
        total.push(elapsed);
        inProcess.push(processes);
        beyond.push(elapsed - processes);
      });
      return { timing, total: median(total), processes: median(inProcess), beyond: median(beyond) };
    };
    const one = await timeRuns(1);
    const five = await timeRuns(5);
    const perFurtherStep = (five.beyond - one.beyond) / 4;
    return [
      {
        name: "one-step run, start to finished (p50)",
        unit: "ms",
        baseline: bare.p50,
        subject: one.timing.p50,
        note: "bare BullMQ job round trip",
      },
      {
        name: "one-step run beyond its process (p50)",
        unit: "ms",
        baseline: one.processes,
        subject: one.total,
        note: `the step's sandboxed process in the same runs; beyond it ${one.beyond.toFixed(1)} ms, target ≤ 15`,
      },
      {
        name: "five-step run beyond its processes (p50)",
        unit: "ms",
        baseline: five.processes,
        subject: five.total,
        note: `beyond them ${five.beyond.toFixed(1)} ms: ${perFurtherStep.toFixed(1)} ms per further step, target ≤ 5`,
      },
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
