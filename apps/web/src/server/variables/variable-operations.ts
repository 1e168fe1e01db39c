/**
 * Team variable operations for the dashboard's procedures and the REST API alike: every
 * member may list them (a secret shows its lanes, never its value); only admins write
 * them, choose a secret's lanes, or delete them. A secret is sealed here, with core's
 * variable envelope, and stored as an envelope; each change commits with its audit entry.
 */
import type { z } from "zod";
import { newCredentialId, sealVariable, type Keyring } from "@switchyard/core/crypto";
import { checkVariable } from "@switchyard/core/secrets";
import type { setVariableInput } from "../contract/variables.types";
import {
  laneRules,
  listVariables,
  recordAudit,
  removeVariable,
  storeSecretLanes,
  storeVariable,
  type Db,
  type Role,
} from "@switchyard/db";
import { requireRole } from "../trpc/init";

export type VariableActor = { teamId: string; userId: string; role: Role };

const audit = (
  actor: VariableActor,
  action: string,
  name: string,
  metadata?: { secret?: boolean; lanes: string[] },
) => ({
  teamId: actor.teamId,
  actorUserId: actor.userId,
  action,
  targetType: "variable",
  targetId: name,
  metadata,
});

export const listTeamVariables = (db: Db, actor: VariableActor) => listVariables(db, actor.teamId);

/** The team's lane names, the choices for a secret's lanes. */
export const teamLaneNames = async (db: Db, actor: VariableActor) =>
  [...(await laneRules(db, actor.teamId)).keys()].sort();

export const setTeamVariable = async (
  db: Db,
  keyring: Keyring,
  actor: VariableActor,
  input: z.infer<typeof setVariableInput>,
) => {
  requireRole("admin", actor.role);
  checkVariable(input);
  const { teamId } = actor;
  const { name, value, secret } = input;
  const credentialId = secret ? newCredentialId() : undefined;
  const sealed = credentialId
    ? { credentialId, envelope: sealVariable(keyring, { teamId, credentialId, name }, value) }
    : undefined;
  const stored = await db.$transaction(async (tx) => {
    const saved = await storeVariable(tx, {
      teamId,
      name,
      value: secret ? undefined : value,
      sealed,
      lanes: input.lanes,
    });
    await recordAudit(tx, audit(actor, "variable.set", name, { secret, lanes: saved.lanes }));
    return saved;
  });
  return { name, secret, lanes: stored.lanes };
};

export const setTeamSecretLanes = (
  db: Db,
  actor: VariableActor,
  input: { name: string; lanes: string[] },
) => {
  requireRole("admin", actor.role);
  return db.$transaction(async (tx) => {
    const saved = await storeSecretLanes(tx, { ...input, teamId: actor.teamId });
    await recordAudit(tx, audit(actor, "variable.lanes", input.name, { lanes: saved.lanes }));
    return saved;
  });
};

export const deleteTeamVariable = async (db: Db, actor: VariableActor, input: { name: string }) => {
  requireRole("admin", actor.role);
  await db.$transaction(async (tx) => {
    await removeVariable(tx, { teamId: actor.teamId, name: input.name });
    await recordAudit(tx, audit(actor, "variable.delete", input.name));
  });
  return { name: input.name };
};
