/**
 * A team's budget limits (Settings → Budgets) and the one ledger of spend they are counted
 * against: every model request's tokens and cost, every tool call, every agent attempt's
 * wall time, each with its run, workflow, lane and member. Every query is the team's; the
 * period sums are what a step's meter starts from and what the overview shows.
 */
import {
  periodStart,
  startRefusal,
  type BudgetAmounts,
  type BudgetLimit,
  type BudgetPeriod,
  type BudgetSpend,
} from "@switchyard/core/governance";
import { AppError } from "@switchyard/core/errors";
import { rawQuery, type Db } from "../client";
import type { Prisma } from "../generated/prisma/client";
import type { PrismaClientOrTransaction } from "../transaction";

type AdminBudgetScope = "workflow" | "lane" | "team";

/** A limit as stored and listed: where it is set, its period and amounts. */
export type StoredBudgetLimit = {
  id: string;
  scope: AdminBudgetScope;
  /** the workflow's id or the lane's name; "" for the team */
  target: string;
  period: BudgetPeriod;
  amounts: BudgetAmounts;
  updatedAt: Date;
};

type LimitRow = {
  id: string;
  scope: AdminBudgetScope;
  target: string;
  period: BudgetPeriod;
  /** a Decimal and a bigint through Prisma, numeric text through the pool */
  costUsd: Prisma.Decimal | string | null;
  tokens: bigint | string | null;
  calls: unknown;
  updatedAt: Date;
};

const callsOf = (value: unknown): Record<string, number> =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(
        Object.entries(value as Record<string, unknown>).filter(
          (e): e is [string, number] => typeof e[1] === "number",
        ),
      )
    : {};

const toLimit = (row: LimitRow): StoredBudgetLimit => {
  const calls = callsOf(row.calls);
  return {
    id: row.id,
    scope: row.scope,
    target: row.target,
    period: row.period,
    amounts: {
      ...(row.costUsd === null ? {} : { cost_usd: Number(row.costUsd) }),
      ...(row.tokens === null ? {} : { tokens: Number(row.tokens) }),
      ...(Object.keys(calls).length > 0 ? { calls } : {}),
    },
    updatedAt: row.updatedAt,
  };
};

const limitColumns = {
  id: true,
  scope: true,
  target: true,
  period: true,
  costUsd: true,
  tokens: true,
  calls: true,
  updatedAt: true,
} as const;

/**
 * The team's limits that match `where` (over scope, target and period, with its values from
 * $2), as a plain statement: read at every run's start and every agent step's.
 */
const limitsWhere = async (db: Db, teamId: string, where: string, params: unknown[]) =>
  (
    await rawQuery<LimitRow>(
      db,
      `SELECT id, scope::text AS scope, target, period::text AS period, "costUsd", tokens, calls,
              "updatedAt" AT TIME ZONE 'UTC' AS "updatedAt"
       FROM "BudgetLimit" WHERE "teamId" = $1 AND (${where})`,
      [teamId, ...params],
    )
  ).map(toLimit);

/** The team's limits: the team's first, then lanes', then workflows'. */
const listBudgetLimits = async (db: PrismaClientOrTransaction, teamId: string) => {
  const rows = await db.budgetLimit.findMany({
    where: { teamId },
    select: limitColumns,
    orderBy: [{ scope: "desc" }, { target: "asc" }, { period: "asc" }],
  });
  return rows.map(toLimit);
};

type BudgetLimitInput = {
  scope: AdminBudgetScope;
  target: string;
  period: BudgetPeriod;
  amounts: BudgetAmounts;
};

/** Sets the limit of a scope, target and period (one each), replacing what was set. */
export const setBudgetLimit = async (
  tx: PrismaClientOrTransaction,
  teamId: string,
  input: BudgetLimitInput,
) => {
  const data = {
    costUsd: input.amounts.cost_usd ?? null,
    tokens: input.amounts.tokens === undefined ? null : BigInt(input.amounts.tokens),
    calls: input.amounts.calls ?? {},
  };
  const row = await tx.budgetLimit.upsert({
    where: {
      teamId_scope_target_period: {
        teamId,
        scope: input.scope,
        target: input.target,
        period: input.period,
      },
    },
    create: { teamId, scope: input.scope, target: input.target, period: input.period, ...data },
    update: data,
    select: limitColumns,
  });
  return toLimit(row);
};

/** Removes one of the team's limits; NOT_FOUND when the team has no such limit. */
export const deleteBudgetLimit = async (
  tx: PrismaClientOrTransaction,
  teamId: string,
  id: string,
) => {
  const row = await tx.budgetLimit.findFirst({ where: { id, teamId }, select: limitColumns });
  if (!row)
    throw new AppError("NOT_FOUND", "this team has no such budget limit", {
      location: { path: "id" },
    });
  await tx.budgetLimit.delete({ where: { id } });
  return toLimit(row);
};

/** What a run is counted against in the ledger. */
type SpendSubject = {
  teamId: string;
  runId: string;
  workflowId: string;
  lane: string;
  memberId: string | null;
};

/** One ledger entry: a model request, a tool call or an attempt's wall time. */
export type SpendInput =
  | { kind: "model"; stepRunId?: string; tokens: number; costUsd: number | null }
  | { kind: "call"; stepRunId?: string; tool: string }
  | { kind: "wall"; stepRunId?: string; wallMs: number };

/** Appends an entry to the team's ledger. */
export const recordSpend = async (
  db: PrismaClientOrTransaction,
  subject: SpendSubject,
  entry: SpendInput,
) => {
  const base = { ...subject, stepRunId: entry.stepRunId ?? null, kind: entry.kind };
  switch (entry.kind) {
    case "model":
      await db.spendEntry.create({
        data: { ...base, tokens: entry.tokens, costUsd: entry.costUsd ?? 0 },
      });
      return;
    case "call":
      await db.spendEntry.create({ data: { ...base, tool: entry.tool } });
      return;
    case "wall":
      await db.spendEntry.create({ data: { ...base, wallMs: Math.round(entry.wallMs) } });
      return;
  }
};

