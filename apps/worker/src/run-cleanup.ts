/**
 * What a run leaves on this worker is undone here, in an order a step cannot exploit:
 * first every process of the run is killed and confirmed gone (by the run's owner tag and,
 * at `strict`, its step uid), so nothing can change its folder any more; then the folder is
 * removed by descriptor, never following a path; only then does the uid go back to the
 * pool. It never throws, so a run always gets its final status: a folder that cannot be
 * removed is logged and left to the next boot's sweep, and while a process of the run
 * survives, neither its folder nor its uid is touched and the worker tries again later.
 */
import { reapOwner, removeFolder, type UidPool } from "@switchyard/core/sandbox";
import type { Logger } from "./logger";

export type RunLeftovers = {
  runId: string;
  /** The run's sandbox owner id (see runOwnerId). */
  ownerId: string;
  runDir: string;
  uid: number | undefined;
  uids: UidPool | undefined;
  log: Logger;
  /** Forgets the run's process count (trackOwner) once nothing of it is left. */
  untrack: () => void;
};

const RETRY_MS = 30_000;

export const cleanUpRun = async (run: RunLeftovers): Promise<void> => {
  const { log, runId } = run;
  const left = await reapOwner(run.ownerId, { uid: run.uid });
  if (left.length > 0) {
    log.error(
      "processes of the run survive; its folder and step uid are kept until they are gone",
      { runId, pids: left },
    );
    setTimeout(() => void cleanUpRun(run), RETRY_MS).unref();
    return;
  }
  run.untrack();
  try {
    await removeFolder(run.runDir);
  } catch (error) {
    log.error("could not remove the run's folder; the worker's next boot removes it", {
      runId,
      folder: run.runDir,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  if (run.uid !== undefined) run.uids?.release(run.uid);
};
