/**
 * A team's lanes as stored (name, description, who may save and start workflows in each,
 * which tool calls of its runs wait for a person's approval) and what names each lane: workflows in it, connectors opened to it or holding tool rules
 * for it, secrets opened to it. Name rules, the built-in lanes and audit entries are the
 * callers'; removing a lane something names is refused here, in the transaction that
 * removes it.
 */
import { AppError } from "@switchyard/core/errors";
import { checkApprovalRule, type ApprovalRule } from "@switchyard/core/governance";
import type { Prisma, Role } from "../generated/prisma/client";
import { rawQuery, type Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";

type LaneFields = { description: string; saveRoles: Role[]; startRoles: Role[] };

/** What names a lane, by name. */
type LaneUsage = { workflows: string[]; connectors: string[]; secrets: string[] };

const laneColumns = {
  name: true,
  description: true,
  saveRoles: true,
  startRoles: true,
  approvalRules: true,
  createdAt: true,
} as const;

const notFound = (name: string) =>
  new AppError("NOT_FOUND", `lane "${name}" does not exist in this team`, {
    location: { path: "name" },
  });

const unused = (): LaneUsage => ({ workflows: [], connectors: [], secrets: [] });

type Namers = {
  workflows: { name: string; lane: string }[];
  connectors: { slug: string; lanes: string[]; toolAllow: Prisma.JsonValue }[];
  secrets: { name: string; lanes: string[] }[];
};

/** For every lane something names, what names it (`*`, every lane, names none). */
const usageOf = ({ workflows, connectors, secrets }: Namers): Map<string, LaneUsage> => {
  const usage = new Map<string, LaneUsage>();
  const of = (lane: string) => usage.get(lane) ?? usage.set(lane, unused()).get(lane)!;
  for (const w of workflows) of(w.lane).workflows.push(w.name);
  for (const c of connectors) {
    const rules =
      c.toolAllow !== null && typeof c.toolAllow === "object" && !Array.isArray(c.toolAllow)
        ? Object.keys(c.toolAllow)
        : [];
    for (const lane of new Set([...c.lanes, ...rules])) of(lane).connectors.push(c.slug);
  }
  for (const s of secrets) for (const lane of new Set(s.lanes)) of(lane).secrets.push(s.name);
  return usage;
};

/** What names the team's lanes, read in a transaction (removing a lane checks it there). */
const laneUsage = async (
  db: PrismaClientOrTransaction,
  teamId: string,
): Promise<Map<string, LaneUsage>> => {
  // One after another: inside a transaction the queries share one connection.
  const workflows = await db.workflow.findMany({
    where: { teamId, archivedAt: null },
    select: { name: true, lane: true },
    orderBy: { name: "asc" },
  });
  const connectors = await db.connector.findMany({
    where: { teamId },
    select: { slug: true, lanes: true, toolAllow: true },
    orderBy: { slug: "asc" },
  });
  const secrets = await db.teamVariable.findMany({
    where: { teamId, secret: true },
    select: { name: true, lanes: true },
    orderBy: { name: "asc" },
  });
  return usageOf({ workflows, connectors, secrets });
};

/**
 * A lane's stored approval rules, each checked again: a rule that no longer passes is an
 * error naming the lane and the rule, never dropped (a dropped rule would let calls through).
 */
const rulesOf = (lane: string, stored: Prisma.JsonValue): ApprovalRule[] => {
  const list = Array.isArray(stored) ? stored : [];
  return list.map((value, i) => {
    const checked = checkApprovalRule(value);
    if (checked.ok) return checked.rule;
    throw new AppError(
      "USER.APPROVAL.RULE_INVALID",
      `lane "${lane}" has an approval rule ${i + 1} that is not valid: ${checked.message}`,
      { location: { path: `approvalRules[${i}]${checked.field ? `.${checked.field}` : ""}` } },
    );
  });
};

const withRules = <R extends { name: string; approvalRules: Prisma.JsonValue }>(row: R) => ({
  ...row,
  approvalRules: rulesOf(row.name, row.approvalRules),
});

type LaneRow = LaneFields & { name: string; approvalRules: Prisma.JsonValue; createdAt: Date };

/** What names a lane, as one statement: `kind` w (workflow), c (connector) or s (secret). */
const NAMERS = `SELECT 'w' AS kind, name, ARRAY[lane] AS lanes, NULL::jsonb AS "toolAllow"
       FROM "Workflow" WHERE "teamId" = $1 AND "archivedAt" IS NULL
     UNION ALL SELECT 'c', slug, lanes, "toolAllow" FROM "Connector" WHERE "teamId" = $1
     UNION ALL SELECT 's', name, lanes, NULL FROM "TeamVariable" WHERE "teamId" = $1 AND secret
     ORDER BY 1, 2`;

/**
 * The team's lanes, by name, each with what names it. Every page of the dashboard and the
 * REST API's smallest route read it, so it is two plain statements side by side on the
 * pool (rawQuery), not Prisma's five.
 */
export const listLanes = async (db: Db, teamId: string) => {
  const [rows, namers] = await Promise.all([
    rawQuery<LaneRow>(
      db,
      `SELECT name, description, "saveRoles"::text[] AS "saveRoles", "startRoles"::text[] AS "startRoles", "approvalRules",
         "createdAt" AT TIME ZONE 'UTC' AS "createdAt"
       FROM "Lane" WHERE "teamId" = $1 ORDER BY name`,
      [teamId],
    ),
    rawQuery<{ kind: "w" | "c" | "s"; name: string; lanes: string[]; toolAllow: Prisma.JsonValue }>(
      db,
      NAMERS,
      [teamId],
    ),
  ]);
  const usage = usageOf({
    workflows: namers
      .filter((n) => n.kind === "w")
      .map((n) => ({ name: n.name, lane: n.lanes[0]! })),
    connectors: namers
      .filter((n) => n.kind === "c")
      .map((n) => ({ slug: n.name, lanes: n.lanes, toolAllow: n.toolAllow })),
    secrets: namers.filter((n) => n.kind === "s"),
  });
  return rows.map((row) => ({ ...withRules(row), usedBy: usage.get(row.name) ?? unused() }));
};

/**
 * The tool calls of a lane's runs that wait for approval, for the worker at step start and
 * for validation at save; a lane the team does not have has none.
 */
export const laneApprovalRules = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  lane: string,
): Promise<ApprovalRule[]> => {
  const row = await db.lane.findUnique({
    where: { teamId_name: { teamId, name: lane } },
    select: { approvalRules: true },
  });
  return row ? rulesOf(lane, row.approvalRules) : [];
};

