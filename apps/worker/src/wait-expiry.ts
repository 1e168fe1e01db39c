/**
 * The wait expiry loop: every few seconds, the open waits whose time is up are closed as
 * their `onExpiry` says (deny, fail, or the default answer), and the runs parked on them
 * are enqueued again to resume. One indexed read when nothing is due. Several workers may
 * run it at once: each wait closes by compare-and-set, and enqueuing a run twice adds one job.
 */
import { expireDueWaits, resumeParkedRun, type Db, type ResumeQueue } from "@switchyard/db";
import type { Logger } from "./logger";

/** How often the loop looks for waits past their time. */
export const WAIT_EXPIRY_MS = 5000;

/** One pass: the waits expired and what became of their runs. */
export const expireWaitsOnce = async (deps: { db: Db; queue: ResumeQueue; log: Logger }) => {
  const runs = await expireDueWaits(deps.db, new Date());
  const resumed: string[] = [];
  for (const run of runs) {
    try {
      const outcome = await resumeParkedRun(deps.queue, deps.db, run);
      if (outcome === "enqueued") resumed.push(run.runId);
      deps.log.info("a wait expired; its run resumes", { runId: run.runId, outcome });
    } catch (e) {
      // The requeue sweep takes the run up later.
      deps.log.warn("could not enqueue a run whose wait expired", {
        runId: run.runId,
        error: (e as Error).message,
      });
    }
  }
  return { runs, resumed };
};

export const startWaitExpiry = (deps: {
  db: Db;
  queue: ResumeQueue;
  log: Logger;
  /** @default WAIT_EXPIRY_MS */
  intervalMs?: number;
}) => {
  const intervalMs = deps.intervalMs ?? WAIT_EXPIRY_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(run, intervalMs);
    timer.unref();
  };
  function run() {
    running = expireWaitsOnce(deps)
      .catch((e: Error) =>
        deps.log.warn("wait expiry failed; it will run again", { error: e.message }),
      )
      .finally(() => {
        running = undefined;
        schedule();
      });
  }
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
};
