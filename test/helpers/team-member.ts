/**
 * A user made a member of a team with a role, for tests that need someone besides the
 * seeded admin; signs in only with a password when given one.
 */
import { hashPassword, type Db, type Role } from "@switchyard/db";

export const addMember = async (
  db: Db,
  teamId: string,
  user: { email: string; name: string; role: Role; password?: string },
) => {
  const created = await db.user.create({
    data: {
      email: user.email,
      name: user.name,
      ...(user.password ? { passwordHash: await hashPassword(user.password) } : {}),
    },
  });
  await db.membership.create({ data: { teamId, userId: created.id, role: user.role } });
  return created.id;
};
