/**
 * Users, their team memberships and roles, and their passwords.
 */
import { AppError } from "@switchyard/core/errors";
import { rawQuery, type Db } from "../client";
import type { Membership, Role, Team } from "../generated/prisma/client";
import {
  DUMMY_PASSWORD_HASH,
  hashPassword,
  needsRehash,
  verifyPasswordHash,
} from "../password-hash";
import { setPassword } from "./password-resets";

export { DUMMY_PASSWORD_HASH, hashPassword, verifyPasswordHash } from "../password-hash";

export type PasswordVerifier = (password: string, stored: string) => Promise<boolean>;

/**
 * The user whose email and password these are. An unknown email, or a user without a
 * password, is checked against a dummy hash, so it takes the time a wrong password takes.
 * A hash of an older kind or cost is replaced after a successful check.
 */
export const verifyPassword = async (
  db: Db,
  email: string,
  password: string,
  verify: PasswordVerifier = verifyPasswordHash,
) => {
  const user = await db.user.findUnique({ where: { email: email.toLowerCase() } });
  if (!user?.passwordHash) {
    await verify(password, DUMMY_PASSWORD_HASH);
    return undefined;
  }
  if (!(await verify(password, user.passwordHash))) return undefined;
  if (needsRehash(user.passwordHash)) {
    const passwordHash = await hashPassword(password);
    // Only if nobody changed it meanwhile.
    await db.user.updateMany({
      where: { id: user.id, passwordHash: user.passwordHash },
      data: { passwordHash },
    });
  }
  return user;
};

const PASSWORD_MIN_LENGTH = 10;
/** The longest password accepted. */
export const PASSWORD_MAX_LENGTH = 1024;

