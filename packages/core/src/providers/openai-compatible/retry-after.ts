/**
 * How long a rate-limited or failing model endpoint asks to be left alone (`retry-after-ms`,
 * `Retry-After` in seconds or as an HTTP date), and a wait that ends at once when the step
 * is cancelled. Without such a header the driver backs off like a step's `retry`.
 */
import { AppError, isAppError } from "../../errors/app-error";

/** Why the step's signal fired: its AppError (cancelled, timed out), or a plain cancellation. */
export const abortReason = (signal: AbortSignal): AppError =>
  isAppError(signal.reason)
    ? signal.reason
    : new AppError("EXECUTION.CANCELLED", "the step was cancelled");

const HTTP_DATE = /[A-Za-z]{3}.*\d{1,2}:\d{2}:\d{2}/;

/** The wait the response asks for, in ms; undefined when it asks for none (or nonsense). */
export const retryAfterMs = (headers: Headers, now: number): number | undefined => {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // Date.parse reads nearly anything ("-3" is a year): require a date's month and time of day.
  if (!HTTP_DATE.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
};

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
