/**
 * The team's budget limits, for the dashboard's procedures and the REST API alike: every
 * member may list them with their period's spend; only admins set and remove them, each
 * change committed with its audit entry. A limit names something that exists (the team's
 * workflow by id, its lane by name) and at least one amount; else USER.BUDGET.INVALID at
 * the field.
 */
import type { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { limitsSomething, periodStart } from "@switchyard/core/governance";
import {
  budgetStandings,
  budgetTargetOf,
  deleteBudgetLimit,
  recordAudit,
  setBudgetLimit,
  type Db,
  type Role,
  type StoredBudgetLimit,
} from "@switchyard/db";
import type { budgetLimit, setBudgetInput } from "../contract/budgets.types";
import { requireRole } from "../trpc/init";

export type BudgetActor = { teamId: string; userId: string; role: Role };
type BudgetLimitOut = z.infer<typeof budgetLimit>;

const invalid = (path: string, message: string) =>
  new AppError("USER.BUDGET.INVALID", message, { location: { path } });

const shown = (
  limit: StoredBudgetLimit & {
    targetName: string;
    spent: { costUsd: number; tokens: number; calls: Record<string, number> };
  },
  now: Date,
): BudgetLimitOut => ({
  id: limit.id,
  scope: limit.scope,
  target: limit.target,
  targetName: limit.targetName,
  period: limit.period,
  cost_usd: limit.amounts.cost_usd ?? null,
  tokens: limit.amounts.tokens ?? null,
  calls: limit.amounts.calls ?? {},
  spent: { costUsd: limit.spent.costUsd, tokens: limit.spent.tokens, calls: limit.spent.calls },
  periodStart: periodStart(limit.period, now).toISOString(),
  updatedAt: limit.updatedAt.toISOString(),
});

export const listTeamBudgets = async (db: Db, actor: BudgetActor) => {
  const now = new Date();
  const standings = await budgetStandings(db, actor.teamId, now);
  return standings.map((s) => shown(s, now));
};

/** The target a limit of this scope names, checked against the team's workflows and lanes. */
const targetOf = async (db: Db, teamId: string, input: z.infer<typeof setBudgetInput>) => {
  const target = input.target.trim();
  const found = await budgetTargetOf(db, teamId, input.scope, target);
  if (found !== undefined) return found;
  throw invalid(
    "target",
    input.scope === "team"
      ? "a team limit names no target: leave it empty"
      : `${input.scope} "${target.slice(0, 60)}" does not exist in this team`,
  );
};

export const setTeamBudget = async (
  db: Db,
  actor: BudgetActor,
  input: z.infer<typeof setBudgetInput>,
): Promise<BudgetLimitOut> => {
  requireRole("admin", actor.role);
  const amounts = {
    ...(input.cost_usd === undefined ? {} : { cost_usd: input.cost_usd }),
    ...(input.tokens === undefined ? {} : { tokens: input.tokens }),
    ...(input.calls && Object.keys(input.calls).length > 0 ? { calls: input.calls } : {}),
  };
  if (!limitsSomething(amounts))
    throw invalid("cost_usd", "a limit needs at least one of cost_usd, tokens or calls");
  const target = await targetOf(db, actor.teamId, input);
  const saved = await db.$transaction(async (tx) => {
    const row = await setBudgetLimit(tx, actor.teamId, {
      scope: input.scope,
      target,
      period: input.period,
      amounts,
    });
    await recordAudit(tx, {
      teamId: actor.teamId,
      actorUserId: actor.userId,
      action: "budget.set",
      targetType: "budget",
      targetId: row.id,
      metadata: { scope: input.scope, target, period: input.period, ...amounts },
    });
    return row;
  });
  const listed = (await listTeamBudgets(db, actor)).find((b) => b.id === saved.id);
  return listed!;
};

export const removeTeamBudget = async (db: Db, actor: BudgetActor, input: { id: string }) => {
  requireRole("admin", actor.role);
  await db.$transaction(async (tx) => {
    const removed = await deleteBudgetLimit(tx, actor.teamId, input.id);
    await recordAudit(tx, {
      teamId: actor.teamId,
      actorUserId: actor.userId,
      action: "budget.remove",
      targetType: "budget",
      targetId: removed.id,
      metadata: { scope: removed.scope, target: removed.target, period: removed.period },
    });
  });
  return { id: input.id };
};
