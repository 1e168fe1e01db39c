/**
 * The wait before retry number `attempt` (1 = the first retry) under AWF's backoff
 * formulas, capped by max_delay and spread by ±jitter.
 */
import type { RetryPolicy } from "../model/workflow-types";

export const retryDelay = (
  policy: RetryPolicy,
  attempt: number,
  random: () => number = Math.random,
): number => {
  const base = policy.initialDelayMs;
  let delay: number;
  switch (policy.backoff) {
    case "constant":
      delay = base;
      break;
    case "linear":
      delay = base * attempt;
      break;
    case "exponential":
      delay = base * policy.multiplier ** (attempt - 1);
      break;
    default: {
      const never: never = policy.backoff;
      return never;
    }
  }
  if (policy.maxDelayMs !== undefined) delay = Math.min(delay, policy.maxDelayMs);
  if (policy.jitter > 0) delay = delay * (1 + policy.jitter * (2 * random() - 1));
  return Math.max(0, Math.round(delay));
};

export const shouldRetry = (
  policy: RetryPolicy | undefined,
  attempt: number,
  exitCode: number | null,
): boolean => {
  if (!policy || attempt >= policy.maxAttempts) return false;
  if (policy.retryableExitCodes.length === 0) return true;
  return exitCode !== null && policy.retryableExitCodes.includes(exitCode);
};
