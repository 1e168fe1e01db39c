/**
 * Request and response shapes of the team's budget limits (Settings → Budgets), shared by
 * the tRPC procedures, the REST routes and the generated OpenAPI document. A limit is set
 * on a workflow, a lane or the team, per UTC day or month; listing shows each limit with
 * what its current period has spent.
 */
import { z } from "zod";
import { BUDGET_PERIODS, budgetAmountsSchema } from "@switchyard/core/governance";
import { operation } from "./operation";

export const budgetScope = z.enum(["workflow", "lane", "team"]);

/** PUT /budgets: one limit per scope, target and period; setting it again replaces it. */
export const setBudgetInput = budgetAmountsSchema.extend({
  scope: budgetScope.describe("where the limit is set"),
  target: z
    .string()
    .max(200)
    .default("")
    .describe(
      "the workflow's id (scope workflow) or the lane's name (scope lane); empty for the team",
    ),
  period: z.enum(BUDGET_PERIODS).describe("the UTC period the limit counts over"),
});
export const budgetIdInput = z.object({ id: z.string().min(1).max(100) });

const spend = z.object({
  costUsd: z.number(),
  tokens: z.number().int(),
  calls: z.record(z.string(), z.number().int()).describe("calls per tool name"),
});

export const budgetLimit = z.object({
  id: z.string(),
  scope: budgetScope,
  target: z.string(),
  targetName: z.string().describe("the workflow's or lane's name; empty for the team"),
  period: z.enum(BUDGET_PERIODS),
  cost_usd: z.number().nullable(),
  tokens: z.number().int().nullable(),
  calls: z.record(z.string(), z.number().int()),
  spent: spend.describe("what the limit's current period has spent"),
  periodStart: z.string().describe("ISO 8601: when the current period began (UTC)"),
  updatedAt: z.string(),
});
export const budgetLimitList = z.array(budgetLimit);
export const listBudgetsResponse = z.object({ budgets: budgetLimitList });
export const removeBudgetResponse = z.object({ id: z.string() });

export const budgetOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: budgetLimitList,
    rest: {
      method: "GET",
      path: "/budgets",
      summary:
        "The team's budget limits (workflow, lane, team; per UTC day or month), each with what its current period has spent",
      status: 200,
      description: "Every limit, the team's first",
      wrap: "budgets",
      response: listBudgetsResponse,
    },
  }),
  set: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: setBudgetInput,
    output: budgetLimit,
    rest: {
      method: "PUT",
      path: "/budgets",
      summary:
        "Admins: set a limit of model cost (USD), tokens and calls per tool pattern on a workflow, a lane or the team, per day or month; the tightest limit that applies stops a step",
      body: setBudgetInput,
      status: 200,
      description: "The limit as stored, with its period's spend",
      errors: {
        400: "USER.BUDGET.INVALID: the limit names no amount, or an unknown workflow or lane",
      },
    },
  }),
  remove: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: budgetIdInput,
    output: removeBudgetResponse,
    rest: {
      method: "DELETE",
      path: "/budgets/{id}",
      summary: "Admins: remove a budget limit",
      status: 200,
      description: "Removed",
    },
  }),
};
