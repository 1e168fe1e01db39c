import { expect, it } from "vitest";
import { isStorableTime } from "./storable-time";

it("takes years 0001 to 9999 in UTC, and nothing before, after or invalid", () => {
  for (const ok of [
    "0001-01-01T00:00:00.000Z",
    "1970-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999Z",
    "2026-12-01T10:00:00+05:00",
  ]) {
    expect(isStorableTime(new Date(ok)), ok).toBe(true);
  }
  for (const out of [
    "0000-12-31T23:59:59.999Z",
    "0001-01-01T00:30:00+01:00",
    "9999-12-31T23:30:00-01:00",
    "-000001-01-01T00:00:00Z",
    "+275760-09-13T00:00:00Z",
    "not a date",
  ]) {
    expect(isStorableTime(new Date(out)), out).toBe(false);
  }
});
