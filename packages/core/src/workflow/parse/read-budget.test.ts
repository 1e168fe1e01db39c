import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";

const withBudget = (budget: string) =>
  [
    "name: budgeted",
    "states:",
    "  initial: review",
    "  review:",
    "    type: agent",
    "    provider: claude",
    "    prompt: hi",
    `    budget: ${budget}`,
    "    on_success: done",
    "  done:",
    "    type: terminal",
    "",
  ].join("\n");

describe("an agent step's budget", () => {
  it("reads cost, tokens and calls per tool pattern", () => {
    const r = parseWorkflow(
      withBudget(
        "{cost_usd: 2, tokens: 200000, calls: {github_create_pull_request: 1, 'github_*': 5}}",
      ),
    );
    expect(r.errors).toEqual([]);
    const state = r.workflow?.states.get("review");
    expect(state).toMatchObject({
      kind: "agent",
      budget: {
        cost_usd: 2,
        tokens: 200000,
        calls: { github_create_pull_request: 1, "github_*": 5 },
      },
    });
  });

  it("says what is wrong, with the line and field, as USER.BUDGET.INVALID", () => {
    const r = parseWorkflow(
      withBudget("{cost_usd: -1, tokens: 2.5, calls: {'bad name!': 1, Bash: many}, limit: 3}"),
    );
    const problems = r.errors.map((e) => [e.code, e.location?.path, e.location?.line]);
    expect(problems).toEqual(
      expect.arrayContaining([
        ["USER.BUDGET.INVALID", "states.review.budget.limit", 8],
        ["USER.BUDGET.INVALID", "states.review.budget.cost_usd", 8],
        ["USER.BUDGET.INVALID", "states.review.budget.tokens", 8],
        ["USER.BUDGET.INVALID", "states.review.budget.calls.bad name!", 8],
        ["USER.BUDGET.INVALID", "states.review.budget.calls.Bash", 8],
      ]),
    );
    expect(
      r.errors.find((e) => e.location?.path === "states.review.budget.cost_usd")?.message,
    ).toContain('budget "cost_usd" must be a number above 0, got -1');
  });

  it("refuses a budget that is not a mapping or limits nothing", () => {
    expect(
      parseWorkflow(withBudget("5")).errors.map((e) => [e.code, e.location?.path]),
    ).toContainEqual(["USER.BUDGET.INVALID", "states.review.budget"]);
    expect(parseWorkflow(withBudget("{}")).errors.map((e) => e.message)).toContainEqual(
      expect.stringContaining('"budget" limits nothing'),
    );
  });
});
