/**
 * Team variable operations for the dashboard's procedures and the REST API alike: every
 * member may list them (a secret shows its lanes, never its value); only admins write
 * them, choose a secret's lanes, or delete them.
 */
import { z } from "zod";
import type { Keyring } from "@switchyard/core/crypto";
import { deleteVariable, laneRules, listVariables, setSecretLanes, setVariable, type Db, type Role } from "@switchyard/db";
import { requireRole } from "../trpc/init";

export type VariableActor = { teamId: string; userId: string; role: Role };

const lanes = z.array(z.string().min(1).max(64)).max(32);
export const variableValueInput = z.object({
  value: z.string().max(65536),
  secret: z.boolean(),
  /** a secret's lanes; a new secret is open to operator only */
  lanes: lanes.optional(),
});
export const setVariableInput = variableValueInput.extend({ name: z.string().min(1).max(128) });
export const secretLanesInput = z.object({ lanes });
export const variableNameInput = z.object({ name: z.string().min(1).max(128) });

export const listTeamVariables = (db: Db, actor: VariableActor) => listVariables(db, actor.teamId);

/** The team's lane names, the choices for a secret's lanes. */
export const teamLaneNames = async (db: Db, actor: VariableActor) => [...(await laneRules(db, actor.teamId)).keys()].sort();

export const setTeamVariable = async (db: Db, keyring: Keyring, actor: VariableActor, input: z.infer<typeof setVariableInput>) => {
  requireRole("admin", actor.role);
  await setVariable(db, keyring, { ...input, teamId: actor.teamId, actorUserId: actor.userId });
  const saved = (await listVariables(db, actor.teamId)).find((v) => v.name === input.name);
  return { name: input.name, secret: input.secret, lanes: saved?.lanes ?? [] };
};

export const setTeamSecretLanes = (db: Db, actor: VariableActor, input: { name: string; lanes: string[] }) => {
  requireRole("admin", actor.role);
  return setSecretLanes(db, { ...input, teamId: actor.teamId, actorUserId: actor.userId });
};

export const deleteTeamVariable = async (db: Db, actor: VariableActor, input: { name: string }) => {
  requireRole("admin", actor.role);
  await deleteVariable(db, { teamId: actor.teamId, actorUserId: actor.userId, name: input.name });
  return { name: input.name };
};
