/**
 * Users, their team memberships and roles.
 */
import bcrypt from "bcryptjs";
import type { Db } from "../client";
import type { Role } from "../generated/prisma/client";

export const verifyPassword = async (db: Db, email: string, password: string) => {
  const user = await db.user.findUnique({ where: { email: email.toLowerCase() } });
  if (!user?.passwordHash) return undefined;
  return (await bcrypt.compare(password, user.passwordHash)) ? user : undefined;
};

export const hashPassword = (password: string) => bcrypt.hash(password, 10);

export const membershipsOf = (db: Db, userId: string) =>
  db.membership.findMany({
    where: { userId },
    include: { team: true },
    orderBy: { createdAt: "asc" },
  });

export const getMembership = (db: Db, teamId: string, userId: string) =>
  db.membership.findUnique({ where: { teamId_userId: { teamId, userId } } });

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };
export const roleAtLeast = (role: Role, needed: Role) => RANK[role] >= RANK[needed];
