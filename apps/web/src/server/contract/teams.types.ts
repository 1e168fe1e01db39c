/**
 * Request and response shapes of teams: the team a session acts in with the caller's
 * role (what pages use to hide what a role may not do), the caller's teams, a new team,
 * and the team's settings (its name, and how many of its runs may run at once).
 */
import { z } from "zod";

export const teamRole = z.enum(["owner", "admin", "member", "viewer"]);
const team = z.object({ id: z.string(), name: z.string(), slug: z.string() });

export const currentTeamResponse = z.object({ team, role: teamRole, userId: z.string() });
export const myTeamsResponse = z.array(z.object({ team, role: teamRole }));
export const createTeamInput = z.object({ name: z.string().trim().min(1, "give the team a name").max(80) });
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
    maxConcurrentRuns: z.number().int().min(1, "at least 1 run at once, or no limit").max(MAX_TEAM_RUN_LIMIT).nullable().optional(),
  })
  .strict();
