/**
 * Backoff formulas, the max_delay cap, jitter bounds and exit-code filtering.
 */
import { expect, it } from "vitest";
import { retryDelay, shouldRetry } from "./retry-delay";
import type { RetryPolicy } from "../model/workflow-types";

const policy = (p: Partial<RetryPolicy>): RetryPolicy => ({
  maxAttempts: 5,
  initialDelayMs: 1000,
  backoff: "constant",
  multiplier: 2,
  jitter: 0,
  retryableExitCodes: [],
  ...p,
});

it("follows constant, linear and exponential backoff with a cap", () => {
  expect([1, 2, 3].map((a) => retryDelay(policy({}), a))).toEqual([1000, 1000, 1000]);
  expect([1, 2, 3].map((a) => retryDelay(policy({ backoff: "linear" }), a))).toEqual([
    1000, 2000, 3000,
  ]);
  expect(
    [1, 2, 3, 4].map((a) =>
      retryDelay(policy({ backoff: "exponential", initialDelayMs: 500, multiplier: 1.5 }), a),
    ),
  ).toEqual([500, 750, 1125, 1688]);
  expect(
    [1, 5, 6].map((a) => retryDelay(policy({ backoff: "exponential", maxDelayMs: 30_000 }), a)),
  ).toEqual([1000, 16_000, 30_000]);
});

it("spreads delays by at most ±jitter", () => {
  const p = policy({ jitter: 0.5 });
  expect(retryDelay(p, 1, () => 0)).toBe(500);
  expect(retryDelay(p, 1, () => 1)).toBe(1500);
  expect(retryDelay(p, 1, () => 0.5)).toBe(1000);
});

it("retries only below max_attempts and only listed exit codes when given", () => {
  expect(shouldRetry(policy({ maxAttempts: 3 }), 2, 1)).toBe(true);
  expect(shouldRetry(policy({ maxAttempts: 3 }), 3, 1)).toBe(false);
  expect(shouldRetry(policy({ retryableExitCodes: [22] }), 1, 1)).toBe(false);
  expect(shouldRetry(policy({ retryableExitCodes: [22] }), 1, 22)).toBe(true);
  expect(shouldRetry(undefined, 1, 1)).toBe(false);
});
