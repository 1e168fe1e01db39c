/**
 * The web app's handle on the notifications queue (same prefix as the run queue): a run
 * cancelled before any worker took it ends here, a webhook's run waiting for its inputs opens
 * a wait here (a worker announces it: the endpoints, and mail, which only workers send), and
 * "send test" is enqueued here.
 */
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import {
  NOTIFICATION_QUEUE,
  waitAnnouncementJobId,
  type NotificationQueueJob,
} from "@switchyard/core/triggers";
import { enqueueRunNotifications, type Db } from "@switchyard/db";

const queues = new WeakMap<Redis, Map<string, Queue<NotificationQueueJob>>>();

export const notificationQueue = (redis: Redis, prefix: string) => {
  const byPrefix = queues.get(redis) ?? new Map<string, Queue<NotificationQueueJob>>();
  queues.set(redis, byPrefix);
  let queue = byPrefix.get(prefix);
  if (!queue) {
    queue = new Queue<NotificationQueueJob>(NOTIFICATION_QUEUE, { connection: redis, prefix });
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

/**
 * Has a worker announce a wait that opened here, as it announces its own: wait.opened to the
 * endpoints listening, and mail to those who may answer where it has SMTP. A failure to
 * enqueue is only logged.
 */
export const notifyWaitOpened = (
  deps: { redis: Redis; prefix: string },
  input: { teamId: string; runId: string; waitId: string },
) =>
  notificationQueue(deps.redis, deps.prefix)
    .add(
      "wait-opened",
      { announceWait: input },
      {
        jobId: waitAnnouncementJobId(input.waitId),
        attempts: 3,
        backoff: { type: "exponential", delay: 1000 },
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 1000 },
      },
    )
    .then(() => 1, loggedAs("wait notifications", input.waitId));
