/**
 * Process-wide handles to Postgres and the run queue, created on first use.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createDb, type Db } from "@switchyard/db";
import { env } from "~/env";

const globals = globalThis as unknown as { __syDb?: Db; __syQueue?: Queue<RunJob> };

export const db = (): Db => (globals.__syDb ??= createDb(env().DATABASE_URL));

export const runQueue = (): Queue<RunJob> =>
  (globals.__syQueue ??= new Queue<RunJob>(RUN_QUEUE, {
    // Fail fast when Redis is down rather than queueing the command in memory.
    connection: new Redis(env().REDIS_URL, { maxRetriesPerRequest: null, enableOfflineQueue: false }),
    prefix: env().SWITCHYARD_QUEUE_PREFIX,
  }));
