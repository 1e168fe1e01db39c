/**
 * Request and response shapes of teams: the team a session acts in with the caller's
 * role (what pages use to hide what a role may not do), the caller's teams, a new team,
 * and the team's settings (its name, and how many of its runs may run at once).
 */
import { z } from "zod";
import { operation } from "./operation";

export const teamRole = z.enum(["owner", "admin", "member", "viewer"]);
const team = z.object({ id: z.string(), name: z.string(), slug: z.string() });

export const currentTeamResponse = z.object({ team, role: teamRole, userId: z.string() });
export const myTeamsResponse = z.array(z.object({ team, role: teamRole }));
export const createTeamInput = z.object({
  name: z.string().trim().min(1, "give the team a name").max(80),
});
export const createTeamResponse = z.object({ team });

/** The highest limit a team may set on its runs at once. */
const MAX_TEAM_RUN_LIMIT = 10_000;
export const teamSettings = z.object({
  name: z.string(),
  /**
   * Runs of the team that may run at once; more wait queued, holding no worker slot. null:
   * no limit of the team's own (the operator's SWITCHYARD_TEAM_RUN_LIMIT may still apply).
   */
  maxConcurrentRuns: z.number().int().nullable(),
});
export const updateTeamInput = z
  .object({
    name: z.string().trim().min(1, "give the team a name").max(80).optional(),
    maxConcurrentRuns: z
      .number()
      .int()
      .min(1, "at least 1 run at once, or no limit")
      .max(MAX_TEAM_RUN_LIMIT)
      .nullable()
      .optional(),
  })
  .strict();

export const teamOperations = {
  current: operation({
    kind: "query",
    access: "team",
    output: currentTeamResponse,
    rest: { only: "the team the dashboard's session acts in; a token knows its team" },
  }),
  mine: operation({
    kind: "query",
    access: "authed",
    output: myTeamsResponse,
    rest: { only: "the dashboard's team switcher; a token acts in one team" },
  }),
  create: operation({
    kind: "mutation",
    access: "authed",
    input: createTeamInput,
    output: createTeamResponse,
    rest: { only: "a token acts in one team; new teams are made in the dashboard" },
  }),
  settings: operation({
    kind: "query",
    access: "team",
    output: teamSettings,
    rest: {
      method: "GET",
      path: "/team",
      summary:
        "The team's settings: its name, and how many of its runs may run at once (null: no limit of its own)",
      status: 200,
      description: "The team's settings",
    },
  }),
  update: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: updateTeamInput,
    output: teamSettings,
    rest: {
      method: "PUT",
      path: "/team",
      summary:
        "Admins: rename the team or set how many of its runs may run at once (null removes the limit); fields left out keep their value",
      body: updateTeamInput,
      status: 200,
      description: "The team's settings as stored",
    },
  }),
};
