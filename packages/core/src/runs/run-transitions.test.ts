import { describe, expect, it } from "vitest";
import { RUN_STATUSES, canTransition, statusesBefore } from "./run-transitions";

describe("run transitions", () => {
  it("allows exactly the lifecycle's moves", () => {
    const allowed = RUN_STATUSES.flatMap((from) =>
      RUN_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}->${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        "queued->running",
        "queued->cancelled",
        "running->succeeded",
        "running->failed",
        "running->cancelled",
        "running->waiting",
        "waiting->running",
        "waiting->queued",
        "waiting->cancelled",
      ].sort(),
    );
  });

  it("never moves an ended run, nor back to queued but from waiting", () => {
    for (const ended of ["succeeded", "failed", "cancelled"] as const) {
      for (const to of RUN_STATUSES) expect(canTransition(ended, to)).toBe(false);
    }
    expect(statusesBefore("queued")).toEqual(["waiting"]);
  });

  it("names the statuses a move may start from, and refuses a narrowing outside the table", () => {
    expect(statusesBefore("cancelled")).toEqual(["queued", "running", "waiting"]);
    expect(statusesBefore("running")).toEqual(["queued", "waiting"]);
    expect(statusesBefore("succeeded")).toEqual(["running"]);
    expect(statusesBefore("cancelled", ["queued"])).toEqual(["queued"]);
    expect(() => statusesBefore("running", ["cancelled"])).toThrow(/cancelled to running/);
  });
});
