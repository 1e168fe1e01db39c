import { expect, it } from "vitest";
import { formatLocal, relativeTime } from "./local-time";

const now = new Date("2026-12-01T12:00:00Z");

it("says how long ago a moment was, in the largest unit that fits", () => {
  expect(relativeTime(new Date("2026-12-01T11:59:55Z"), now, "en")).toBe("just now");
  expect(relativeTime(new Date("2026-12-01T11:57:00Z"), now, "en")).toBe("3 min. ago");
  expect(relativeTime(new Date("2026-12-01T09:00:00Z"), now, "en")).toBe("3 hr. ago");
  expect(relativeTime(new Date("2026-11-30T12:00:00Z"), now, "en")).toBe("yesterday");
  expect(relativeTime(new Date("2026-12-01T14:00:00Z"), now, "en")).toBe("in 2 hr.");
});

it("writes a moment in the zone asked for", () => {
  const late = new Date("2026-12-01T23:30:00Z"); // already 2 December in Tokyo
  const tokyo = formatLocal(late, { timeZone: "Asia/Tokyo", dateOnly: true });
  const utc = formatLocal(late, { timeZone: "UTC", dateOnly: true });
  expect(tokyo).toBe(
    formatLocal(new Date("2026-12-02T12:00:00Z"), { timeZone: "UTC", dateOnly: true }),
  );
  expect(utc).not.toBe(tokyo);
});
