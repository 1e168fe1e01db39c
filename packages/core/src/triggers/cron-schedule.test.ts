import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { checkSchedule, nextFireTimes } from "./cron-schedule";

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
};

describe("checkSchedule", () => {
  it("accepts five and six fields and normalises spacing", () => {
    expect(checkSchedule("*/5  * * * *", "Europe/Paris")).toBe("*/5 * * * *");
    expect(checkSchedule("*/1 * * * * *", "UTC")).toBe("*/1 * * * * *");
  });

  it("names the field at fault", () => {
    const hour = refusal(() => checkSchedule("0 25 * * *", "UTC"));
    expect(hour.code).toBe("USER.TRIGGER.INVALID_SCHEDULE");
    expect(hour.message).toMatch(/^hour field "25"/);
    expect(hour.location?.path).toBe("cron");
    expect(refusal(() => checkSchedule("61 * * * * *", "UTC")).message).toMatch(/^second field/);
    expect(refusal(() => checkSchedule("0 0 * 13 *", "UTC")).message).toMatch(/^month field/);
  });

  it("refuses a wrong number of fields and an unknown zone", () => {
    expect(refusal(() => checkSchedule("* * * *", "UTC")).message).toMatch(/5 fields .* or 6/);
    const zone = refusal(() => checkSchedule("* * * * *", "Mars/Olympus"));
    expect(zone.location?.path).toBe("timezone");
  });

  it("refuses a schedule that never fires", () => {
    expect(refusal(() => checkSchedule("0 0 30 2 *", "UTC")).code).toBe(
      "USER.TRIGGER.INVALID_SCHEDULE",
    );
  });
});

describe("nextFireTimes", () => {
  it("follows the zone", () => {
    const from = new Date("2026-06-01T00:00:00Z");
    const times = nextFireTimes("0 9 * * *", "Europe/Paris", 3, from);
    expect(times.map((t) => t.toISOString())).toEqual([
      "2026-06-01T07:00:00.000Z",
      "2026-06-02T07:00:00.000Z",
      "2026-06-03T07:00:00.000Z",
    ]);
    expect(nextFireTimes("0 9 * * *", "UTC", 1, from)[0]?.toISOString()).toBe(
      "2026-06-01T09:00:00.000Z",
    );
  });
});
