import { describe, expect, it } from "vitest";
import { retryAfterMs, sleep } from "./retry-after";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const headers = (h: Record<string, string>) => new Headers(h);

describe("retryAfterMs", () => {
  it("reads seconds, an HTTP date and retry-after-ms", () => {
    expect(retryAfterMs(headers({ "retry-after": "2" }), NOW)).toBe(2000);
    expect(retryAfterMs(headers({ "retry-after": " 0.5 " }), NOW)).toBe(500);
    expect(retryAfterMs(headers({ "retry-after": "Sun, 01 Mar 2026 12:00:07 GMT" }), NOW)).toBe(
      7000,
    );
    expect(retryAfterMs(headers({ "retry-after-ms": "1234", "retry-after": "9" }), NOW)).toBe(1234);
  });

  it("treats a date in the past as no wait, and nonsense or nothing as no answer", () => {
    expect(retryAfterMs(headers({ "retry-after": "Sun, 01 Mar 2026 11:00:00 GMT" }), NOW)).toBe(0);
    expect(retryAfterMs(headers({ "retry-after": "soon" }), NOW)).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "-3" }), NOW)).toBeUndefined();
    expect(retryAfterMs(headers({}), NOW)).toBeUndefined();
  });
});

describe("sleep", () => {
  it("rejects with the signal's reason as soon as it is aborted", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(sleep(10, controller.signal)).rejects.toBe(reason);
  });
});
