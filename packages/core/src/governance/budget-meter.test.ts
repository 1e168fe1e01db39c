import { describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import { emptySpend, periodStart } from "./budget-limits";
import { createBudgetMeter, type BudgetWarning } from "./budget-meter";

const refusalOf = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  return undefined;
};

describe("createBudgetMeter", () => {
  it("admits model requests until the step's cost limit is reached, then refuses naming it", () => {
    const meter = createBudgetMeter([
      { limit: { scope: "step", name: "review", cost_usd: 2 }, spentBefore: emptySpend() },
    ]);
    meter.admitModel();
    meter.chargeModel({ tokens: 1000, costUsd: 1.5 });
    meter.admitModel();
    meter.chargeModel({ tokens: 1000, costUsd: 0.6 });
    const refusal = refusalOf(() => meter.admitModel());
    expect(refusal?.code).toBe("USER.BUDGET.EXCEEDED");
    expect(refusal?.message).toContain(
      'the cost limit of $2.00 set on step "review" is reached ($2.10 spent)',
    );
    expect(refusal?.details).toMatchObject({ scope: "step", amount: "cost_usd", limit: 2 });
    expect(meter.exceeded()).toBe(refusal);
  });

  it("counts what the period spent before the step: the tightest limit refuses first", () => {
    const meter = createBudgetMeter([
      { limit: { scope: "step", name: "s", tokens: 10_000 }, spentBefore: emptySpend() },
      {
        limit: { scope: "team", period: "month", tokens: 50_000 },
        spentBefore: { costUsd: 0, tokens: 49_500, calls: {} },
      },
    ]);
    meter.admitModel();
    meter.chargeModel({ tokens: 600, costUsd: null });
    const refusal = refusalOf(() => meter.admitModel());
    expect(refusal?.message).toContain(
      "the token limit of 50000 set on team, per month (UTC) is reached (50100 tokens used)",
    );
  });

  it("refuses a tool call past its pattern's limit and leaves other tools alone", () => {
    const meter = createBudgetMeter([
      {
        limit: { scope: "lane", name: "prod", period: "day", calls: { "github_create_*": 1 } },
        spentBefore: emptySpend(),
      },
    ]);
    meter.admitCall("github_create_pull_request");
    meter.chargeCall("github_create_pull_request");
    const refusal = refusalOf(() => meter.admitCall("github_create_issue"));
    expect(refusal?.message).toContain(
      'the limit of 1 call of github_create_* set on lane "prod", per day (UTC) is reached (1 made)',
    );
    expect(meter.spend().calls).toEqual({ github_create_pull_request: 1 });
    // The refused call ends the step: its next model request is refused with the same error.
    expect(refusalOf(() => meter.admitModel())).toBe(refusal);
    expect(meter.exceeded()).toBe(refusal);
  });

  it("refuses tool calls too once the cost limit is reached", () => {
    const meter = createBudgetMeter([
      {
        limit: { scope: "workflow", name: "w", period: "day", cost_usd: 1 },
        spentBefore: { costUsd: 1, tokens: 0, calls: {} },
      },
    ]);
    expect(refusalOf(() => meter.admitCall("Bash"))?.code).toBe("USER.BUDGET.EXCEEDED");
  });

  it("warns once when a limit crosses 80%, and not for one crossed before the step", () => {
    const warnings: BudgetWarning[] = [];
    const meter = createBudgetMeter(
      [
        {
          limit: { scope: "team", period: "month", cost_usd: 10 },
          spentBefore: { costUsd: 7, tokens: 0, calls: {} },
        },
        {
          limit: { scope: "lane", name: "l", period: "month", cost_usd: 10 },
          spentBefore: { costUsd: 9, tokens: 0, calls: {} },
        },
      ],
      { onWarning: (w) => warnings.push(w) },
    );
    meter.chargeModel({ tokens: 1, costUsd: 0.5 });
    meter.chargeModel({ tokens: 1, costUsd: 0.6 });
    meter.chargeModel({ tokens: 1, costUsd: 0.1 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ amount: "cost_usd", max: 10, limit: { scope: "team" } });
    expect(warnings[0]!.spent).toBeCloseTo(8.1);
  });
});

describe("periodStart", () => {
  it("starts days and months at UTC midnight", () => {
    const now = new Date("2026-12-03T23:30:00-05:00");
    expect(periodStart("day", now).toISOString()).toBe("2026-12-04T00:00:00.000Z");
    expect(periodStart("month", now).toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });
});
