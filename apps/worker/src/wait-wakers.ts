/**
 * Held calls woken when their wait is answered: the web publishes the wait's id on
 * `waitAnsweredChannel` and the worker wakes the holds on that id, which read the wait again
 * from Postgres (scoped to their team) at once. Their poll stays the fallback for a message
 * lost or Redis down.
 */
export type WaitWakers = {
  /** Calls `wake` when `waitId` is said to be answered; the returned function stops that. */
  listen: (waitId: string, wake: () => void) => () => void;
  /** A wait was said to be answered (a channel message: only its id, never trusted further). */
  wake: (waitId: string) => void;
};

export const createWaitWakers = (): WaitWakers => {
  const listening = new Map<string, Set<() => void>>();
  return {
    listen: (waitId, wake) => {
      let set = listening.get(waitId);
      if (!set) listening.set(waitId, (set = new Set()));
      set.add(wake);
      return () => {
        set.delete(wake);
        if (set.size === 0 && listening.get(waitId) === set) listening.delete(waitId);
      };
    },
    wake: (waitId) => {
      for (const wake of listening.get(waitId) ?? []) wake();
    },
  };
};

/**
 * What a hold on `waitId` sleeps with between its reads of the wait: `pollMs` at most, cut
 * short when the wait is said to be answered (also when that was said since the last read:
 * it listens from before the first) or when `signal` aborts. `close()` when the hold ends.
 */
export const wakeableSleep = (wakers: WaitWakers | undefined, waitId: string) => {
  let announced = false;
  let wakeNow: (() => void) | undefined;
  const unlisten = wakers?.listen(waitId, () => {
    announced = true;
    wakeNow?.();
  });
  return {
    sleep: (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wakeNow = undefined;
          signal.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener("abort", done, { once: true });
        if (announced || signal.aborted) done();
        else wakeNow = done;
        announced = false;
      }),
    close: () => unlisten?.(),
  };
};
