/**
 * Process-wide handles to Postgres, Redis and the run queue, created on first use.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { keyringOf, parseMasterKey, type Keyring } from "@switchyard/core/crypto";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createDb, type Db } from "@switchyard/db";
import { env } from "~/env";
import { webEgress, type WebEgress } from "./egress";

const globals = globalThis as unknown as {
  __syDb?: Db;
  __syRedis?: Redis;
  __syQueue?: Queue<RunJob>;
  __syEgress?: WebEgress;
};

export const db = (): Db => (globals.__syDb ??= createDb(env().DATABASE_URL));

const connectRedis = () => {
  // Fail fast when Redis is down rather than queueing commands in memory.
  const client = new Redis(env().REDIS_URL, {
    maxRetriesPerRequest: null,
    enableOfflineQueue: false,
  });
  // ioredis reconnects by itself; callers see their own command fail. Say it once per error.
  let last = "";
  client.on("error", (e: Error) => {
    if (e.message !== last) console.warn("switchyard-web: redis connection error:", e.message);
    last = e.message;
  });
  client.on("ready", () => {
    last = "";
  });
  return client;
};

export const redis = (): Redis => (globals.__syRedis ??= connectRedis());

export const runQueue = (): Queue<RunJob> => {
  if (!globals.__syQueue) {
    globals.__syQueue = new Queue<RunJob>(RUN_QUEUE, {
      connection: redis(),
      prefix: env().SWITCHYARD_QUEUE_PREFIX,
    });
    // The connection's listener above says when Redis is unreachable, once; a start made meanwhile fails with its own error.
    globals.__syQueue.on("error", () => undefined);
  }
  return globals.__syQueue;
};

export const publish = (channel: string, message: string) => redis().publish(channel, message);

/**
 * The current master key seals; retired ones (SWITCHYARD_MASTER_KEYS_RETIRED) still open
 * what the web app itself must read, a webhook trigger's signing secret, until
 * `npm run keys:rewrap` has moved it to the current key.
 */
export const keyring = (): Keyring =>
  keyringOf(
    parseMasterKey(env().SWITCHYARD_MASTER_KEY_ID, env().SWITCHYARD_MASTER_KEY),
    env().SWITCHYARD_MASTER_KEYS_RETIRED.map((k) => parseMasterKey(k.id, k.key)),
  );

/** Requests on a user's behalf under the operator's SWITCHYARD_EGRESS_ALLOW (see egress.ts). */
export const egress = (): WebEgress =>
  (globals.__syEgress ??= webEgress(
    env().SWITCHYARD_EGRESS_ALLOW,
    env().SWITCHYARD_GITHUB_API_URL,
    env().SWITCHYARD_GIT_LOCAL_ROOTS,
  ));
