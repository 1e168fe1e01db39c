/**
 * The retention sweep of workspace snapshots: every `intervalMs` (and once soon after boot)
 * the snapshots older than `retentionDays` go, then the contents no snapshot names any more
 * (those of deleted runs too). Several workers may sweep at once: each team's prune holds
 * the lock its saves take, and deleting what another sweep deleted deletes nothing.
 */
import { expireWorkspaceSnapshots, type Db } from "@switchyard/db";
import type { Logger } from "./logger";

/** How long after boot the first sweep runs. */
const FIRST_SWEEP_MS = 60_000;

export const startSnapshotSweep = (deps: {
  db: Db;
  log: Logger;
  retentionDays: number;
  intervalMs: number;
  /** @default FIRST_SWEEP_MS */
  firstMs?: number;
}) => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };
  function run() {
    running = expireWorkspaceSnapshots(deps.db, deps.retentionDays)
      .then(({ snapshots, blobs }) => {
        if (snapshots > 0 || blobs > 0)
          deps.log.info("removed old workspace snapshots", { snapshots, blobs });
      })
      .catch((e: Error) =>
        deps.log.warn("workspace snapshot sweep failed; it will run again", { error: e.message }),
      )
      .finally(() => {
        running = undefined;
        schedule(deps.intervalMs);
      });
  }
  schedule(deps.firstMs ?? FIRST_SWEEP_MS);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
};
