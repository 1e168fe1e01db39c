/**
 * Picks the step uid for a sandbox started by hand (`switchyard run`, `mcp-serve`) as root:
 * the first uid of a small range that no process runs as. Several such commands may run on
 * one machine at once, so none of them may sweep a uid wholesale: a uid nothing runs as has
 * nothing to sweep, and a busy one may belong to a concurrent run.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createUidPool } from "../sandbox";

export const DEFAULT_STEP_UID_BASE = 61_000;
export const STEP_UID_RANGE = 64;

const busyUids = (): Set<number> => {
  const busy = new Set<number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const m = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, "utf8"));
      if (m) busy.add(Number(m[1]));
    } catch {
      // the process ended while we looked
    }
  }
  return busy;
};

/** A uid of [base, base + count) with no process; the base itself when all are busy. */
export const pickStepUid = (
  base: number = DEFAULT_STEP_UID_BASE,
  count: number = STEP_UID_RANGE,
): number => {
  const pool = createUidPool(base, count);
  const busy = busyUids();
  return pool.uids.find((uid) => !busy.has(uid)) ?? base;
};
