/**
 * What an integration test of runs needs, opened and closed in one place: a database of its
 * own (seeded with the demo team), a random queue prefix, a Redis client, the run queue and
 * a real worker process.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { expect } from "vitest";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createDb, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { randomPrefix, startWorker, waitFor, type WorkerHandle } from "./worker-process";

export type RunStack = {
  database: TestDatabase;
  db: Db;
  queue: Queue<RunJob>;
  redis: Redis;
  prefix: string;
  adminId: string;
  teamId: string;
  worker: WorkerHandle;
};

/** `workerEnv` is added to the worker's environment (beyond its database and prefix). */
export const openRunStack = async (workerEnv: Record<string, string> = {}): Promise<RunStack> => {
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  const prefix = randomPrefix();
  const redis = new Redis(process.env.REDIS_URL!);
  const queue = new Queue<RunJob>(RUN_QUEUE, {
    connection: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null }),
    prefix,
  });
  const worker = await startWorker({
    DATABASE_URL: database.url,
    SWITCHYARD_QUEUE_PREFIX: prefix,
    ...workerEnv,
  });
  return {
    database,
    db,
    queue,
    redis,
    prefix,
    adminId: seeded.admin.id,
    teamId: seeded.team.id,
    worker,
  };
};

export const closeRunStack = async (stack: Partial<RunStack>) => {
  await stack.worker?.stop();
  await stack.queue?.obliterate({ force: true }).catch(() => undefined);
  await stack.queue?.close();
  stack.redis?.disconnect();
  await stack.db?.$disconnect();
  await stack.database?.drop();
};

/** Waits until `read` reports a run that has ended (not queued, running or waiting), and returns it. */
export const runEnded = <R extends { status: string }>(
  read: () => Promise<R>,
  what: string,
  timeoutMs = 30_000,
) =>
  waitFor(
    async () => {
      const run = await read();
      return ["queued", "running", "waiting"].includes(run.status) ? undefined : run;
    },
    timeoutMs,
    what,
  );

type RunsCaller = {
  runs: {
    start: (input: {
      workflowId: string;
      inputs: Record<string, unknown>;
      versionId?: string;
    }) => Promise<{ id: string }>;
    get: (input: { id: string }) => Promise<{
      status: string;
      steps: { stateName: string; status: string; errorMessage: string | null; stdout: string }[];
    }>;
  };
};

/** Starts the workflow (a saved version when given), expects the run to succeed and returns `state`'s output, trimmed. */
export const succeededOutput = async (
  caller: () => RunsCaller,
  state: string,
  workflowId: string,
  versionId?: string,
) => {
  const { id } = await caller().runs.start({
    workflowId,
    inputs: {},
    ...(versionId ? { versionId } : {}),
  });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 60_000);
  const trace = JSON.stringify(run.steps.map((s) => [s.stateName, s.status, s.errorMessage]));
  expect(run.status, trace).toBe("succeeded");
  return run.steps.find((s) => s.stateName === state)!.stdout.trim();
};
