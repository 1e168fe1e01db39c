/**
 * Rides out a short database outage (a restart, a failover, a dropped connection): a write
 * whose error says the server could not be reached is tried again with growing pauses until
 * it succeeds or `outageMs` has passed; then it fails with SYSTEM.DATABASE_UNAVAILABLE,
 * which the worker treats as "try the run again later", never as the run's own failure.
 * Only writes that are safe to send twice go through here: their rows carry ids made by the
 * caller and skip what is already stored, and their updates set values rather than add.
 */
import { AppError } from "@switchyard/core/errors";

/** SQLSTATEs of a server that is going away or not there yet (classes 08 and 57P, and too many connections). */
const UNAVAILABLE_STATES = /^(08|57P0[1-3]$|53300$)/;
const UNAVAILABLE_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOENT",
]);
const UNAVAILABLE_TEXT =
  /Connection terminated|connection error|not queryable|terminating connection|the database system is (starting up|shutting down|in recovery mode)|timeout exceeded when trying to connect|Can't reach database server|server closed the connection/i;

/** Whether `error` (or an error it wraps) says the database could not be reached, rather than refused the statement. */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 6; depth++) {
    if (typeof e !== "object") return false;
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_ERRNOS.has(code)))
      return true;
    if (typeof message === "string" && UNAVAILABLE_TEXT.test(message)) return true;
    // An AggregateError (a connect that tried several addresses) holds its reasons in `errors`.
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.some((x) => isDatabaseUnavailable(x))) return true;
    e = cause;
  }
  return false;
};

type OutageOptions = {
  /** How long an outage may last before the write fails for good. */
  outageMs: number;
  /** Told of each failed try that will be tried again (the first of an outage, say, to log it). */
  onRetry?: (error: unknown, tries: number) => void;
  /** Stops the waiting: the last error is thrown as it is. */
  signal?: AbortSignal;
};

const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 2000;

/** Runs `write`, again while the database is unavailable, for at most `outageMs` of outage. */
export const whileDatabaseUnavailable = async <T>(
  write: () => Promise<T>,
  options: OutageOptions,
): Promise<T> => {
  const since = Date.now();
  let pause = FIRST_PAUSE_MS;
  for (let tries = 1; ; tries++) {
    try {
      return await write();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || options.signal?.aborted) throw error;
      const left = since + options.outageMs - Date.now();
      if (left <= 0) {
        throw new AppError(
          "SYSTEM.DATABASE_UNAVAILABLE",
          `the database has been unreachable for ${Math.round((Date.now() - since) / 1000)} s: ${error instanceof Error ? error.message : String(error)}`,
          {
            retryable: true,
            cause: error,
          },
        );
      }
      options.onRetry?.(error, tries);
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
};
