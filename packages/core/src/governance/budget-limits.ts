/**
 * What a budget limits and where a limit is set. One vocabulary for the workflow's step
 * `budget:` block (a Switchyard extension), the team's limits (Settings → Budgets, the API)
 * and the meter that enforces them while a step runs. Amounts: model cost in USD, model
 * tokens (input plus output), and tool calls per tool pattern (`*` any run of characters).
 */
import { z } from "zod";

/** Where a limit is set: on the step itself, or by an admin on a workflow, a lane or the team. */
type BudgetScope = "step" | "workflow" | "lane" | "team";

/** The period a workflow, lane or team limit counts over (UTC). A step's limit counts its attempt. */
export const BUDGET_PERIODS = ["day", "month"] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

const toolPattern = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_*-]+$/, "a tool pattern has letters, digits, _, - and *");

export const budgetAmountsSchema = z
  .object({
    /** the most the model requests may cost, in USD */
    cost_usd: z.number().positive().max(1_000_000).optional(),
    /** the most model tokens (input plus output) */
    tokens: z.number().int().positive().max(1e12).optional(),
    /** the most calls of each tool pattern */
    calls: z.record(toolPattern, z.number().int().min(0).max(1_000_000)).optional(),
  })
  .strict();
export type BudgetAmounts = z.infer<typeof budgetAmountsSchema>;

/** A limit as the meter enforces it: its amounts and where it is set. */
export type BudgetLimit = BudgetAmounts & {
  scope: BudgetScope;
  /** Unset for a step's own limit. */
  period?: BudgetPeriod;
  /** What it is set on, for messages: the step's, workflow's or lane's name; unset for the team. */
  name?: string;
};

/** What has been spent: model cost and tokens, calls by tool name. */
export type BudgetSpend = { costUsd: number; tokens: number; calls: Record<string, number> };

export const emptySpend = (): BudgetSpend => ({ costUsd: 0, tokens: 0, calls: {} });

/** Whether an amounts object limits anything at all. */
export const limitsSomething = (amounts: BudgetAmounts): boolean =>
  amounts.cost_usd !== undefined ||
  amounts.tokens !== undefined ||
  Object.keys(amounts.calls ?? {}).length > 0;

/** Where a limit is set, said for a person: `step "review"`, `lane "prod", month`, `team, day`. */
export const describeLimitPlace = (limit: Pick<BudgetLimit, "scope" | "period" | "name">) => {
  const place = limit.name === undefined ? limit.scope : `${limit.scope} "${limit.name}"`;
  return limit.period ? `${place}, per ${limit.period} (UTC)` : place;
};

/** When the period that holds `now` began (UTC). */
export const periodStart = (period: BudgetPeriod, now: Date): Date => {
  switch (period) {
    case "day":
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    case "month":
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  }
};
