import { expect, it } from "vitest";
import { teamLimitDelayMs } from "./team-run-limit";

it("waits longer the longer a run has waited, within bounds, spread by jitter", () => {
  const low = () => 0;
  const high = () => 0.999_999;
  expect(teamLimitDelayMs(0, low)).toBe(125);
  expect(teamLimitDelayMs(0, high)).toBe(375);
  expect(teamLimitDelayMs(16_000, low)).toBe(500);
  expect(teamLimitDelayMs(16_000, high)).toBe(1500);
  // Capped: a run that has waited an hour is still tried every few seconds.
  expect(teamLimitDelayMs(3_600_000, low)).toBe(2500);
  expect(teamLimitDelayMs(3_600_000, high)).toBe(7500);
  // A clock that went backwards (the job's timestamp is another machine's) waits the least.
  expect(teamLimitDelayMs(-60_000, low)).toBe(125);
  const spread = new Set(Array.from({ length: 50 }, () => teamLimitDelayMs(10_000)));
  expect(spread.size).toBeGreaterThan(10);
});
