/**
 * API tokens: shown once at creation, stored only as a SHA-256 of the whole token, scoped
 * to one member of one team (the token acts with that member's role), revocable.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../client";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

export const createApiToken = async (db: Db, input: { teamId: string; userId: string; name: string; expiresAt?: Date }) => {
  const prefix = randomBytes(4).toString("hex");
  const token = `sy_${prefix}_${randomBytes(32).toString("base64url")}`;
  const row = await db.apiToken.create({
    data: { teamId: input.teamId, userId: input.userId, name: input.name, prefix, tokenHash: hash(token), scopes: ["api"], expiresAt: input.expiresAt },
  });
  return { id: row.id, token, prefix };
};

export const listApiTokens = (db: Db, teamId: string, userId: string) =>
  db.apiToken.findMany({
    where: { teamId, userId, revokedAt: null },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, expiresAt: true },
    orderBy: { createdAt: "desc" },
  });

export const revokeApiToken = (db: Db, teamId: string, userId: string, id: string) =>
  db.apiToken.updateMany({ where: { id, teamId, userId, revokedAt: null }, data: { revokedAt: new Date() } });

/** The member a bearer token acts as, or undefined for an unknown, revoked or expired one. */
export const authenticateApiToken = async (db: Db, token: string) => {
  if (!/^sy_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const row = await db.apiToken.findUnique({ where: { tokenHash: hash(token) }, include: { team: true } });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt < new Date())) return undefined;
  const membership = await db.membership.findUnique({ where: { teamId_userId: { teamId: row.teamId, userId: row.userId } } });
  if (!membership) return undefined;
  await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  return { tokenId: row.id, teamId: row.teamId, team: row.team, userId: row.userId, role: membership.role };
};
