/**
 * One-time password reset links. The link's token is mailed to the user's own address or
 * shown once to the instance admin who issued it; only its SHA-256 is stored. It works for
 * an hour, once: setting the new password marks it used and moves the user's session
 * version on, which ends every session signed in before, in one transaction.
 *
 * A reset link opens a window on the user's API tokens: from the first link issued since
 * the user last changed their password themselves (on the Account page, knowing the
 * current one), every token they make is revoked at the next password change, whether
 * that change goes through a link (this one or a newer one) or the Account page. So tokens
 * made by whoever used a link are gone once the owner takes the account back, even through
 * a newer link; a change on the Account page closes the window. A mailed link's use shows
 * the address is the user's: their email becomes verified, and an account whose address
 * was never verified is taken over by its owner (account-claim.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import type { Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { claimUnverifiedAccount } from "./account-claim";
import { revokeUserApiTokens } from "./api-tokens";
import { recordAudit } from "./audit-log";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
const TOKEN_SHAPE = /^pwr_[A-Za-z0-9_-]{43}$/;
const LIFETIME_MS = 60 * 60 * 1000;

/**
 * A reset link for `userId` and its `password_reset.create` audit entry (in the team's log,
 * or the installation's when `teamId` is null); the token is in this answer only.
 */
export const createPasswordReset = (
  db: Db,
  input: { teamId: string | null; userId: string; createdById: string; mailed: boolean },
) =>
  db.$transaction(async (tx) => {
    const token = `pwr_${randomBytes(32).toString("base64url")}`;
    const row = await tx.passwordReset.create({
      data: {
        teamId: input.teamId,
        userId: input.userId,
        createdById: input.createdById,
        mailed: input.mailed,
        tokenHash: hash(token),
        expiresAt: new Date(Date.now() + LIFETIME_MS),
      },
    });
    // The window on the user's tokens opens at the first link (a later one leaves it where it is).
    await tx.user.updateMany({
      where: { id: input.userId, resetSince: null },
      data: { resetSince: row.createdAt },
    });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.createdById,
      action: "password_reset.create",
      targetType: "user",
      targetId: input.userId,
      metadata: { mailed: input.mailed },
    });
    return { id: row.id, token, expiresAt: row.expiresAt };
  });

const NO_SUCH = () =>
  new AppError("NOT_FOUND", "this reset link is not valid; check that you copied all of it");

const usable = (row: { usedAt: Date | null; expiresAt: Date }) => {
  if (row.usedAt)
    throw new AppError(
      "USER.LINK.UNUSABLE",
      "this reset link was already used; ask for a new one",
      { details: { reason: "used" } },
    );
  if (row.expiresAt <= new Date())
    throw new AppError("USER.LINK.UNUSABLE", "this reset link has expired; ask for a new one", {
      details: { reason: "expired" },
    });
};

/** Whose password a link resets (for its page); throws for an unknown, used or expired link. */
export const describePasswordReset = async (db: Db, token: string) => {
  if (!TOKEN_SHAPE.test(token)) throw NO_SUCH();
  const row = await db.passwordReset.findUnique({
    where: { tokenHash: hash(token) },
    include: { user: { select: { email: true, name: true } } },
  });
  if (!row) throw NO_SUCH();
  usable(row);
  return { email: row.user.email, name: row.user.name, expiresAt: row.expiresAt };
};

/**
 * The end of a password: the new hash, every session ended, and the tokens made since the
 * window opened revoked (`password_changed`); the window then opens at `reopenAt` (a
 * link's issue, when the change went through one) or closes. How many tokens went.
 */
export const setPassword = async (
  tx: PrismaClientOrTransaction,
  input: { userId: string; passwordHash: string; reopenAt: Date | null; verifiesEmail?: boolean },
) => {
  const user = await tx.user.findUniqueOrThrow({
    where: { id: input.userId },
    select: { resetSince: true, emailVerifiedAt: true },
  });
  const tokensRevoked = user.resetSince
    ? await revokeUserApiTokens(tx, {
        userId: input.userId,
        since: user.resetSince,
        reason: "password_changed",
        actorUserId: input.userId,
      })
    : 0;
  const updated = await tx.user.update({
    where: { id: input.userId },
    data: {
      passwordHash: input.passwordHash,
      sessionVersion: { increment: 1 },
      resetSince: input.reopenAt,
      ...(input.verifiesEmail && !user.emailVerifiedAt ? { emailVerifiedAt: new Date() } : {}),
    },
    select: { email: true },
  });
  return { email: updated.email, tokensRevoked };
};

/** Uses the link: the new password (hashed by the caller), the link's use, the end of old sessions and tokens commit together. */
export const usePasswordReset = (db: Db, input: { token: string; passwordHash: string }) =>
  db.$transaction(async (tx) => {
    if (!TOKEN_SHAPE.test(input.token)) throw NO_SUCH();
    const row = await tx.passwordReset.findUnique({ where: { tokenHash: hash(input.token) } });
    if (!row) throw NO_SUCH();
    usable(row);
    const { count } = await tx.passwordReset.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: new Date() } },
      data: { usedAt: new Date() },
    });
    if (count !== 1)
      throw new AppError("USER.LINK.UNUSABLE", "this reset link was just used; ask for a new one", {
        details: { reason: "used" },
      });
    // A mailed link reached the address: on an account whose address was never verified, its owner takes it over.
    const owner = await tx.user.findUniqueOrThrow({
      where: { id: row.userId },
      select: { emailVerifiedAt: true },
    });
    if (row.mailed && owner.emailVerifiedAt === null)
      await claimUnverifiedAccount(tx, row.userId, { mailedResetLink: true });
    // Whoever used the link may not be the owner: the window stays open from this link's issue.
    const { email, tokensRevoked } = await setPassword(tx, {
      userId: row.userId,
      passwordHash: input.passwordHash,
      reopenAt: row.createdAt,
      verifiesEmail: row.mailed,
    });
    await recordAudit(tx, {
      teamId: row.teamId,
      actorUserId: row.userId,
      action: "password_reset.use",
      targetType: "user",
      targetId: row.userId,
      metadata: { tokensRevoked },
    });
    return { email };
  });
