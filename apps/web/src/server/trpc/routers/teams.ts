/**
 * Teams: the one the session acts in with the caller's role, the caller's teams, a new
 * team (instance admins, or anyone the installation's settings let; they become its
 * owner), and the team's settings (any member reads them, admins change them).
 */
import { createTeam, currentTeam, myTeams, teamSettings, updateTeam } from "../../team/team-operations";
import { createTeamInput, createTeamResponse, currentTeamResponse, myTeamsResponse, teamSettings as teamSettingsShape, updateTeamInput } from "../../contract/teams.types";
import { authedProcedure, router, teamProcedure } from "../init";

export const teamsRouter = router({
  current: teamProcedure.output(currentTeamResponse).query(({ ctx }) => currentTeam(ctx)),
  mine: authedProcedure.output(myTeamsResponse).query(({ ctx }) => myTeams(ctx.db, ctx.userId)),
  create: authedProcedure
    .input(createTeamInput)
    .output(createTeamResponse)
    .mutation(({ ctx, input }) => createTeam(ctx.db, ctx.userId, input)),
  settings: teamProcedure.output(teamSettingsShape).query(({ ctx }) => teamSettings(ctx.db, ctx)),
  update: teamProcedure
    .input(updateTeamInput)
    .output(teamSettingsShape)
    .mutation(({ ctx, input }) => updateTeam(ctx.db, ctx, input)),
});
