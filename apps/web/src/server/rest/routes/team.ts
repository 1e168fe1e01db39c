/**
 * The team's settings over REST, with the dashboard's contract: every member reads the
 * team's name and its limit on runs at once; admins change them.
 */
import { teamSettings as teamSettingsShape, updateTeamInput } from "../../contract/teams.types";
import { teamSettings, updateTeam } from "../../team/team-operations";
import { answer, parse, routeFinder, type Route } from "../route-kit";

export const teamRoutes: Route[] = [
  {
    method: "GET",
    path: "/team",
    summary: "The team's settings: its name, and how many of its runs may run at once (null: no limit of its own)",
    status: 200,
    description: "The team's settings",
    response: teamSettingsShape,
    handler: async ({ deps, caller }) => answer(routeOf("GET", "/team"), await teamSettings(deps.db, caller)),
  },
  {
    method: "PUT",
    path: "/team",
    summary: "Admins: rename the team or set how many of its runs may run at once (null removes the limit); fields left out keep their value",
    body: updateTeamInput,
    status: 200,
    description: "The team's settings as stored",
    response: teamSettingsShape,
    handler: async ({ deps, caller, body }) => answer(routeOf("PUT", "/team"), await updateTeam(deps.db, caller, await parse(updateTeamInput, body))),
  },
];

function routeOf(method: string, path: string): Route {
  return routeFinder(teamRoutes)(method, path);
}
