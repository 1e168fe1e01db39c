/**
 * Teams: the one the session acts in with the caller's role, the caller's teams, and a
 * new team (any signed-in user; they become its owner).
 */
import { createTeam, currentTeam, myTeams } from "../../team/team-operations";
import { createTeamInput, createTeamResponse, currentTeamResponse, myTeamsResponse } from "../../contract/teams.types";
import { authedProcedure, router, teamProcedure } from "../init";

export const teamsRouter = router({
  current: teamProcedure.output(currentTeamResponse).query(({ ctx }) => currentTeam(ctx)),
  mine: authedProcedure.output(myTeamsResponse).query(({ ctx }) => myTeams(ctx.db, ctx.userId)),
  create: authedProcedure
    .input(createTeamInput)
    .output(createTeamResponse)
    .mutation(({ ctx, input }) => createTeam(ctx.db, ctx.userId, input)),
});
