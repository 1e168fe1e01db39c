/**
 * Scheduled syncs of linked git repositories: every minute each web process syncs the
 * sources whose next sync is due, each as the member who linked it. The claim a sync takes
 * (see claimGitSync) keeps two web processes from syncing one source at once, and a sync
 * that cannot start (its member left the team) is kept as a failed sync and tried again at
 * the next interval, not every minute.
 */
import { AppError } from "@switchyard/core/errors";
import { claimGitSync, dueGitSources, finishGitSync } from "@switchyard/db";
import { syncAsLinker, type ReceiveGitPushDeps } from "./receive-git-push";

const TICK_MS = 60_000;

/** One pass over the due sources; answers how many it synced. */
export const syncDueGitSources = async (deps: ReceiveGitPushDeps, now = new Date()) => {
  let synced = 0;
  for (const source of await dueGitSources(deps.db, now)) {
    try {
      await syncAsLinker(deps, source);
      synced += 1;
    } catch (error) {
      if (error instanceof AppError && error.code === "USER.GIT.SYNC_RUNNING") continue;
      const e =
        error instanceof AppError ? error : new AppError("SYSTEM.INTERNAL", "the sync failed");
      // It failed before taking the source (its member left, say): kept as its sync only
      // when no other sync holds the source, whose claim and status it must not clear.
      if (!(await claimGitSync(deps.db, source.teamId, source.id))) continue;
      await finishGitSync(deps.db, {
        teamId: source.teamId,
        id: source.id,
        actorUserId: null,
        outcome: { status: "failed", commit: null, error: `${e.code}: ${e.message}`, files: [] },
      });
    }
  }
  return synced;
};

/** Starts the minute tick; the timer does not keep the process alive. */
export const startGitSchedule = (deps: () => ReceiveGitPushDeps) => {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    syncDueGitSources(deps())
      .catch((error: unknown) =>
        console.error(`switchyard-web: scheduled git syncs: ${(error as Error).message}`),
      )
      .finally(() => {
        running = false;
      });
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
};