/** Refuses a new password outside the length limits; `path` names the field it came from. */
export const checkNewPassword = (password: string, path = "newPassword") => {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `a password has ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
      {
        location: { path },
      },
    );
  }
};

/**
 * Sets a new password after checking the current one, and moves the user's session
 * version on, which ends every session signed in before. The API tokens made since a reset
 * link was issued are revoked, and the window they were made in closes (see
 * password-resets.ts), in one transaction with the change.
 */
export const changePassword = async (
  db: Db,
  userId: string,
  currentPassword: string,
  newPassword: string,
) => {
  checkNewPassword(newPassword);
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user?.passwordHash || !(await verifyPasswordHash(currentPassword, user.passwordHash))) {
    throw new AppError("USER.WRONG_PASSWORD", "the current password is not right", {
      location: { path: "currentPassword" },
    });
  }
  const passwordHash = await hashPassword(newPassword);
  return db.$transaction(async (tx) => {
    // Only if nobody changed it meanwhile (a reset link used at the same moment, say).
    const { count } = await tx.user.updateMany({
      where: { id: userId, passwordHash: user.passwordHash },
      data: { passwordHash },
    });
    if (count !== 1)
      throw new AppError("CONFLICT", "the password was changed meanwhile; sign in again");
    return (await setPassword(tx, { userId, passwordHash, reopenAt: null })).tokensRevoked;
  });
};

/** A new account with a password and an unverified email, in no team; an email that has an account is refused. */
export const createUserWithPassword = async (
  db: Db,
  input: { name: string; email: string; passwordHash: string },
) => {
  const email = input.email.trim().toLowerCase();
  // The unique email decides between two sign-ups at once.
  const made = await db.user.createManyAndReturn({
    data: [{ email, name: input.name, passwordHash: input.passwordHash }],
    skipDuplicates: true,
    select: { id: true },
  });
  if (!made[0])
    throw new AppError("CONFLICT", "an account with this email exists: sign in instead", {
      location: { path: "email" },
    });
  return { userId: made[0].id };
};

/** The user's memberships with their teams, oldest first. */
export const membershipsOf = (db: Db, userId: string) =>
  db.membership.findMany({
    where: { userId },
    include: { team: true },
    orderBy: { createdAt: "asc" },
  });

/** The user's membership of the team, or null. */
export const getMembership = (db: Db, teamId: string, userId: string) =>
  db.membership.findUnique({ where: { teamId_userId: { teamId, userId } } });

type MembershipRow = Membership & {
  teamSlug: string;
  teamName: string;
  teamMaxConcurrentRuns: number | null;
  teamCreatedAt: Date;
};

/**
 * A membership with its team, as plain SQL on the pool: every signed-in request reads one
 * (the session check, then the procedure's team), so it skips Prisma's query compiler.
 * Timestamps are read as the UTC instants they hold (see run-reads.ts).
 */
const MEMBERSHIP_COLUMNS = `m.id, m."teamId", m."userId", m.role::text AS role, m."createdAt" AT TIME ZONE 'UTC' AS "createdAt",
  t.slug AS "teamSlug", t.name AS "teamName", t."maxConcurrentRuns" AS "teamMaxConcurrentRuns",
  t."createdAt" AT TIME ZONE 'UTC' AS "teamCreatedAt"`;

const withTeam = ({
  teamSlug,
  teamName,
  teamMaxConcurrentRuns,
  teamCreatedAt,
  ...membership
}: MembershipRow): Membership & { team: Team } => ({
  ...membership,
  team: {
    id: membership.teamId,
    slug: teamSlug,
    name: teamName,
    maxConcurrentRuns: teamMaxConcurrentRuns,
    createdAt: teamCreatedAt,
  },
});

/** One of the user's memberships, by its id or its team, with the team; null when there is none. */
export const findMembership = async (
  db: Db,
  userId: string,
  by: { id: string } | { teamId: string },
) => {
  const [row] = await rawQuery<MembershipRow>(
    db,
    `SELECT ${MEMBERSHIP_COLUMNS} FROM "Membership" m JOIN "Team" t ON t.id = m."teamId"
     WHERE m."userId" = $1 AND ${"id" in by ? "m.id" : `m."teamId"`} = $2`,
    [userId, "id" in by ? by.id : by.teamId],
  );
  return row ? withTeam(row) : null;
};

/**
 * What checking a session reads, in one statement: the user's session version (undefined
 * for a user that no longer exists) and the membership the session acts in, with its team
 * (null when the user no longer holds it).
 */
export const sessionMembership = async (db: Db, userId: string, membershipId: string) => {
  const [row] = await rawQuery<{ sessionVersion: number } & Partial<MembershipRow>>(
    db,
    `SELECT u."sessionVersion", ${MEMBERSHIP_COLUMNS}
     FROM "User" u LEFT JOIN ("Membership" m JOIN "Team" t ON t.id = m."teamId")
       ON m."userId" = u.id AND m.id = $2
     WHERE u.id = $1`,
    [userId, membershipId],
  );
  if (!row) return { sessionVersion: undefined, membership: null };
  const { sessionVersion, ...membership } = row;
  return {
    sessionVersion,
    membership: membership.id ? withTeam(membership as MembershipRow) : null,
  };
};

/** The user's id, email, name and when the email was verified, or null. */
export const getUser = (db: Db, userId: string) =>
  db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, emailVerifiedAt: true },
  });

/** The user's current session version, or undefined for a user that no longer exists. */
export const sessionVersionOf = async (db: Db, userId: string) =>
  (await db.user.findUnique({ where: { id: userId }, select: { sessionVersion: true } }))
    ?.sessionVersion;

/** Takes a user out of a team; their sessions in that team end at their next request. */
export const removeMember = async (db: Db, teamId: string, userId: string) =>
  (await db.membership.deleteMany({ where: { teamId, userId } })).count > 0;

/** A team by its slug (the demo team is `demo`); throws when there is none. */
export const teamBySlug = (db: Db, slug: string) => db.team.findUniqueOrThrow({ where: { slug } });

/** A user's id by email; throws when there is none. */
export const userIdByEmail = async (db: Db, email: string) =>
  (await db.user.findUniqueOrThrow({ where: { email }, select: { id: true } })).id;

/**
 * Makes sure a user with this email exists and is a member of the team (kept as they are
 * when already there); returns their id. For the operator's scripts: the email they give
 * is taken as verified.
 */
export const ensureMember = async (
  db: Db,
  teamId: string,
  user: { email: string; name: string; role: Role; passwordHash?: string },
) => {
  const { id } = await db.user.upsert({
    where: { email: user.email },
    create: {
      email: user.email,
      name: user.name,
      emailVerifiedAt: new Date(),
      ...(user.passwordHash ? { passwordHash: user.passwordHash } : {}),
    },
    update: {},
    select: { id: true },
  });
  await db.membership.upsert({
    where: { teamId_userId: { teamId, userId: id } },
    create: { teamId, userId: id, role: user.role },
    update: {},
  });
  return id;
};
