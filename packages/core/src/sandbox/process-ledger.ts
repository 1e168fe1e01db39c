/**
 * What this process knows of the sandboxed processes it started, per tracked owner (a run
 * of the worker, a sandbox of it): how many are still open, and whether any ended without
 * proof that nothing of it is left. A confined process runs in its own PID namespace, and
 * once that namespace's init has finished exiting the kernel has ended every process in
 * it; an owner all of whose processes ended that way has nothing left, and reaping it
 * needs no scan of /proc. Anything else (a process still open, one at level `none`, one
 * whose init was not seen go, an owner nobody tracks) is proven by the scan, as before.
 */

type Account = { open: number; unproven: boolean };

const tracked = new Map<string, Account>();

/**
 * From now on, the processes of `ownerId` and of its sub-owners (`<ownerId>/…`) are counted.
 * Returns what forgets it once it is reaped (a later reap of it scans); a second tracker of
 * the same owner gets a no-op, the first one forgets it.
 */
export const trackOwner = (ownerId: string): (() => void) => {
  if (tracked.has(ownerId)) return () => undefined;
  const account: Account = { open: 0, unproven: false };
  tracked.set(ownerId, account);
  return () => {
    if (tracked.get(ownerId) === account) tracked.delete(ownerId);
  };
};

/**
 * A process of `ownerId` starts. Returns what records its end: `proven` when its PID
 * namespace is known to be empty (its init has finished exiting).
 */
export const processStarted = (ownerId: string): ((proven: boolean) => void) => {
  const accounts = [...tracked]
    .filter(([owner]) => ownerId === owner || ownerId.startsWith(`${owner}/`))
    .map(([, account]) => account);
  for (const account of accounts) account.open++;
  let ended = false;
  return (proven) => {
    if (ended) return;
    ended = true;
    for (const account of accounts) {
      account.open--;
      if (!proven) account.unproven = true;
    }
  };
};

/** Whether `ownerId` is tracked and every process it started has ended, leaving nothing. */
export const nothingLeft = (ownerId: string): boolean => {
  const account = tracked.get(ownerId);
  return account !== undefined && account.open === 0 && !account.unproven;
};

/** A scan found nothing of `ownerId`: what its processes left unproven is proven now. */
export const scannedClean = (ownerId: string): void => {
  const account = tracked.get(ownerId);
  if (account) account.unproven = false;
};
