/**
 * Step uids for `strict`: one unprivileged uid per concurrent slot, taken from a range the
 * worker is configured with (disjoint per worker on one host). A run holds its uid while
 * any of its steps runs, so parallel branches of one run share a workspace owner.
 */
import { AppError } from "../errors";

export type UidPool = {
  readonly uids: readonly number[];
  acquire: () => number;
  release: (uid: number) => void;
  inUse: () => number;
};

/** A pool of `count` step uids from `firstUid`, each held by one run at a time. */
export const createUidPool = (firstUid: number, count: number): UidPool => {
  if (
    !Number.isInteger(firstUid) ||
    firstUid < 1000 ||
    !Number.isInteger(count) ||
    count < 1 ||
    firstUid + count > 2 ** 31
  ) {
    throw new AppError(
      "SYSTEM.SANDBOX_INVALID_SPEC",
      `invalid step uid range ${firstUid}+${count}`,
    );
  }
  const uids = Array.from({ length: count }, (_, i) => firstUid + i);
  const free = [...uids];
  const busy = new Set<number>();
  return {
    uids,
    acquire: () => {
      const uid = free.shift();
      if (uid === undefined)
        throw new AppError("SYSTEM.SANDBOX_UNAVAILABLE", "no free step uid", { retryable: true });
      busy.add(uid);
      return uid;
    },
    release: (uid) => {
      if (busy.delete(uid)) free.push(uid);
    },
    inUse: () => busy.size,
  };
};
