/**
 * One-time password reset links an admin issues for a member. The link's token is shown
 * (or mailed) once; only its SHA-256 is stored. It works for an hour, once: setting the new
 * password marks it used and moves the user's session version on, which ends every session
 * signed in before, in one transaction.
 */
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import type { Db } from "../client";
import { recordAudit } from "./audit-log";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
const TOKEN_SHAPE = /^pwr_[A-Za-z0-9_-]{43}$/;
const LIFETIME_MS = 60 * 60 * 1000;

/** A reset link for `userId` and its `password_reset.create` audit entry; the token is in this answer only. */
export const createPasswordReset = (db: Db, input: { teamId: string; userId: string; createdById: string }) =>
  db.$transaction(async (tx) => {
    const token = `pwr_${randomBytes(32).toString("base64url")}`;
    const row = await tx.passwordReset.create({
      data: { teamId: input.teamId, userId: input.userId, createdById: input.createdById, tokenHash: hash(token), expiresAt: new Date(Date.now() + LIFETIME_MS) },
    });
    await recordAudit(tx, { teamId: input.teamId, actorUserId: input.createdById, action: "password_reset.create", targetType: "user", targetId: input.userId });
    return { id: row.id, token, expiresAt: row.expiresAt };
  });

const NO_SUCH = () => new AppError("NOT_FOUND", "this reset link is not valid; check that you copied all of it");

const usable = (row: { usedAt: Date | null; expiresAt: Date }) => {
  if (row.usedAt) throw new AppError("USER.LINK.UNUSABLE", "this reset link was already used; ask an admin for a new one", { details: { reason: "used" } });
  if (row.expiresAt <= new Date()) throw new AppError("USER.LINK.UNUSABLE", "this reset link has expired; ask an admin for a new one", { details: { reason: "expired" } });
};

/** Whose password a link resets (for its page); throws for an unknown, used or expired link. */
export const describePasswordReset = async (db: Db, token: string) => {
  if (!TOKEN_SHAPE.test(token)) throw NO_SUCH();
  const row = await db.passwordReset.findUnique({ where: { tokenHash: hash(token) }, include: { user: { select: { email: true, name: true } } } });
  if (!row) throw NO_SUCH();
  usable(row);
  return { email: row.user.email, name: row.user.name, expiresAt: row.expiresAt };
};

/** Uses the link: the new password (hashed by the caller), the link's use and the end of old sessions commit together. */
export const usePasswordReset = (db: Db, input: { token: string; passwordHash: string }) =>
  db.$transaction(async (tx) => {
    if (!TOKEN_SHAPE.test(input.token)) throw NO_SUCH();
    const row = await tx.passwordReset.findUnique({ where: { tokenHash: hash(input.token) } });
    if (!row) throw NO_SUCH();
    usable(row);
    const { count } = await tx.passwordReset.updateMany({ where: { id: row.id, usedAt: null, expiresAt: { gt: new Date() } }, data: { usedAt: new Date() } });
    if (count !== 1) throw new AppError("USER.LINK.UNUSABLE", "this reset link was just used; ask an admin for a new one", { details: { reason: "used" } });
    const user = await tx.user.update({ where: { id: row.userId }, data: { passwordHash: input.passwordHash, sessionVersion: { increment: 1 } }, select: { email: true } });
    await recordAudit(tx, { teamId: row.teamId, actorUserId: row.userId, action: "password_reset.use", targetType: "user", targetId: row.userId });
    return { email: user.email };
  });
