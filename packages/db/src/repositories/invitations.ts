/**
 * Invitations to a team by link. The link's token is shown once, to the admin who made
 * it; only its SHA-256 is stored. Accepting creates the membership and marks the
 * invitation used in one transaction, so a link admits one person once. A visitor without
 * an account signs up through the link, in the same transaction as the acceptance.
 */
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import type { Db } from "../client";
import type { Prisma, Role } from "../generated/prisma/client";
import { recordAudit } from "./audit-log";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
const TOKEN_SHAPE = /^inv_[A-Za-z0-9_-]{43}$/;

/** Makes an invitation and its `invitation.create` audit entry; the token is in this answer only. */
export const createInvitation = (
  db: Db,
  input: { teamId: string; createdById: string; role: Role; email?: string; expiresAt: Date },
) =>
  db.$transaction(async (tx) => {
    const token = `inv_${randomBytes(32).toString("base64url")}`;
    const row = await tx.invitation.create({
      data: {
        teamId: input.teamId,
        role: input.role,
        email: input.email?.toLowerCase() ?? null,
        tokenHash: hash(token),
        createdById: input.createdById,
        expiresAt: input.expiresAt,
      },
    });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.createdById,
      action: "invitation.create",
      targetType: "invitation",
      targetId: row.id,
      metadata: { role: input.role, email: row.email },
    });
    return {
      id: row.id,
      token,
      role: row.role,
      email: row.email,
      expiresAt: row.expiresAt,
      createdAt: row.createdAt,
    };
  });

/** The team's invitations nobody accepted, revoked or let expire, newest first. */
export const listPendingInvitations = (db: Db, teamId: string) =>
  db.invitation.findMany({
    where: { teamId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true, role: true, email: true, expiresAt: true, createdAt: true },
    orderBy: { createdAt: "desc" },
  });

/** Revokes a pending invitation of the team with its audit entry; false when there was none. */
export const revokeInvitation = (
  db: Db,
  input: { teamId: string; actorUserId: string; id: string },
) =>
  db.$transaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({
      where: { id: input.id, teamId: input.teamId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count !== 1) return false;
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "invitation.revoke",
      targetType: "invitation",
      targetId: input.id,
    });
    return true;
  });

type InvitationRow = { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date };

const unusable = (row: InvitationRow) => {
  if (row.acceptedAt)
    return new AppError(
      "USER.LINK.UNUSABLE",
      "this invitation was already used; ask for a new one",
      { details: { reason: "used" } },
    );
  if (row.revokedAt)
    return new AppError("USER.LINK.UNUSABLE", "this invitation was revoked; ask for a new one", {
      details: { reason: "revoked" },
    });
  if (row.expiresAt <= new Date())
    return new AppError("USER.LINK.UNUSABLE", "this invitation has expired; ask for a new one", {
      details: { reason: "expired" },
    });
  return undefined;
};

const NO_SUCH = () =>
  new AppError("NOT_FOUND", "this invitation link is not valid; check that you copied all of it");

const rowOf = async (db: Db | Prisma.TransactionClient, token: string) => {
  if (!TOKEN_SHAPE.test(token)) throw NO_SUCH();
  const row = await db.invitation.findUnique({
    where: { tokenHash: hash(token) },
    include: { team: { select: { id: true, name: true } } },
  });
  if (!row) throw NO_SUCH();
  return row;
};

/** What the invitation page shows: the team, the role and whom it is for; throws for an unknown or unusable link. */
export const describeInvitation = async (db: Db, token: string) => {
  const row = await rowOf(db, token);
  const refusal = unusable(row);
  if (refusal) throw refusal;
  return { team: row.team, role: row.role, email: row.email, expiresAt: row.expiresAt };
};

/** Who accepted the invitation a token names (null: nobody yet, or no such invitation). */
export const invitationAcceptedBy = async (db: Db, token: string) =>
  TOKEN_SHAPE.test(token)
    ? ((
        await db.invitation.findUnique({
          where: { tokenHash: hash(token) },
          select: { acceptedById: true },
        })
      )?.acceptedById ?? null)
    : null;

/** Inside a transaction: uses the invitation for `user`, making them a member (a first sign-in through an issuer, too). */
export const acceptInvitationIn = async (
  tx: Prisma.TransactionClient,
  token: string,
  user: { id: string; email: string },
) => {
  const row = await rowOf(tx, token);
  const refusal = unusable(row);
  if (refusal) throw refusal;
  if (row.email && row.email !== user.email.toLowerCase()) {
    throw new AppError(
      "FORBIDDEN",
      `this invitation is for ${row.email}; sign in with that account`,
    );
  }
  if (
    await tx.membership.findUnique({
      where: { teamId_userId: { teamId: row.teamId, userId: user.id } },
    })
  ) {
    throw new AppError("CONFLICT", `you are already a member of ${row.team.name}`);
  }
  // Compare-and-set: of two acceptances at once, one wins.
  const { count } = await tx.invitation.updateMany({
    where: { id: row.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    data: { acceptedAt: new Date(), acceptedById: user.id },
  });
  if (count !== 1)
    throw new AppError(
      "USER.LINK.UNUSABLE",
      "this invitation was just used or revoked; ask for a new one",
      { details: { reason: "used" } },
    );
  const membership = await tx.membership.create({
    data: { teamId: row.teamId, userId: user.id, role: row.role },
  });
  await recordAudit(tx, {
    teamId: row.teamId,
    actorUserId: user.id,
    action: "invitation.accept",
    targetType: "invitation",
    targetId: row.id,
    metadata: { role: row.role },
  });
  // A link bound to the user's email reached them there: the address is theirs.
  if (row.email)
    await tx.user.updateMany({
      where: { id: user.id, emailVerifiedAt: null },
      data: { emailVerifiedAt: new Date() },
    });
  return { teamId: row.teamId, teamName: row.team.name, role: membership.role };
};

/** A signed-in user accepts: the membership and the invitation's use commit together. */
export const acceptInvitation = (db: Db, input: { token: string; userId: string }) =>
  db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { id: input.userId },
      select: { id: true, email: true },
    });
    if (!user) throw new AppError("UNAUTHORIZED", "sign in first");
    return acceptInvitationIn(tx, input.token, user);
  });

/**
 * A visitor signs up through the link: the user, the membership and the invitation's use
 * commit together (an email that has an account already is refused: sign in instead). The
 * email is verified when the invitation was bound to it, and left unverified otherwise
 * (anyone holding an unbound link types the address they like).
 * `passwordHash` is hashed by the caller, outside the transaction.
 */
export const signUpWithInvitation = (
  db: Db,
  input: { token: string; name: string; email: string; passwordHash: string },
) =>
  db.$transaction(async (tx) => {
    const email = input.email.toLowerCase();
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) {
      throw new AppError(
        "CONFLICT",
        "an account with this email exists: sign in, then open the link again",
        { location: { path: "email" } },
      );
    }
    const user = await tx.user.create({
      data: { email, name: input.name, passwordHash: input.passwordHash },
      select: { id: true, email: true },
    });
    return { userId: user.id, ...(await acceptInvitationIn(tx, input.token, user)) };
  });
