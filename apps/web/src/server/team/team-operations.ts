/**
 * Teams for the dashboard and the REST API: the one the session acts in, the user's teams,
 * a new team, which any signed-in user may make (they become its owner), and the team's
 * settings, which every member reads and admins change.
 */
import type { z } from "zod";
import { createTeamWithOwner, membershipsOf, teamSettingsOf, updateTeamSettings, type Db, type Role } from "@switchyard/db";
import type { updateTeamInput } from "../contract/teams.types";
import { requireRole } from "../trpc/init";

type TeamActor = { teamId: string; userId: string; role: Role };

const teamOf = (t: { id: string; name: string; slug: string }) => ({ id: t.id, name: t.name, slug: t.slug });

export const myTeams = async (db: Db, userId: string) => (await membershipsOf(db, userId)).map((m) => ({ team: teamOf(m.team), role: m.role }));

export const createTeam = async (db: Db, userId: string, input: { name: string }) => ({ team: teamOf(await createTeamWithOwner(db, { name: input.name, ownerId: userId })) });

export const currentTeam = (ctx: { team: { id: string; name: string; slug: string }; role: Role; userId: string }) => ({
  team: teamOf(ctx.team),
  role: ctx.role,
  userId: ctx.userId,
});

export const teamSettings = (db: Db, actor: TeamActor) => teamSettingsOf(db, actor.teamId);

/** Admins: the fields given change (a limit of null removes the team's own), with an audit entry. */
export const updateTeam = (db: Db, actor: TeamActor, input: z.infer<typeof updateTeamInput>) => {
  requireRole("admin", actor.role);
  return updateTeamSettings(db, actor.teamId, actor.userId, {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.maxConcurrentRuns === undefined ? {} : { maxConcurrentRuns: input.maxConcurrentRuns }),
  });
};
