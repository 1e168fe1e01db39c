/**
 * The worker's side of team variables: it holds the master keys, so it opens the secrets a
 * run's `env` names (after storage has refused any not open to the run's lane) and, at
 * boot, re-seals secrets sealed before envelopes bound the variable's name.
 */
import { openVariable, resealVariable, type Keyring } from "@switchyard/core/crypto";
import {
  legacyVariableSecrets,
  storeResealedSecret,
  variablesForRun,
  type Db,
} from "@switchyard/db";

/** The values of the named variables for a run in `runLane`, secrets opened; `secrets` lists those to scrub. */
export const resolveTeamVariables = async (
  db: Db,
  keyring: Keyring,
  teamId: string,
  names: string[],
  runLane: string,
) => {
  const values: Record<string, string> = {};
  const secrets: string[] = [];
  for (const stored of await variablesForRun(db, teamId, names, runLane)) {
    if ("value" in stored) {
      values[stored.name] = stored.value;
      continue;
    }
    const value = openVariable(
      keyring,
      { teamId, credentialId: stored.sealed.credentialId, name: stored.name },
      stored.sealed.envelope,
    );
    values[stored.name] = value;
    secrets.push(value);
  }
  return { values, secrets };
};

/**
 * Re-seals format 1 secrets to the current format, bound to the name they were sealed for,
 * under the current master key. Idempotent; a credential another variable now points at, or
 * that does not open, is left as it is (and so never opens for a run).
 */
export const resealLegacySecrets = async (db: Db, keyring: Keyring) => {
  const { candidates, skipped } = await legacyVariableSecrets(db);
  const result = { resealed: 0, skipped: [...skipped] };
  for (const { envelope, ...owner } of candidates) {
    let resealed;
    try {
      resealed = resealVariable(keyring, owner, envelope);
    } catch {
      result.skipped.push(owner.credentialId);
      continue;
    }
    result.resealed += await storeResealedSecret(db, {
      teamId: owner.teamId,
      credentialId: owner.credentialId,
      envelope: resealed,
    });
  }
  return result;
};