type SpendFilter = {
  workflowId?: string;
  lane?: string;
  memberId?: string;
  runId?: string;
  stepRunId?: string;
  since?: Date;
};

const whereOf = (teamId: string, f: SpendFilter): Prisma.SpendEntryWhereInput => ({
  teamId,
  ...(f.workflowId === undefined ? {} : { workflowId: f.workflowId }),
  ...(f.lane === undefined ? {} : { lane: f.lane }),
  ...(f.memberId === undefined ? {} : { memberId: f.memberId }),
  ...(f.runId === undefined ? {} : { runId: f.runId }),
  ...(f.stepRunId === undefined ? {} : { stepRunId: f.stepRunId }),
  ...(f.since === undefined ? {} : { at: { gte: f.since } }),
});

/** What the ledger holds for a filter: cost, tokens, calls per tool and wall time. */
export const sumSpend = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  filter: SpendFilter,
): Promise<BudgetSpend & { wallMs: number }> => {
  const where = whereOf(teamId, filter);
  const totals = await db.spendEntry.aggregate({
    where,
    _sum: { tokens: true, costUsd: true, wallMs: true },
  });
  const calls = await db.spendEntry.groupBy({
    by: ["tool"],
    where: { ...where, kind: "call" },
    _count: { _all: true },
  });
  return {
    costUsd: Number(totals._sum.costUsd ?? 0),
    tokens: totals._sum.tokens ?? 0,
    wallMs: totals._sum.wallMs ?? 0,
    calls: Object.fromEntries(
      calls.filter((c) => c.tool !== null).map((c) => [c.tool!, c._count._all]),
    ),
  };
};

/** What a stored limit counts against in the ledger, from the start of its period. */
const filterOf = (limit: StoredBudgetLimit, now: Date): SpendFilter => ({
  since: periodStart(limit.period, now),
  ...(limit.scope === "workflow" ? { workflowId: limit.target } : {}),
  ...(limit.scope === "lane" ? { lane: limit.target } : {}),
});

/** The team's limits that apply to a run of this workflow in this lane, each with its period's spend so far. */
export const budgetLimitsFor = async (
  db: Db,
  teamId: string,
  run: { workflowId: string; lane: string; workflowName: string },
  now = new Date(),
): Promise<{ stored: StoredBudgetLimit; limit: BudgetLimit; spentBefore: BudgetSpend }[]> => {
  const rows = await limitsWhere(
    db,
    teamId,
    `scope = 'team' OR (scope = 'lane' AND target = $2) OR (scope = 'workflow' AND target = $3)`,
    [run.lane, run.workflowId],
  );
  const out = [];
  for (const stored of rows) {
    const spentBefore = await sumSpend(db, teamId, filterOf(stored, now));
    out.push({
      stored,
      limit: {
        ...stored.amounts,
        scope: stored.scope,
        period: stored.period,
        ...(stored.scope === "team"
          ? {}
          : { name: stored.scope === "lane" ? stored.target : run.workflowName }),
      },
      spentBefore,
    });
  }
  return out;
};

/**
 * Every limit of the team with what its period has spent and the name of what it is set
 * on (the workflow's name, the lane's; "" for the team), for the overview and Settings → Budgets.
 */
export const budgetStandings = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  now = new Date(),
) => {
  const limits = await listBudgetLimits(db, teamId);
  const workflowIds = limits.filter((l) => l.scope === "workflow").map((l) => l.target);
  const workflows = new Map(
    (
      await db.workflow.findMany({
        where: { teamId, id: { in: workflowIds } },
        select: { id: true, name: true },
      })
    ).map((w) => [w.id, w.name]),
  );
  const out = [];
  for (const limit of limits)
    out.push({
      ...limit,
      targetName:
        limit.scope === "workflow" ? (workflows.get(limit.target) ?? limit.target) : limit.target,
      spent: await sumSpend(db, teamId, filterOf(limit, now)),
    });
  return out;
};

/**
 * What a limit of this scope is set on, as stored: the team's live workflow of that id, its
 * lane of that name, "" for the team; undefined when the team has no such workflow or lane.
 */
export const budgetTargetOf = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  scope: AdminBudgetScope,
  target: string,
): Promise<string | undefined> => {
  switch (scope) {
    case "team":
      return target === "" ? "" : undefined;
    case "lane":
      return (await db.lane.findFirst({ where: { teamId, name: target }, select: { name: true } }))
        ?.name;
    case "workflow":
      return (
        await db.workflow.findFirst({
          where: { teamId, id: target, archivedAt: null },
          select: { id: true },
        })
      )?.id;
  }
};

/** Why a run in this lane may not start: the team's or the lane's monthly limit is reached (USER.BUDGET.EXCEEDED). */
export const budgetStartRefusal = async (
  db: Db,
  teamId: string,
  lane: string,
  now = new Date(),
) => {
  const rows = await limitsWhere(
    db,
    teamId,
    `period = 'month' AND (scope = 'team' OR (scope = 'lane' AND target = $2))`,
    [lane],
  );
  const limits = [];
  for (const stored of rows)
    limits.push({
      limit: {
        ...stored.amounts,
        scope: stored.scope,
        period: stored.period,
        ...(stored.scope === "lane" ? { name: stored.target } : {}),
      },
      spentBefore: await sumSpend(db, teamId, filterOf(stored, now)),
    });
  return startRefusal(limits);
};
