/**
 * The engine's default clock: wall time, and a sleep that an abort ends early (so a
 * cancelled run never waits out a retry delay).
 */
import type { Clock } from "../model/engine-ports";

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted || ms <= 0) return resolve();
      // A longer timer would fire at once; a retry delay that long waits the longest a timer can.
      const timer = setTimeout(done, Math.min(ms, 2_147_483_647));
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    }),
};
