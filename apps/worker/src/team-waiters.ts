/**
 * The runs of each team that wait for a free place under the team's limit, oldest first, so
 * a place that frees is taken at once: when one of a team's runs ends, its oldest waiting
 * run's delayed job is promoted, instead of waiting out its backoff (which grows to seconds
 * for a team with a long queue), and goes to the head of the queue: its job came before the
 * jobs that queued while it waited. The backoff stays as it was, so a waiting run is still
 * tried again should this notice be lost (a worker dies, Redis restarts empty).
 *
 * One sorted set per team in Redis (`<prefix>:team-waiting:<teamId>`), scored by when the
 * run's job was made; shared by every worker.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { RunJob } from "@switchyard/core/runs";

/** How long a team's set outlives its last change (a team that stopped waiting leaves nothing). */
const IDLE_TTL_S = 24 * 60 * 60;
/** Waiting runs tried at most per end: a popped run may have ended or been claimed meanwhile. */
const TRIES = 5;

const keyOf = (prefix: string, teamId: string) => `${prefix}:team-waiting:${teamId}`;

export const teamWaiters = (deps: { redis: Redis; queue: Queue<RunJob>; prefix: string }) => ({
  /** The run waits for a place: its job was moved to the delayed set. */
  waiting: async (teamId: string, runId: string, since: number) => {
    const key = keyOf(deps.prefix, teamId);
    await deps.redis.multi().zadd(key, "NX", since, runId).expire(key, IDLE_TTL_S).exec();
  },
  /** The run's job ran (claimed, or found nothing to do): it waits no more. */
  done: async (teamId: string, runId: string) => {
    await deps.redis.zrem(keyOf(deps.prefix, teamId), runId);
  },
  /**
   * A run of the team ended: the oldest waiting run whose job is still delayed is moved to
   * the queue now. The id of the promoted run, if any.
   */
  promoteNext: async (teamId: string): Promise<string | undefined> => {
    const key = keyOf(deps.prefix, teamId);
    for (let i = 0; i < TRIES; i++) {
      const [runId] = await deps.redis.zpopmin(key);
      if (runId === undefined) return undefined;
      const job = await deps.queue.getJob(runId);
      if (!job || (await job.getState()) !== "delayed") continue;
      try {
        await job.promote();
        await job.changePriority({ lifo: true });
        return runId;
      } catch {
        // No longer delayed (it woke up by itself just now): the next one.
      }
    }
    return undefined;
  },
});

export type TeamWaiters = ReturnType<typeof teamWaiters>;
