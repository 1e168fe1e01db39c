/**
 * At boot a worker makes Redis's job schedulers match the schedules in Postgres: one per
 * active schedule trigger (upserting an unchanged one keeps its next fire), none for a
 * paused or deleted one. So a Redis that lost its data, or missed a change, is repaired.
 */
import type { Queue } from "bullmq";
import { triggerSchedulerId, type TriggerJob } from "@switchyard/core/triggers";
import { allSchedules, type Db } from "@switchyard/db";

export type ScheduleQueue = Pick<
  Queue<TriggerJob>,
  "upsertJobScheduler" | "removeJobScheduler" | "getJobSchedulers"
>;

export const syncSchedules = async (db: Db, queue: ScheduleQueue) => {
  const schedules = await allSchedules(db);
  const wanted = new Set<string>();
  for (const s of schedules) {
    if (s.paused || !s.cron) continue;
    const id = triggerSchedulerId(s.id);
    wanted.add(id);
    await queue.upsertJobScheduler(
      id,
      { pattern: s.cron, tz: s.timezone ?? "UTC" },
      {
        name: "fire",
        data: { triggerId: s.id, teamId: s.teamId },
        opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
      },
    );
  }
  let removed = 0;
  for (const scheduler of await queue.getJobSchedulers(0, -1)) {
    if (!wanted.has(scheduler.key)) {
      await queue.removeJobScheduler(scheduler.key);
      removed++;
    }
  }
  return { active: wanted.size, removed };
};
