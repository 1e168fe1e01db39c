/**
 * Who administers the installation: accounts marked so (the seed's admin), and accounts
 * whose email the operator names (SWITCHYARD_INSTANCE_ADMINS, passed in by the caller)
 * once that email is verified, since anyone may type any address into an unbound
 * invitation's sign-up.
 */
import type { Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";

/** Emails as the operator named them, compared lower-cased. */
const normalised = (named: readonly string[]) =>
  new Set(named.map((e) => e.trim().toLowerCase()).filter(Boolean));

type Candidate = { instanceAdmin: boolean; email: string; emailVerifiedAt: Date | null };

const isAdmin = (user: Candidate, named: Set<string>) =>
  user.instanceAdmin || (user.emailVerifiedAt !== null && named.has(user.email.toLowerCase()));

/** Whether the user administers the installation; false for a user that does not exist. */
export const isInstanceAdmin = async (
  db: PrismaClientOrTransaction,
  userId: string,
  named: readonly string[],
) => {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { instanceAdmin: true, email: true, emailVerifiedAt: true },
  });
  return user ? isAdmin(user, normalised(named)) : false;
};

/** Every instance admin, each with where the role comes from: the seed's mark, or the operator's list. */
export const listInstanceAdmins = async (db: Db, named: readonly string[]) => {
  const emails = normalised(named);
  const users = await db.user.findMany({
    where: {
      OR: [{ instanceAdmin: true }, { email: { in: [...emails] }, emailVerifiedAt: { not: null } }],
    },
    select: { id: true, name: true, email: true, instanceAdmin: true, emailVerifiedAt: true },
    orderBy: { createdAt: "asc" },
  });
  return users.map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    source: u.instanceAdmin ? ("seed" as const) : ("environment" as const),
  }));
};

/**
 * People on the installation whose name or email contains `query` (everyone when empty),
 * oldest first, at most `limit`; each with whether their email is verified, whether they
 * may sign in with a password, and how many teams they are in. For instance admins, who
 * hand people password reset links.
 */
export const findPeople = async (db: Db, query: string, limit: number) => {
  const q = query.trim();
  const users = await db.user.findMany({
    where: q
      ? {
          OR: [
            { email: { contains: q, mode: "insensitive" } },
            { name: { contains: q, mode: "insensitive" } },
          ],
        }
      : {},
    select: {
      id: true,
      name: true,
      email: true,
      emailVerifiedAt: true,
      passwordHash: true,
      createdAt: true,
      _count: { select: { memberships: true } },
    },
    orderBy: { createdAt: "asc" },
    take: limit,
  });
  return users.map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    emailVerified: u.emailVerifiedAt !== null,
    hasPassword: u.passwordHash !== null,
    teams: u._count.memberships,
    createdAt: u.createdAt,
  }));
};
