/**
 * The wait an agent is given for one tool call (its CLI's MCP tool timeout, openai_compatible's
 * call timeout): the step's `tool_timeout`, never below what a call held for approval needs
 * to be suspended first; unset, long enough for a held call to be answered and then run.
 */
import { describe, expect, it } from "vitest";
import { stepToolTimeoutMs } from "./agent-executor";

describe("the agent's wait for one tool call", () => {
  const HOLD = 120_000;
  it("is, unset, the hold limit and the time a held call may then run", () => {
    expect(stepToolTimeoutMs({}, HOLD)).toBe(HOLD + 11 * 60_000);
    // No approvals (switchyard run): the provider's own default.
    expect(stepToolTimeoutMs({}, undefined)).toBeUndefined();
  });

  it("is the step's tool_timeout, raised or lowered, but never below the hold limit and 10 s", () => {
    expect(stepToolTimeoutMs({ toolTimeoutMs: 3_600_000 }, HOLD)).toBe(3_600_000);
    expect(stepToolTimeoutMs({ toolTimeoutMs: 300_000 }, HOLD)).toBe(300_000);
    expect(stepToolTimeoutMs({ toolTimeoutMs: 5_000 }, HOLD)).toBe(HOLD + 10_000);
    expect(stepToolTimeoutMs({ toolTimeoutMs: 5_000 }, undefined)).toBe(5_000);
  });
});
