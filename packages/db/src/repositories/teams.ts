/**
 * Teams: a new one starts with its maker as owner and the two built-in lanes (`default`
 * for members, `operator` for owners and admins), the same lanes the seed gives the demo team.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { recordAudit } from "./audit-log";

const BUILT_IN_LANES = [
  { name: "default", saveRoles: ["owner", "admin", "member"], startRoles: ["owner", "admin", "member"] },
  { name: "operator", saveRoles: ["owner", "admin"], startRoles: ["owner", "admin"] },
] as const;

/** Creates the built-in lanes a team lacks; leaves existing ones as they are. */
export const ensureBuiltInLanes = async (db: PrismaClientOrTransaction, teamId: string) => {
  for (const lane of BUILT_IN_LANES) {
    await db.lane.upsert({
      where: { teamId_name: { teamId, name: lane.name } },
      create: { teamId, name: lane.name, saveRoles: [...lane.saveRoles], startRoles: [...lane.startRoles] },
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
    await recordAudit(tx, { teamId: team.id, actorUserId: input.ownerId, action: "team.create", targetType: "team", targetId: team.id });
    return team;
  });
