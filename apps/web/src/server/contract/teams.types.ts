/**
 * Request and response shapes of teams: the team a session acts in with the caller's
 * role (what pages use to hide what a role may not do), the caller's teams, and a new team.
 */
import { z } from "zod";

export const teamRole = z.enum(["owner", "admin", "member", "viewer"]);
const team = z.object({ id: z.string(), name: z.string(), slug: z.string() });

export const currentTeamResponse = z.object({ team, role: teamRole, userId: z.string() });
export const myTeamsResponse = z.array(z.object({ team, role: teamRole }));
export const createTeamInput = z.object({ name: z.string().trim().min(1, "give the team a name").max(80) });
export const createTeamResponse = z.object({ team });
