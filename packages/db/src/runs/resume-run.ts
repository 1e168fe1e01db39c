/**
 * Enqueues a parked run again once the wait it parked on is answered or expired. A parked
 * run's job completed when its worker let it go, and BullMQ keeps a finished job's id (it
 * would ignore an add under it), so the old job is removed first; if it is still active (the
 * worker is finishing the park), it is waited for. A job already queued is left as it is.
 * Whatever this misses (a crash between the answer and the enqueue), the worker's requeue
 * sweep takes up: a `waiting` run with no open parked wait and no live job.
 */
import type { RunJob } from "@switchyard/core/runs";
import type { Db } from "../client";
import { getRunLifecycle } from "../repositories/run-lifecycle";
import { enqueueRunJob, type StartRunDeps } from "./start-run";

/** The run queue, as far as resuming needs it (a BullMQ `Queue<RunJob>`). */
export type ResumeQueue = StartRunDeps["queue"] & {
  getJobState: (jobId: string) => Promise<string>;
  remove: (jobId: string) => Promise<number>;
};

/** How long an active old job is waited for, and how often it is looked at meanwhile. */
const ACTIVE_WAIT = { totalMs: 10_000, everyMs: 200 } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Enqueues the run's job again (id = run id) when the run is still `waiting` (or `queued`, a
 * run queued when the inputs it waited for came). Returns
 * "enqueued", "queued already" (its job is waiting or delayed), "not waiting" (it was
 * resumed or ended meanwhile) or "busy" (its old job stayed active: the sweep will see to it).
 */
export const resumeParkedRun = async (
  queue: ResumeQueue,
  db: Db,
  input: { teamId: string; runId: string; traceparent?: string },
  options: { activeWaitMs?: number } = {},
) => {
  const deadline = Date.now() + (options.activeWaitMs ?? ACTIVE_WAIT.totalMs);
  for (;;) {
    const run = await getRunLifecycle(db, input.teamId, input.runId);
    // Queued: it waited for its inputs before it started, and now waits its turn.
    if (run?.status !== "waiting" && run?.status !== "queued") return "not waiting" as const;
    const state = await queue.getJobState(input.runId);
    if (state === "active") {
      if (Date.now() >= deadline) return "busy" as const;
      await sleep(ACTIVE_WAIT.everyMs);
      continue;
    }
    if (state === "completed" || state === "failed") {
      // 0 when someone else removed it first, or it became active again: look again.
      if ((await queue.remove(input.runId)) !== 1) {
        if (Date.now() >= deadline) return "busy" as const;
        continue;
      }
    } else if (state !== "unknown") return "queued already" as const;
    const job: RunJob = {
      runId: input.runId,
      teamId: input.teamId,
      ...(input.traceparent ? { traceparent: input.traceparent } : {}),
    };
    await enqueueRunJob(queue, job);
    return "enqueued" as const;
  }
};
