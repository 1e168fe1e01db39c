/**
 * Teams for the dashboard: the one the session acts in, the user's teams, and a new team,
 * which any signed-in user may make (they become its owner).
 */
import { createTeamWithOwner, membershipsOf, type Db, type Role } from "@switchyard/db";

const teamOf = (t: { id: string; name: string; slug: string }) => ({ id: t.id, name: t.name, slug: t.slug });

export const myTeams = async (db: Db, userId: string) => (await membershipsOf(db, userId)).map((m) => ({ team: teamOf(m.team), role: m.role }));

export const createTeam = async (db: Db, userId: string, input: { name: string }) => ({ team: teamOf(await createTeamWithOwner(db, { name: input.name, ownerId: userId })) });

export const currentTeam = (ctx: { team: { id: string; name: string; slug: string }; role: Role; userId: string }) => ({
  team: teamOf(ctx.team),
  role: ctx.role,
  userId: ctx.userId,
});
