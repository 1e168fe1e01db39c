/**
 * Ends every process of one owner (a run of the worker, a `switchyard run`) before its
 * folders are removed or its step uid is handed on: SIGKILLs whatever carries the owner's
 * tag or the tag of one of its sub-owners (`<owner>/<name>`: a run's step sandboxes) and,
 * when given, whatever runs as its step uid, until a scan of /proc finds none. A tracked
 * owner whose every process ended with its PID namespace (see process-ledger) has nothing
 * left, and is answered without the scan.
 * What is still alive at the deadline (normally nothing) is returned: the caller must then
 * keep the folders and the uid, since a live step could still change the one and would
 * share the other with the next run.
 */
import { OWNER_TAG } from "./build-launch";
import { nothingLeft, scannedClean } from "./process-ledger";
import { killUntilGone, pidsOfUid, pidsWithEnv } from "./proc-scan";

/** The owner id of one run (or step) of `ownerId`; `sweepLeftovers` and `reapOwner` of `ownerId` cover it. */
export const runOwnerId = (ownerId: string, runId: string) => `${ownerId}/${runId}`;

type ReapOptions = {
  /** A step uid that belongs to this owner alone while it holds it (never root or ourselves). */
  uid?: number;
  /**
   * How long to keep killing before giving up.
   * @default 10_000 (10 s)
   */
  deadlineMs?: number;
};

/** SIGKILLs every process of `ownerId` until none is left; answers the pids alive at the deadline. */
export const reapOwner = async (ownerId: string, options: ReapOptions = {}): Promise<number[]> => {
  if (nothingLeft(ownerId)) return [];
  const { uid } = options;
  const byUid = uid !== undefined && uid > 0 && uid !== process.getuid?.();
  const find = () => [
    ...new Set([
      ...pidsWithEnv(OWNER_TAG, ownerId, { below: true }),
      ...(byUid ? pidsOfUid(uid) : []),
    ]),
  ];
  const { left } = await killUntilGone(find, Math.ceil((options.deadlineMs ?? 10_000) / 10));
  if (left.length === 0) scannedClean(ownerId);
  return left;
};
