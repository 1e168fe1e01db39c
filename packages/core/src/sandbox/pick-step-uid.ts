/**
 * Picks the step uid for a sandbox started by hand (`switchyard run`, `mcp-serve`) as root:
 * the first uid of a small range that no process runs as. Several such commands may run on
 * one machine at once, so none of them may sweep a uid wholesale: a uid nothing runs as has
 * nothing to sweep, and a busy one may belong to a concurrent run.
 */
import { liveUids } from "./proc-scan";
import { createUidPool } from "./uid-pool";

/** The first step uid tried unless the worker says otherwise. */
export const DEFAULT_STEP_UID_BASE = 61_000;
const STEP_UID_RANGE = 64;

/** A uid of [base, base + count) with no process; the base itself when all are busy. */
export const pickStepUid = (
  base: number = DEFAULT_STEP_UID_BASE,
  count: number = STEP_UID_RANGE,
): number => {
  const pool = createUidPool(base, count);
  const busy = liveUids();
  return pool.uids.find((uid) => !busy.has(uid)) ?? base;
};
