/**
 * API tokens: shown once at creation, stored only as a SHA-256 of the whole token, scoped
 * to one member of one team and bound to the membership it was made under (a member
 * removed and invited back does not get their old tokens back), revocable, optionally
 * expiring. A token may carry a role, the most it may do; it acts with the lower of that
 * role and its owner's role at the time of each call, so demoting the owner demotes their
 * tokens. Each lists the member who made it, and the token it was made with when it was
 * made over the API. Creating and revoking from the product are audited, each in the same
 * transaction as its audit entry; revoking a token revokes every token made with it.
 */
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import { roleAtLeast } from "@switchyard/core/policy";
import { rawQuery, type Db } from "../client";
import type { Prisma, Role } from "../generated/prisma/client";
import type { PrismaClientOrTransaction } from "../transaction";
import { recordAudit } from "./audit-log";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Why a token stopped working: `revoked` by hand (revokedBy says who), `member_removed`
 * (its maker left the team or was removed), `maker_revoked` (the token it was made with
 * was revoked), `password_changed` (made after a reset link was issued for its maker,
 * whose password then changed), `account_claimed` (its maker's unverified account was
 * taken over by the verified owner of its email).
 */
export const TOKEN_REVOKED_REASONS = [
  "revoked",
  "member_removed",
  "maker_revoked",
  "password_changed",
  "account_claimed",
] as const;
type TokenRevokedReason = (typeof TOKEN_REVOKED_REASONS)[number];

type NewToken = {
  teamId: string;
  userId: string;
  name: string;
  expiresAt?: Date;
  role?: Role;
  madeWithId?: string;
};

/** A token for a member of the team, bound to their membership; refused for someone who is not a member. */
export const createApiToken = async (db: PrismaClientOrTransaction, input: NewToken) => {
  const membership = await db.membership.findUnique({
    where: { teamId_userId: { teamId: input.teamId, userId: input.userId } },
    select: { id: true },
  });
  if (!membership) throw new AppError("FORBIDDEN", "you are not a member of this team");
  const prefix = randomBytes(4).toString("hex");
  const token = `sy_${prefix}_${randomBytes(32).toString("base64url")}`;
  const row = await db.apiToken.create({
    data: {
      teamId: input.teamId,
      userId: input.userId,
      membershipId: membership.id,
      name: input.name,
      prefix,
      tokenHash: hash(token),
      scopes: ["api"],
      expiresAt: input.expiresAt,
      role: input.role ?? null,
      madeWithId: input.madeWithId ?? null,
    },
  });
  return { id: row.id, token, prefix, role: row.role, expiresAt: row.expiresAt };
};

/** How long a revoked token stays in the list. */
const REVOKED_LISTED_MS = 30 * 86_400_000;

const person = { select: { id: true, name: true, email: true } } as const;

/**
 * The team's tokens, or only those `userId` made, each with who made it: the live ones,
 * then those revoked in the last 30 days with when, why and (revoked by hand) by whom.
 */
export const listApiTokens = async (db: Db, teamId: string, options: { userId?: string } = {}) => {
  const rows = await db.apiToken.findMany({
    where: {
      teamId,
      userId: options.userId,
      OR: [{ revokedAt: null }, { revokedAt: { gt: new Date(Date.now() - REVOKED_LISTED_MS) } }],
    },
    select: {
      id: true,
      name: true,
      prefix: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      role: true,
      revokedAt: true,
      revokedReason: true,
      user: person,
      revokedBy: person,
      madeWith: { select: { id: true, name: true, prefix: true } },
    },
    orderBy: { createdAt: "desc" },
  });
  const live = rows.filter((r) => r.revokedAt === null);
  const revoked = rows
    .filter((r) => r.revokedAt !== null)
    .sort((a, b) => b.revokedAt!.getTime() - a.revokedAt!.getTime());
  return [...live, ...revoked].map((r) => ({
    ...r,
    revokedReason: r.revokedAt ? reasonOf(r.revokedReason) : null,
  }));
};

const reasonOf = (stored: string | null): TokenRevokedReason =>
  TOKEN_REVOKED_REASONS.find((r) => r === stored) ?? "revoked";

/** A live token of the team, with the member who made it; undefined when there is none. */
export const findApiToken = async (db: Db, teamId: string, id: string) =>
  (await db.apiToken.findFirst({
    where: { id, teamId, revokedAt: null },
    select: { id: true, userId: true, prefix: true },
  })) ?? undefined;

/**
 * Revokes the live tokens `where` picks, for `reason`, and every live token made with one
 * of them (at any depth) as `maker_revoked`; the ids of the first, and how many in all.
 */
export const revokeApiTokens = async (
  tx: PrismaClientOrTransaction,
  where: Prisma.ApiTokenWhereInput,
  reason: TokenRevokedReason,
  revokedById?: string,
) => {
  const picked = await tx.apiToken.findMany({
    where: { ...where, revokedAt: null },
    select: { id: true },
  });
  const ids = picked.map((t) => t.id);
  if (ids.length === 0) return { ids, count: 0 };
  const now = new Date();
  const { count } = await tx.apiToken.updateMany({
    where: { id: { in: ids }, revokedAt: null },
    data: { revokedAt: now, revokedReason: reason, revokedById: revokedById ?? null },
  });
  const made = await tx.$executeRaw`
    WITH RECURSIVE made AS (
      SELECT id FROM "ApiToken" WHERE "madeWithId" = ANY(${ids}::text[])
      UNION SELECT t.id FROM "ApiToken" t JOIN made ON t."madeWithId" = made.id
    )
    UPDATE "ApiToken" SET "revokedAt" = ${now.toISOString()}::timestamp(3), "revokedReason" = 'maker_revoked'
    WHERE id IN (SELECT id FROM made) AND "revokedAt" IS NULL`;
  return { ids, count: count + made };
};

