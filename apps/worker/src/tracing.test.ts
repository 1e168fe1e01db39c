import { expect, it } from "vitest";
import { traceparentOf } from "./tracing";

it("hands the proxy the step span's traceparent with the run's sampled flag, and none without a trace", () => {
  const trace = "4bf92f3577b34da6a3ce929d0e0e4736";
  const span = "00f067aa0ba902b7";
  expect(traceparentOf(trace, span, 1)).toBe(`00-${trace}-${span}-01`);
  expect(traceparentOf(trace, span, 0)).toBe(`00-${trace}-${span}-00`);
  expect(traceparentOf("0".repeat(32), span, 1)).toBeUndefined();
});
