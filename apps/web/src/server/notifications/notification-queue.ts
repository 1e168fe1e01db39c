/**
 * The web app's handle on the notifications queue (same prefix as the run queue): a run
 * cancelled before any worker took it ends here, a webhook's run waiting for its inputs opens
 * a wait here, and "send test" is enqueued here.
 */
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { NOTIFICATION_QUEUE, type NotificationJob } from "@switchyard/core/triggers";
import { enqueueRunNotifications, enqueueWaitNotifications, type Db } from "@switchyard/db";

const queues = new WeakMap<Redis, Map<string, Queue<NotificationJob>>>();

export const notificationQueue = (redis: Redis, prefix: string) => {
  const byPrefix = queues.get(redis) ?? new Map<string, Queue<NotificationJob>>();
  queues.set(redis, byPrefix);
  let queue = byPrefix.get(prefix);
  if (!queue) {
    queue = new Queue<NotificationJob>(NOTIFICATION_QUEUE, { connection: redis, prefix });
    // The connection's own listener says when Redis is unreachable (services.ts), once.
    queue.on("error", () => undefined);
    byPrefix.set(prefix, queue);
  }
  return queue;
};

/** Logs a notification that could not be enqueued (0 enqueued): the change it tells of stands. */
const loggedAs = (what: string, id: string) => (error: unknown) => {
  console.warn(
    `switchyard-web: could not enqueue ${what}`,
    id,
    error instanceof Error ? error.message : String(error),
  );
  return 0;
};

/** Tells the team's endpoints that a run ended here (a queued run cancelled); a failure is only logged. */
export const notifyRunEnded = (
  deps: { db: Db; redis: Redis; prefix: string },
  input: { teamId: string; runId: string },
) =>
  enqueueRunNotifications(deps.db, notificationQueue(deps.redis, deps.prefix), input).catch(
    loggedAs("run notifications", input.runId),
  );

/** Tells the team's endpoints listening to wait.opened that a wait opened here; a failure is only logged. */
export const notifyWaitOpened = (
  deps: { db: Db; redis: Redis; prefix: string },
  input: { teamId: string; runId: string; waitId: string },
) =>
  enqueueWaitNotifications(deps.db, notificationQueue(deps.redis, deps.prefix), input).catch(
    loggedAs("wait notifications", input.waitId),
  );
