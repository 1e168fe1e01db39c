/**
 * A run announces every change, many a second while an agent streams text. Refreshing on
 * each would cancel the refresh under way again and again, and the page would show nothing
 * new until the run paused; instead one refresh runs at a time, and changes announced
 * meanwhile make exactly one more after it.
 */
export const coalesceRefresh = (refresh: () => Promise<unknown>) => {
  let running = false;
  let again = false;
  const loop = async () => {
    running = true;
    try {
      do {
        again = false;
        await refresh().catch(() => undefined);
      } while (again);
    } finally {
      running = false;
    }
  };
  return () => {
    if (running) again = true;
    else void loop();
  };
};