/**
 * Replaces a lane's approval rules (already checked by the caller) and answers the ones it
 * had, for the audit entry. NOT_FOUND for a lane the team does not have. Run it in a
 * transaction.
 */
export const setLaneApprovalRules = async (
  tx: PrismaClientOrTransaction,
  input: { teamId: string; name: string; rules: ApprovalRule[] },
): Promise<{ before: ApprovalRule[]; rules: ApprovalRule[] }> => {
  const existing = await tx.lane.findUnique({
    where: { teamId_name: { teamId: input.teamId, name: input.name } },
    select: { id: true, approvalRules: true },
  });
  if (!existing) throw notFound(input.name);
  const updated = await tx.lane.update({
    where: { id: existing.id },
    data: { approvalRules: input.rules },
    select: { approvalRules: true },
  });
  return {
    before: Array.isArray(existing.approvalRules) ? (existing.approvalRules as ApprovalRule[]) : [],
    rules: rulesOf(input.name, updated.approvalRules),
  };
};

/** Adds a lane; CONFLICT when the team has one of that name, past `max` a validation error. Run it in a transaction. */
export const createLane = async (
  tx: PrismaClientOrTransaction,
  input: LaneFields & { teamId: string; name: string; max: number },
) => {
  const { teamId, name, max, ...fields } = input;
  if ((await tx.lane.count({ where: { teamId } })) >= max)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `a team has at most ${max} lanes: remove one first`,
    );
  if (await tx.lane.findUnique({ where: { teamId_name: { teamId, name } }, select: { id: true } }))
    throw new AppError("CONFLICT", `the team already has a lane "${name}"`, {
      location: { path: "name" },
    });
  return withRules(
    await tx.lane.create({ data: { teamId, name, ...fields }, select: laneColumns }),
  );
};

/** Changes a lane's description and roles; its name stays. Run it in a transaction. */
export const updateLane = async (
  tx: PrismaClientOrTransaction,
  input: LaneFields & { teamId: string; name: string },
) => {
  const { teamId, name, ...fields } = input;
  const existing = await tx.lane.findUnique({
    where: { teamId_name: { teamId, name } },
    select: { id: true },
  });
  if (!existing) throw notFound(name);
  return withRules(
    await tx.lane.update({ where: { id: existing.id }, data: fields, select: laneColumns }),
  );
};

const listed = (what: string, names: string[]) =>
  names.length === 0 ? [] : [`${what} ${names.map((n) => `"${n}"`).join(", ")}`];

/** Removes a lane nothing names; CONFLICT naming what still does. Run it in a transaction. */
export const removeLane = async (
  tx: PrismaClientOrTransaction,
  input: { teamId: string; name: string },
) => {
  const existing = await tx.lane.findUnique({
    where: { teamId_name: { teamId: input.teamId, name: input.name } },
    select: { id: true },
  });
  if (!existing) throw notFound(input.name);
  const used = (await laneUsage(tx, input.teamId)).get(input.name) ?? unused();
  const users = [
    ...listed("workflows", used.workflows),
    ...listed("connectors", used.connectors),
    ...listed("secrets", used.secrets),
  ];
  if (users.length > 0)
    throw new AppError(
      "CONFLICT",
      `lane "${input.name}" is still named by ${users.join("; ")}: move them to another lane first`,
      { details: { usedBy: used } },
    );
  await tx.lane.delete({ where: { id: existing.id } });
};
