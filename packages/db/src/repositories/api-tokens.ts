/**
 * API tokens: shown once at creation, stored only as a SHA-256 of the whole token, scoped
 * to one member of one team, revocable, optionally expiring. A token may carry a role, the
 * most it may do; it acts with the lower of that role and its owner's role at the time of
 * each call, so demoting the owner demotes their tokens. Each
 * lists the member who made it. Creating and revoking from the product are audited, each in
 * the same transaction as its audit entry.
 */
import { createHash, randomBytes } from "node:crypto";
import { roleAtLeast } from "@switchyard/core/policy";
import { rawQuery, type Db } from "../client";
import type { Role } from "../generated/prisma/client";
import type { PrismaClientOrTransaction } from "../transaction";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

type NewToken = { teamId: string; userId: string; name: string; expiresAt?: Date; role?: Role };

export const createApiToken = async (db: PrismaClientOrTransaction, input: NewToken) => {
  const prefix = randomBytes(4).toString("hex");
  const token = `sy_${prefix}_${randomBytes(32).toString("base64url")}`;
  const row = await db.apiToken.create({
    data: {
      teamId: input.teamId,
      userId: input.userId,
      name: input.name,
      prefix,
      tokenHash: hash(token),
      scopes: ["api"],
      expiresAt: input.expiresAt,
      role: input.role ?? null,
    },
  });
  return { id: row.id, token, prefix, role: row.role, expiresAt: row.expiresAt };
};

/** The team's live tokens, or only those `userId` made, each with who made it. */
export const listApiTokens = (db: Db, teamId: string, options: { userId?: string } = {}) =>
  db.apiToken.findMany({
    where: { teamId, userId: options.userId, revokedAt: null },
    select: {
      id: true,
      name: true,
      prefix: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      role: true,
      user: { select: { id: true, name: true, email: true } },
    },
    orderBy: { createdAt: "desc" },
  });

/** A live token of the team, with the member who made it; undefined when there is none. */
export const findApiToken = async (db: Db, teamId: string, id: string) =>
  (await db.apiToken.findFirst({ where: { id, teamId, revokedAt: null }, select: { id: true, userId: true, prefix: true } })) ?? undefined;

/** Revokes a live token of the team; false when there was none to revoke. */
export const revokeApiToken = async (db: PrismaClientOrTransaction, teamId: string, id: string) =>
  (await db.apiToken.updateMany({ where: { id, teamId, revokedAt: null }, data: { revokedAt: new Date() } })).count === 1;

const lowerRole = (a: Role, b: Role) => (roleAtLeast(a, b) ? b : a);

/** The member a bearer token acts as, or undefined for an unknown, revoked or expired one. */
const LAST_USED_GRAIN_MS = 60_000;

type TokenCaller = { id: string; teamId: string; userId: string; tokenRole: Role | null; memberRole: Role; slug: string; name: string; stale: boolean };

/**
 * The caller a REST request's token stands for: live (not revoked, not expired), its owner
 * still a member, with the lower of the token's role and the owner's. One statement on the
 * pool (this runs on every REST request); times are compared in SQL, where Prisma keeps them (UTC).
 */
export const authenticateApiToken = async (db: Db, token: string) => {
  if (!/^sy_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const [row] = await rawQuery<TokenCaller>(
    db,
    `SELECT t.id, t."teamId", t."userId", t.role::text AS "tokenRole", m.role::text AS "memberRole", tm.slug, tm.name,
            (t."lastUsedAt" IS NULL OR t."lastUsedAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => $2)) AS stale
     FROM "ApiToken" t
     JOIN "Membership" m ON m."teamId" = t."teamId" AND m."userId" = t."userId"
     JOIN "Team" tm ON tm.id = t."teamId"
     WHERE t."tokenHash" = $1 AND t."revokedAt" IS NULL AND (t."expiresAt" IS NULL OR t."expiresAt" > (now() AT TIME ZONE 'UTC'))`,
    [hash(token), LAST_USED_GRAIN_MS / 1000],
  );
  if (!row) return undefined;
  // When it was last used, to the minute: not a write on every request.
  if (row.stale) await rawQuery(db, `UPDATE "ApiToken" SET "lastUsedAt" = $2::timestamp(3) WHERE id = $1`, [row.id, new Date().toISOString()]);
  return {
    tokenId: row.id,
    teamId: row.teamId,
    team: { id: row.teamId, slug: row.slug, name: row.name },
    userId: row.userId,
    role: lowerRole(row.tokenRole ?? row.memberRole, row.memberRole),
  };
};

/** Creates a token for its maker and the `api_token.create` audit entry, in one transaction. */
export const createAuditedApiToken = (db: Db, input: NewToken) =>
  db.$transaction(async (tx) => {
    const created = await createApiToken(tx, input);
    await tx.auditLog.create({
      data: { teamId: input.teamId, actorUserId: input.userId, action: "api_token.create", targetType: "api_token", targetId: created.id, metadata: { prefix: created.prefix, role: created.role } },
    });
    return created;
  });

/**
 * Revokes a live token of the team and writes the `api_token.revoke` audit entry, in one
 * transaction; false (and nothing written) when there was none to revoke.
 */
export const revokeAuditedApiToken = (
  db: Db,
  input: { teamId: string; actorUserId: string; token: { id: string; prefix: string; userId: string } },
) =>
  db.$transaction(async (tx) => {
    if (!(await revokeApiToken(tx, input.teamId, input.token.id))) return false;
    await tx.auditLog.create({
      data: {
        teamId: input.teamId,
        actorUserId: input.actorUserId,
        action: "api_token.revoke",
        targetType: "api_token",
        targetId: input.token.id,
        metadata: { prefix: input.token.prefix, ownerId: input.token.userId },
      },
    });
    return true;
  });
