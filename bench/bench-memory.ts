/**
 * Memory: a real worker's resident memory idle (after boot and a settle) and after 1,000
 * one-step runs, each read after a full garbage collection, with its V8 heap, and the growth
 * from the 200th run on (past warm-up: module loading, JIT, pools), which a leak shows as.
 * SWITCHYARD_BENCH_QUICK=1 stops after 200 runs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { spawnServersOf } from "@switchyard/core/sandbox";
import { createDb, saveWorkflowVersion, startRun } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import {
  randomPrefix,
  REPO_ROOT,
  startWorker,
  type WorkerHandle,
} from "../test/helpers/worker-process";
import type { Sample } from "./measure";

export type MemoryOptions = { quick?: boolean };

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const connection = () => new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });

export type Reading = { rss: number; heapUsed: number; external: number };

/** Asks the worker to collect garbage (bench/fixtures/gc-on-signal.cjs), then reads its memory. */
export const settled = async (worker: WorkerHandle): Promise<Reading> => {
  const seen = (worker.logs().match(/bench-memory /g) ?? []).length;
  worker.child.kill("SIGUSR2");
  for (let i = 0; i < 100 && (worker.logs().match(/bench-memory /g) ?? []).length === seen; i++)
    await sleep(50);
  const lines = [...worker.logs().matchAll(/bench-memory (\{.*\})/g)];
  const usage = JSON.parse(lines.at(-1)![1]!) as { heapUsed: number; external: number };
  // The worker's and its spawn server's (spawn-server.ts): a worker's resident memory is both.
  let rss = 0;
  for (const pid of [worker.child.pid!, ...spawnServersOf(worker.child.pid!)]) {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    rss += Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  }
  return { rss, heapUsed: usage.heapUsed, external: usage.external };
};
export const show = (r: Reading) =>
  `rss ${(r.rss / MB).toFixed(1)} MB, heap ${(r.heapUsed / MB).toFixed(1)} MB, external ${(r.external / MB).toFixed(1)} MB`;

export const benchMemory = async (options: MemoryOptions = {}): Promise<Sample[]> => {
  const quick = options.quick ?? process.env.SWITCHYARD_BENCH_QUICK === "1";
  const total = quick ? 200 : 1000;
  const warmup = quick ? 50 : 200;
  const batch = 50;

  const database = await freshDatabase();
  const db = createDb(database.url, { max: 8 });
  const prefix = randomPrefix();
  const queue = new Queue<RunJob>(RUN_QUEUE, { connection: connection(), prefix });
  queue.setMaxListeners(0); // many starts at once each wait on the queue's connection
  const events = new QueueEvents(RUN_QUEUE, { connection: connection(), prefix });
  await events.waitUntilReady();
  const worker = await startWorker(
    {
      DATABASE_URL: database.url,
      SWITCHYARD_QUEUE_PREFIX: prefix,
      NODE_OPTIONS: `--expose-gc --require ${path.join(REPO_ROOT, "bench/fixtures/gc-on-signal.cjs")}`,
    },
    120_000,
  );
  try {
    const { team, admin } = await seed(db, {
      adminEmail: "bench@local",
      adminPassword: "bench-password",
    });
    const version = await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "bench-memory",
      files: {
        "workflow.yaml":
          "name: bench-memory\nstates:\n  initial: s\n  s:\n    type: step\n    command: 'true'\n",
      },
    });
    await sleep(5000);
    const idle = await settled(worker);

    let done = 0;
    let afterWarmup: Reading | undefined;
    while (done < total) {
      const ids = await Promise.all(
        Array.from({ length: batch }, () =>
          startRun(
            { db, queue },
            {
              teamId: team.id,
              userId: admin.id,
              role: "owner",
              workflowId: version.workflowId,
              trigger: "api",
            },
          ).then((r) => r.id),
        ),
      );
      await Promise.all(
        ids.map(async (id): Promise<unknown> =>
          (await queue.getJob(id))!.waitUntilFinished(events, 120_000),
        ),
      );
      done += batch;
      if (done === warmup) afterWarmup = await settled(worker);
    }
    await sleep(5000);
    const after = await settled(worker);
    console.log(
      `worker memory: idle ${show(idle)}; after ${warmup} runs ${show(afterWarmup!)}; after ${total} runs ${show(after)}`,
    );
    return [
      {
        name: `worker RSS idle vs after ${total} runs`,
        unit: "MB",
        baseline: idle.rss / MB,
        subject: after.rss / MB,
        note: "idle after boot (both after a full GC)",
      },
      {
        name: `worker heap after ${total} runs vs after ${warmup}`,
        unit: "MB",
        baseline: afterWarmup!.heapUsed / MB,
        subject: after.heapUsed / MB,
        note: `after ${warmup} runs (warm); rss ${(afterWarmup!.rss / MB).toFixed(1)} -> ${(after.rss / MB).toFixed(1)} MB`,
      },
    ];
  } finally {
    await worker.stop();
    await events.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await db.$disconnect();
    await database.drop();
  }
};
