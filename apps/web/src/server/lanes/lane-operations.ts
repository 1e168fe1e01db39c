/**
 * The team's lanes, for the dashboard's procedures and the REST API alike. Every member
 * lists them with what names each; admins add lanes, change who may save and start in
 * them, and remove them. `default` and `operator` are the product's own (workflows and
 * connectors fall back to them) and stay; `operator` stays owners' and admins' alone, as
 * the design reserves it. A lane something still names is not removed. Admins set which
 * tool calls of a lane's runs wait for a person's approval, each rule checked as a workflow's
 * `mcp_proxy.approve` entries are. Each change commits with its audit entry.
 */
import type { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { checkApprovalRule, describeRule, type ApprovalRule } from "@switchyard/core/governance";
import {
  createLane,
  listLanes,
  recordAudit,
  removeLane,
  setLaneApprovalRules,
  updateLane,
  type Db,
  type PrismaClientOrTransaction,
  type Role,
} from "@switchyard/db";
import type {
  createLaneBody,
  laneListing,
  setApprovalRulesInput,
  updateLaneBody,
} from "../contract/lanes.types";
import { requireRole } from "../trpc/init";

export type LaneActor = { teamId: string; userId: string; role: Role };
type Listing = z.infer<typeof laneListing>;

const BUILT_IN = new Set(["default", "operator"]);
const OPERATOR = "operator";
const ROLE_ORDER: readonly Role[] = ["owner", "admin", "member", "viewer"];
const OPERATOR_ROLES: readonly Role[] = ["owner", "admin"];
const MAX_LANES_PER_TEAM = 64;

/** Roles once each, highest first. */
const rolesOf = (roles: readonly Role[]) => ROLE_ORDER.filter((r) => roles.includes(r));

const checkOperatorRoles = (name: string, fields: { saveRoles: Role[]; startRoles: Role[] }) => {
  if (name !== OPERATOR) return;
  for (const key of ["saveRoles", "startRoles"] as const) {
    if (rolesOf(fields[key]).join() !== OPERATOR_ROLES.join())
      throw new AppError(
        "BAD_REQUEST",
        `the operator lane is for owners and admins only: its ${key} stay owner and admin`,
        { location: { path: key } },
      );
  }
};

const listingOf = (
  row: Omit<Listing, "builtIn" | "usedBy">,
  usedBy: Listing["usedBy"],
): Listing => ({
  ...row,
  saveRoles: rolesOf(row.saveRoles),
  startRoles: rolesOf(row.startRoles),
  builtIn: BUILT_IN.has(row.name),
  usedBy,
});

const audit = (
  tx: PrismaClientOrTransaction,
  actor: LaneActor,
  action: string,
  name: string,
  roles?: { saveRoles: Role[]; startRoles: Role[] },
) =>
  recordAudit(tx, {
    teamId: actor.teamId,
    actorUserId: actor.userId,
    action,
    targetType: "lane",
    targetId: name,
    metadata: roles
      ? { saveRoles: roles.saveRoles.join(","), startRoles: roles.startRoles.join(",") }
      : {},
  });

export const listTeamLanes = async (db: Db, actor: LaneActor): Promise<Listing[]> =>
  (await listLanes(db, actor.teamId)).map(({ usedBy, ...row }) => listingOf(row, usedBy));

const listingNamed = async (db: Db, actor: LaneActor, name: string) => {
  const found = (await listTeamLanes(db, actor)).find((l) => l.name === name);
  if (!found) throw new AppError("NOT_FOUND", `lane "${name}" does not exist in this team`);
  return found;
};

export const createTeamLane = async (
  db: Db,
  actor: LaneActor,
  input: z.output<typeof createLaneBody>,
) => {
  requireRole("admin", actor.role);
  const fields = {
    description: input.description,
    saveRoles: rolesOf(input.saveRoles),
    startRoles: rolesOf(input.startRoles),
  };
  checkOperatorRoles(input.name, fields);
  await db.$transaction(async (tx) => {
    await createLane(tx, {
      teamId: actor.teamId,
      name: input.name,
      max: MAX_LANES_PER_TEAM,
      ...fields,
    });
    await audit(tx, actor, "lane.create", input.name, fields);
  });
  return listingNamed(db, actor, input.name);
};

export const updateTeamLane = async (
  db: Db,
  actor: LaneActor,
  input: z.output<typeof updateLaneBody> & { name: string },
) => {
  requireRole("admin", actor.role);
  const fields = {
    description: input.description,
    saveRoles: rolesOf(input.saveRoles),
    startRoles: rolesOf(input.startRoles),
  };
  checkOperatorRoles(input.name, fields);
  await db.$transaction(async (tx) => {
    await updateLane(tx, { teamId: actor.teamId, name: input.name, ...fields });
    await audit(tx, actor, "lane.update", input.name, fields);
  });
  return listingNamed(db, actor, input.name);
};

export const removeTeamLane = async (db: Db, actor: LaneActor, input: { name: string }) => {
  requireRole("admin", actor.role);
  if (BUILT_IN.has(input.name))
    throw new AppError(
      "CONFLICT",
      `lane "${input.name}" is built in: workflows and connectors fall back to it, so it stays`,
    );
  await db.$transaction(async (tx) => {
    await removeLane(tx, { teamId: actor.teamId, name: input.name });
    await audit(tx, actor, "lane.remove", input.name);
  });
  return { name: input.name };
};

/** Each rule checked; the first bad one named by its index and field, every problem in details. */
const checkedRules = (rules: readonly unknown[]): ApprovalRule[] => {
  const checks = rules.map(checkApprovalRule);
  const problems = checks.flatMap((c, index) =>
    c.ok ? [] : [{ index, field: c.field ?? null, message: c.message }],
  );
  const [first] = problems;
  if (first)
    throw new AppError("USER.APPROVAL.RULE_INVALID", `rule ${first.index + 1}: ${first.message}`, {
      location: { path: `rules[${first.index}]${first.field ? `.${first.field}` : ""}` },
      details: { problems },
    });
  return checks.flatMap((c) => (c.ok ? [c.rule] : []));
};

const described = (rules: readonly ApprovalRule[]) => rules.map(describeRule).join("; ");

export const teamLaneApprovalRules = async (db: Db, actor: LaneActor, input: { name: string }) => ({
  lane: input.name,
  rules: (await listingNamed(db, actor, input.name)).approvalRules,
});

export const setTeamLaneApprovalRules = async (
  db: Db,
  actor: LaneActor,
  input: z.output<typeof setApprovalRulesInput>,
) => {
  requireRole("admin", actor.role);
  const rules = checkedRules(input.rules);
  const stored = await db.$transaction(async (tx) => {
    const result = await setLaneApprovalRules(tx, {
      teamId: actor.teamId,
      name: input.name,
      rules,
    });
    await recordAudit(tx, {
      teamId: actor.teamId,
      actorUserId: actor.userId,
      action: "lane.approval_rules.set",
      targetType: "lane",
      targetId: input.name,
      metadata: { before: described(result.before), after: described(result.rules) },
    });
    return result.rules;
  });
  return { lane: input.name, rules: stored };
};
