/**
 * A team's members as its admins manage them: the list, a role change, a removal and
 * leaving. A team always keeps an owner: the owners' rows are locked while a change that
 * could take the last one away is checked, so two such changes at once cannot both pass.
 * Each change and its audit entry commit together.
 */
import { AppError } from "@switchyard/core/errors";
import type { Db } from "../client";
import type { Prisma, Role } from "../generated/prisma/client";
import { revokeApiTokens } from "./api-tokens";
import { recordAudit } from "./audit-log";

/** The team's members with their names and emails, owners first, then by when they joined. */
export const listTeamMembers = async (db: Db, teamId: string) =>
  (
    await db.membership.findMany({
      where: { teamId },
      select: {
        role: true,
        createdAt: true,
        user: { select: { id: true, name: true, email: true } },
      },
      orderBy: { createdAt: "asc" },
    })
  ).map((m) => ({
    userId: m.user.id,
    name: m.user.name,
    email: m.user.email,
    role: m.role,
    joinedAt: m.createdAt,
  }));

/** Locks the team's owner rows for the transaction and says how many there are. */
const lockOwners = async (tx: Prisma.TransactionClient, teamId: string) =>
  (
    await tx.$queryRaw<
      { id: string }[]
    >`SELECT id FROM "Membership" WHERE "teamId" = ${teamId} AND role = 'owner' FOR UPDATE`
  ).length;

const memberOf = async (tx: Prisma.TransactionClient, teamId: string, userId: string) => {
  const membership = await tx.membership.findUnique({
    where: { teamId_userId: { teamId, userId } },
  });
  if (!membership) throw new AppError("NOT_FOUND", "no such member of this team");
  return membership;
};

const LAST_OWNER = "a team keeps at least one owner: make someone else owner first";

/**
 * Gives a member a new role. `allow` sees the member's current role inside the transaction
 * and throws to refuse (the actor's own rights); the last owner is never demoted.
 */
export const changeMemberRole = (
  db: Db,
  input: {
    teamId: string;
    actorUserId: string;
    userId: string;
    role: Role;
    allow: (current: Role) => void;
  },
) =>
  db.$transaction(async (tx) => {
    const owners = await lockOwners(tx, input.teamId);
    const membership = await memberOf(tx, input.teamId, input.userId);
    input.allow(membership.role);
    if (membership.role === "owner" && input.role !== "owner" && owners <= 1)
      throw new AppError("CONFLICT", LAST_OWNER);
    await tx.membership.update({ where: { id: membership.id }, data: { role: input.role } });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "member.role",
      targetType: "user",
      targetId: input.userId,
      metadata: { from: membership.role, to: input.role },
    });
    return { userId: input.userId, role: input.role };
  });

/**
 * Takes a member out of the team (`member.remove`, or `member.leave` when they leave
 * themselves); the last owner stays. Their sessions in the team end at their next request
 * (a session checks its membership on every use), and their API tokens for the team are
 * revoked as `member_removed` in the same transaction (a token also works only under the
 * membership it was made under, so inviting the person back brings none of them back).
 */
export const removeTeamMember = (
  db: Db,
  input: { teamId: string; actorUserId: string; userId: string; allow: (current: Role) => void },
) =>
  db.$transaction(async (tx) => {
    const owners = await lockOwners(tx, input.teamId);
    const membership = await memberOf(tx, input.teamId, input.userId);
    input.allow(membership.role);
    if (membership.role === "owner" && owners <= 1) throw new AppError("CONFLICT", LAST_OWNER);
    const tokens = await revokeApiTokens(
      tx,
      { teamId: input.teamId, userId: input.userId },
      "member_removed",
    );
    await tx.membership.delete({ where: { id: membership.id } });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: input.actorUserId === input.userId ? "member.leave" : "member.remove",
      targetType: "user",
      targetId: input.userId,
      metadata: { role: membership.role, tokensRevoked: tokens.count },
    });
    return { userId: input.userId };
  });
