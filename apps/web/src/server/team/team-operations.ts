/**
 * Teams for the dashboard and the REST API: the one the session acts in, the user's teams,
 * a new team (its maker becomes its owner), which instance admins make, and anyone when
 * the installation's settings say so, and the team's settings, which every member reads
 * and admins change.
 */
import type { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import {
  createTeamWithOwner,
  membershipsOf,
  teamSettingsOf,
  updateTeamSettings,
  type Db,
  type Role,
} from "@switchyard/db";
import type { updateTeamInput } from "../contract/teams.types";
import { mayCreateTeams } from "../instance/instance-operations";
import { requireRole } from "../trpc/init";

type TeamActor = { teamId: string; userId: string; role: Role };

const teamOf = (t: { id: string; name: string; slug: string }) => ({
  id: t.id,
  name: t.name,
  slug: t.slug,
});

export const myTeams = async (db: Db, userId: string) =>
  (await membershipsOf(db, userId)).map((m) => ({ team: teamOf(m.team), role: m.role }));

/** Why a user may not create a team, in words the team pages show. */
export const TEAM_CREATION_CLOSED =
  "on this installation only instance admins create teams: ask one to create the team and invite you, or to let anyone create teams (Settings → Instance)";

export const createTeam = async (db: Db, userId: string, input: { name: string }) => {
  if (!(await mayCreateTeams(db, userId)))
    throw new AppError("USER.INSTANCE.TEAM_CREATION_CLOSED", TEAM_CREATION_CLOSED);
  return { team: teamOf(await createTeamWithOwner(db, { name: input.name, ownerId: userId })) };
};

export const currentTeam = (ctx: {
  team: { id: string; name: string; slug: string };
  role: Role;
  userId: string;
}) => ({
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
    ...(input.maxConcurrentRuns === undefined
      ? {}
      : { maxConcurrentRuns: input.maxConcurrentRuns }),
  });
};