/**
 * Revokes a user's live tokens in every team (those made at or after `since` when given)
 * for `reason`, with one `api_token.revoke` entry in each team's audit log naming the
 * tokens by prefix; how many were revoked.
 */
export const revokeUserApiTokens = async (
  tx: PrismaClientOrTransaction,
  input: { userId: string; since?: Date; reason: TokenRevokedReason; actorUserId: string | null },
) => {
  const where: Prisma.ApiTokenWhereInput = {
    userId: input.userId,
    ...(input.since ? { createdAt: { gte: input.since } } : {}),
  };
  const picked = await tx.apiToken.findMany({
    where: { ...where, revokedAt: null },
    select: { teamId: true, prefix: true },
  });
  if (picked.length === 0) return 0;
  const { count } = await revokeApiTokens(tx, where, input.reason);
  const byTeam = new Map<string, string[]>();
  for (const t of picked) byTeam.set(t.teamId, [...(byTeam.get(t.teamId) ?? []), t.prefix]);
  for (const [teamId, tokens] of byTeam) {
    await recordAudit(tx, {
      teamId,
      actorUserId: input.actorUserId,
      action: "api_token.revoke",
      targetType: "user",
      targetId: input.userId,
      metadata: { reason: input.reason, tokens },
    });
  }
  return count;
};

/** Revokes a live token of the team by hand (and what was made with it); false when there was none to revoke. */
export const revokeApiToken = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  id: string,
  revokedById?: string,
) => (await revokeApiTokens(db, { id, teamId }, "revoked", revokedById)).ids.length === 1;

const lowerRole = (a: Role, b: Role) => (roleAtLeast(a, b) ? b : a);

/** The member a bearer token acts as, or undefined for an unknown, revoked or expired one. */
const LAST_USED_GRAIN_MS = 60_000;

type TokenCaller = {
  id: string;
  teamId: string;
  userId: string;
  tokenRole: Role | null;
  memberRole: Role;
  slug: string;
  name: string;
  expiresAt: Date | null;
  stale: boolean;
};

/**
 * The caller a REST request's token stands for: live (not revoked, not expired), the
 * membership it was made under still there, with the lower of the token's role and the
 * owner's. One statement on the pool (this runs on every REST request); times are compared
 * in SQL, where Prisma keeps them (UTC).
 */
export const authenticateApiToken = async (db: Db, token: string) => {
  if (!/^sy_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const [row] = await rawQuery<TokenCaller>(
    db,
    `SELECT t.id, t."teamId", t."userId", t.role::text AS "tokenRole", m.role::text AS "memberRole", tm.slug, tm.name, t."expiresAt" AT TIME ZONE 'UTC' AS "expiresAt",
            (t."lastUsedAt" IS NULL OR t."lastUsedAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => $2)) AS stale
     FROM "ApiToken" t
     JOIN "Membership" m ON m.id = t."membershipId" AND m."teamId" = t."teamId" AND m."userId" = t."userId"
     JOIN "Team" tm ON tm.id = t."teamId"
     WHERE t."tokenHash" = $1 AND t."revokedAt" IS NULL AND (t."expiresAt" IS NULL OR t."expiresAt" > (now() AT TIME ZONE 'UTC'))`,
    [hash(token), LAST_USED_GRAIN_MS / 1000],
  );
  if (!row) return undefined;
  // When it was last used, to the minute: not a write on every request.
  if (row.stale)
    await rawQuery(db, `UPDATE "ApiToken" SET "lastUsedAt" = $2::timestamp(3) WHERE id = $1`, [
      row.id,
      new Date().toISOString(),
    ]);
  return {
    tokenId: row.id,
    /** when the token itself stops working (a token made with it never outlives it) */
    tokenExpiresAt: row.expiresAt,
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
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.userId,
      action: "api_token.create",
      targetType: "api_token",
      targetId: created.id,
      metadata: {
        prefix: created.prefix,
        role: created.role,
        ...(input.madeWithId ? { madeWithId: input.madeWithId } : {}),
      },
    });
    return created;
  });

/**
 * Revokes a live token of the team (and every token made with it) and writes the
 * `api_token.revoke` audit entry, in one transaction; false (and nothing written) when
 * there was none to revoke.
 */
export const revokeAuditedApiToken = (
  db: Db,
  input: {
    teamId: string;
    actorUserId: string;
    token: { id: string; prefix: string; userId: string };
  },
) =>
  db.$transaction(async (tx) => {
    const revoked = await revokeApiTokens(
      tx,
      { id: input.token.id, teamId: input.teamId },
      "revoked",
      input.actorUserId,
    );
    if (revoked.ids.length !== 1) return false;
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "api_token.revoke",
      targetType: "api_token",
      targetId: input.token.id,
      metadata: {
        prefix: input.token.prefix,
        ownerId: input.token.userId,
        ...(revoked.count > 1 ? { madeWithItRevoked: revoked.count - 1 } : {}),
      },
    });
    return true;
  });
