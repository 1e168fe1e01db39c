/**
 * The web app's side of schedules: each active schedule trigger is a BullMQ job scheduler
 * on the triggers queue (same prefix as the run queue), upserted when the trigger is saved
 * or resumed and removed when it is paused or deleted. Workers re-sync them at boot.
 */
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { TRIGGER_QUEUE, triggerSchedulerId, type TriggerJob } from "@switchyard/core/triggers";

const queues = new WeakMap<Redis, Map<string, Queue<TriggerJob>>>();

const triggerQueue = (redis: Redis, prefix: string) => {
  const byPrefix = queues.get(redis) ?? new Map<string, Queue<TriggerJob>>();
  queues.set(redis, byPrefix);
  let queue = byPrefix.get(prefix);
  if (!queue) {
    queue = new Queue<TriggerJob>(TRIGGER_QUEUE, { connection: redis, prefix });
    // The connection's own listener says when Redis is unreachable (services.ts), once; a
    // call made meanwhile fails with its own error.
    queue.on("error", () => undefined);
    byPrefix.set(prefix, queue);
  }
  return queue;
};

type ScheduledTrigger = {
  id: string;
  teamId: string;
  kind: "schedule" | "webhook";
  cron: string | null;
  timezone: string | null;
  paused: boolean;
};

/** Makes the trigger's job scheduler match it: present when it is an active schedule, absent otherwise. */
export const syncTriggerSchedule = async (
  redis: Redis,
  prefix: string,
  trigger: ScheduledTrigger,
) => {
  const queue = triggerQueue(redis, prefix);
  const id = triggerSchedulerId(trigger.id);
  if (trigger.kind !== "schedule" || trigger.paused || !trigger.cron) {
    await queue.removeJobScheduler(id);
    return;
  }
  await queue.upsertJobScheduler(
    id,
    { pattern: trigger.cron, tz: trigger.timezone ?? "UTC" },
    {
      name: "fire",
      data: { triggerId: trigger.id, teamId: trigger.teamId },
      opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
    },
  );
};

export const removeTriggerSchedule = (redis: Redis, prefix: string, triggerId: string) =>
  triggerQueue(redis, prefix).removeJobScheduler(triggerSchedulerId(triggerId));
