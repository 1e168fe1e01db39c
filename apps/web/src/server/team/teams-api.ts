/**
 * What runs each team operation (contract/teams.types.ts): the team a session acts in, the
 * caller's teams, a new team (instance admins, or anyone the installation's settings let),
 * and the team's settings.
 */
import { teamOperations } from "../contract/teams.types";
import { implement } from "../api/implement";
import { createTeam, currentTeam, myTeams, teamSettings, updateTeam } from "./team-operations";

export const teamsApi = implement(teamOperations, {
  current: ({ caller }) => currentTeam(caller),
  mine: ({ db, caller }) => myTeams(db, caller.userId),
  create: ({ db, caller }, input) => createTeam(db, caller.userId, input),
  settings: ({ db, caller }) => teamSettings(db, caller),
  update: ({ db, caller }, input) => updateTeam(db, caller, input),
});
