/**
 * Reads an agent step's `budget` block, a Switchyard extension (docs/governance.md):
 * `budget: {cost_usd: 2, tokens: 200000, calls: {github_create_pull_request: 1}}`. Every
 * problem is USER.BUDGET.INVALID at its line and field; a block that limits nothing is one.
 */
import { isScalar } from "yaml";
import { limitsSomething, type BudgetAmounts } from "../../governance/budget-limits";
import { BUDGET_KEYS } from "./vocabulary";
import { report, sourceOf, type YamlReader } from "./yaml-reader";

const INVALID = "USER.BUDGET.INVALID";
const TOOL_PATTERN = /^[A-Za-z0-9_*-]+$/;

const positive = (r: YamlReader, key: string, integer: boolean): number | undefined => {
  const value = r.scalar(key);
  if (value === undefined || value === null) return undefined;
  const n = typeof value === "number" ? value : NaN;
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    r.error(
      INVALID,
      `budget "${key}" must be a ${integer ? "whole number" : "number"} above 0, got ${JSON.stringify(value)}`,
      key,
    );
    return undefined;
  }
  return n;
};

const readCalls = (r: YamlReader): Record<string, number> | undefined => {
  if (!r.has("calls")) return undefined;
  const calls = r.map("calls");
  if (!calls) return undefined;
  const out: Record<string, number> = {};
  for (const pair of calls.node.items) {
    const tool = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const where = sourceOf(r.diag, isScalar(pair.key) ? pair.key : calls.node, calls.at(tool));
    if (!TOOL_PATTERN.test(tool)) {
      report(
        r.diag,
        "error",
        INVALID,
        `budget calls: "${tool}" is not a tool pattern (letters, digits, _, - and *)`,
        where,
      );
      continue;
    }
    const value = calls.scalar(tool);
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      calls.error(
        INVALID,
        `budget calls.${tool} must be a whole number of calls (0 or more), got ${JSON.stringify(value)}`,
        tool,
      );
      continue;
    }
    out[tool] = value;
  }
  return out;
};

export const readBudget = (state: YamlReader): BudgetAmounts | undefined => {
  if (!state.has("budget")) return undefined;
  const node = state.raw("budget");
  const r = state.map("budget");
  if (!r) {
    if (node !== undefined) state.error(INVALID, '"budget" must be a mapping', "budget");
    return undefined;
  }
  r.checkKeys(BUDGET_KEYS, {}, INVALID);
  const costUsd = positive(r, "cost_usd", false);
  const tokens = positive(r, "tokens", true);
  const calls = readCalls(r);
  const budget: BudgetAmounts = {
    ...(costUsd === undefined ? {} : { cost_usd: costUsd }),
    ...(tokens === undefined ? {} : { tokens }),
    ...(calls && Object.keys(calls).length > 0 ? { calls } : {}),
  };
  if (!limitsSomething(budget) && r.keys().length === 0)
    state.error(INVALID, '"budget" limits nothing: give cost_usd, tokens or calls', "budget");
  return limitsSomething(budget) ? budget : undefined;
};
