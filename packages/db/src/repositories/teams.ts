/**
 * Teams: a new one starts with its maker as owner and the two built-in lanes (`default`
 * for members, `operator` for owners and admins), the same lanes the seed gives the demo team.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { recordAudit } from "./audit-log";

const BUILT_IN_LANES = [
  {
    name: "default",
    saveRoles: ["owner", "admin", "member"],
    startRoles: ["owner", "admin", "member"],
  },
  { name: "operator", saveRoles: ["owner", "admin"], startRoles: ["owner", "admin"] },
] as const;

/** Creates the built-in lanes a team lacks; leaves existing ones as they are. */
export const ensureBuiltInLanes = async (db: PrismaClientOrTransaction, teamId: string) => {
  for (const lane of BUILT_IN_LANES) {
    await db.lane.upsert({
      where: { teamId_name: { teamId, name: lane.name } },
      create: {
        teamId,
        name: lane.name,
        saveRoles: [...lane.saveRoles],
        startRoles: [...lane.startRoles],
      },
      update: {},
    });
  }
};

const slugOf = (name: string) => {
  const base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `${base || "team"}-${randomBytes(3).toString("hex")}`;
};

/** A new team owned by `ownerId`, its lanes and the `team.create` audit entry, in one transaction. */
export const createTeamWithOwner = (db: Db, input: { name: string; ownerId: string }) =>
  db.$transaction(async (tx) => {
    const team = await tx.team.create({ data: { name: input.name, slug: slugOf(input.name) } });
    await tx.membership.create({ data: { teamId: team.id, userId: input.ownerId, role: "owner" } });
    await ensureBuiltInLanes(tx, team.id);
    await recordAudit(tx, {
      teamId: team.id,
      actorUserId: input.ownerId,
      action: "team.create",
      targetType: "team",
      targetId: team.id,
    });
    return team;
  });

/** What a team's admins set: its name, and how many of its runs may run at once (null: no limit of its own). */
type TeamSettings = { name: string; maxConcurrentRuns: number | null };

/** The team's name and run limit. */
export const teamSettingsOf = (
  db: PrismaClientOrTransaction,
  teamId: string,
): Promise<TeamSettings> =>
  db.team.findUniqueOrThrow({
    where: { id: teamId },
    select: { name: true, maxConcurrentRuns: true },
  });

/** Changes what `patch` names, with its `team.update` audit entry (the fields changed, from and to), in one transaction. */
export const updateTeamSettings = (
  db: Db,
  teamId: string,
  actorUserId: string,
  patch: Partial<TeamSettings>,
) =>
  db.$transaction(async (tx) => {
    const before = await teamSettingsOf(tx, teamId);
    const after = await tx.team.update({
      where: { id: teamId },
      data: patch,
      select: { name: true, maxConcurrentRuns: true },
    });
    const changed = (Object.keys(patch) as (keyof TeamSettings)[]).filter(
      (k) => before[k] !== after[k],
    );
    if (changed.length > 0) {
      await recordAudit(tx, {
        teamId,
        actorUserId,
        action: "team.update",
        targetType: "team",
        targetId: teamId,
        metadata: Object.fromEntries(changed.map((k) => [k, { from: before[k], to: after[k] }])),
      });
    }
    return after;
  });
