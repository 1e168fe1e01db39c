/**
 * A team's variables, the values of a workflow's `env` names, as stored. Plain ones are kept
 * as they are; a secret one is kept as the envelope it was sealed into (in a Credential row
 * named after the variable), never listed, and handed out only for a run in one of the
 * secret's lanes. Sealing, opening and auditing happen in the callers; nothing here holds a
 * key or a secret's value.
 */
import { AppError } from "@switchyard/core/errors";
import { variableHolder, type Envelope } from "@switchyard/core/crypto";
import { mayUseSecret, type SecretRule } from "@switchyard/core/policy";
import { rawQuery, type Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { envelopeOf, sealedColumns } from "./sealed-columns";

/** A secret's envelope and the id of the credential that holds it (both bound into the envelope). */
export type SealedValue = { credentialId: string; envelope: Envelope };

/**
 * `value` for a plain variable, `sealed` for a secret. `lanes`: a secret's lanes; unset keeps
 * a secret's lanes, and a new secret gets operator only.
 */
type StoreVariableInput = {
  teamId: string;
  name: string;
  value?: string;
  sealed?: SealedValue;
  lanes?: string[];
};

/** The credential row's name: the variable it was sealed for, then its own id. */
const credentialName = (name: string, credentialId: string) =>
  `${variableHolder(name)}:${credentialId}`;

/** Lanes must exist in the team; they are stored sorted and once each. */
const checkLanes = async (db: PrismaClientOrTransaction, teamId: string, lanes: string[]) => {
  const known = new Set(
    (await db.lane.findMany({ where: { teamId }, select: { name: true } })).map((l) => l.name),
  );
  const unknown = lanes.find((l) => !known.has(l));
  if (unknown !== undefined) {
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `lane "${unknown}" does not exist in this team`,
      { location: { path: "lanes" } },
    );
  }
  return [...new Set(lanes)].sort();
};

/** Writes a variable (and a secret's credential, dropping the one it replaces); returns the lanes stored. Run it in a transaction. */
export const storeVariable = async (tx: PrismaClientOrTransaction, input: StoreVariableInput) => {
  const { teamId, name, sealed } = input;
  const secret = sealed !== undefined;
  const existing = await tx.teamVariable.findUnique({ where: { teamId_name: { teamId, name } } });
  const lanes = secret
    ? await checkLanes(
        tx,
        teamId,
        input.lanes ?? (existing?.secret ? existing.lanes : ["operator"]),
      )
    : [];
  if (sealed) {
    await tx.credential.create({
      data: {
        id: sealed.credentialId,
        teamId,
        name: credentialName(name, sealed.credentialId),
        kind: "secret",
        ...sealedColumns(sealed.envelope),
      },
    });
  }
  const value = secret ? null : (input.value ?? "");
  const credentialId = sealed?.credentialId ?? null;
  await tx.teamVariable.upsert({
    where: { teamId_name: { teamId, name } },
    create: { teamId, name, secret, value, credentialId, lanes },
    update: { secret, value, credentialId, lanes },
  });
  if (existing?.credentialId)
    await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId } });
  return { lanes };
};

/** Removes a variable and a secret's credential; NOT_FOUND when there is none. */
export const removeVariable = async (
  tx: PrismaClientOrTransaction,
  input: { teamId: string; name: string },
) => {
  const existing = await tx.teamVariable.findUnique({
    where: { teamId_name: { teamId: input.teamId, name: input.name } },
  });
  if (!existing) throw new AppError("NOT_FOUND", `variable "${input.name}" does not exist`);
  await tx.teamVariable.delete({ where: { id: existing.id } });
  if (existing.credentialId)
    await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId: input.teamId } });
};

/** Opens a secret to other lanes, or closes it, without touching its value. */
export const storeSecretLanes = async (
  tx: PrismaClientOrTransaction,
  input: { teamId: string; name: string; lanes: string[] },
) => {
  const existing = await tx.teamVariable.findUnique({
    where: { teamId_name: { teamId: input.teamId, name: input.name } },
  });
  if (!existing) throw new AppError("NOT_FOUND", `variable "${input.name}" does not exist`);
  if (!existing.secret)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `"${input.name}" is not a secret; only a secret has lanes`,
      { location: { path: "name" } },
    );
  const lanes = await checkLanes(tx, input.teamId, input.lanes);
  await tx.teamVariable.update({ where: { id: existing.id }, data: { lanes } });
  return { name: input.name, lanes };
};

/** Names, kinds, plain values and each secret's lanes; a secret's value is never read here. */
export const listVariables = async (db: Db, teamId: string) =>
  (await db.teamVariable.findMany({ where: { teamId }, orderBy: { name: "asc" } })).map((v) => ({
    name: v.name,
    secret: v.secret,
    value: v.secret ? null : v.value,
    lanes: v.secret ? (v.lanes ?? []) : [],
    updatedAt: v.updatedAt,
  }));

/** The team's secrets and their lanes, for the lane policy; no value is read. */
export const secretRules = async (db: Db, teamId: string): Promise<Map<string, SecretRule>> =>
  new Map(
    (
      await rawQuery<{ name: string; lanes: string[] | null }>(
        db,
        `SELECT name, lanes FROM "TeamVariable" WHERE "teamId" = $1 AND secret`,
        [teamId],
      )
    ).map((v) => [v.name, { name: v.name, lanes: v.lanes ?? [] }]),
  );

type StoredVariable = { name: string; value: string } | { name: string; sealed: SealedValue };

/**
 * The named variables as stored, for a run in `runLane`: plain values, and each secret's
 * envelope to open. A secret not open to the run's lane is refused before any is read.
 */
export const variablesForRun = async (
  db: Db,
  teamId: string,
  names: string[],
  runLane: string,
): Promise<StoredVariable[]> => {
  if (names.length === 0) return [];
  const rows = await db.teamVariable.findMany({ where: { teamId, name: { in: names } } });
  for (const row of rows) {
    const denied = row.secret
      ? mayUseSecret({ name: row.name, lanes: row.lanes ?? [] }, runLane)
      : undefined;
    if (denied) throw denied;
  }
  const credentialIds = rows.flatMap((r) => (r.secret && r.credentialId ? [r.credentialId] : []));
  const credentials = new Map(
    (credentialIds.length === 0
      ? []
      : await db.credential.findMany({ where: { teamId, id: { in: credentialIds } } })
    ).map((c) => [c.id, c]),
  );
  return rows.map((row) => {
    if (!row.secret) return { name: row.name, value: row.value ?? "" };
    const credential = row.credentialId ? credentials.get(row.credentialId) : undefined;
    if (!credential)
      throw new AppError(
        "SYSTEM.CREDENTIAL_MISSING",
        `secret variable "${row.name}" has no stored value`,
      );
    return {
      name: row.name,
      sealed: { credentialId: credential.id, envelope: envelopeOf(credential) },
    };
  });
};

/**
 * Every secret variable of the team as sealed, whatever its lanes: what a person's text (a
 * conversation's message) is scrubbed of before it is stored. Secrets left unreadable are
 * skipped (nothing to scrub them with).
 */
export const teamSecretEnvelopes = async (db: Db, teamId: string) => {
  const rows = await db.teamVariable.findMany({
    where: { teamId, secret: true, credentialId: { not: null } },
    select: { name: true, credentialId: true },
  });
  const credentials = await db.credential.findMany({
    where: { teamId, id: { in: rows.map((r) => r.credentialId!) } },
  });
  return credentials.flatMap((credential) => {
    const row = rows.find((r) => r.credentialId === credential.id);
    return row
      ? [
          {
            name: row.name,
            sealed: { credentialId: credential.id, envelope: envelopeOf(credential) },
          },
        ]
      : [];
  });
};

/**
 * The secrets sealed before envelopes bound the variable's name (format 1), each with the
 * variable it is held for. One whose variable is gone, or that another variable now points
 * at (its credential's name, written when it was sealed, names someone else), is `skipped`.
 */
export const legacyVariableSecrets = async (db: Db) => {
  const candidates: Array<{
    teamId: string;
    credentialId: string;
    name: string;
    envelope: Envelope;
  }> = [];
  const skipped: string[] = [];
  const legacy = await db.credential.findMany({
    where: { sealFormat: 1, name: { startsWith: variableHolder("") } },
  });
  if (legacy.length === 0) return { candidates, skipped };
  const rows = await db.teamVariable.findMany({
    where: { credentialId: { in: legacy.map((c) => c.id) } },
    select: { teamId: true, name: true, credentialId: true },
  });
  for (const credential of legacy) {
    const row = rows.find(
      (r) => r.credentialId === credential.id && r.teamId === credential.teamId,
    );
    if (!row || credential.name !== credentialName(row.name, credential.id))
      skipped.push(credential.id);
    else
      candidates.push({
        teamId: credential.teamId,
        credentialId: credential.id,
        name: row.name,
        envelope: envelopeOf(credential),
      });
  }
  return { candidates, skipped };
};

/** Replaces a format 1 envelope with its re-sealed one, unless it changed since; returns how many rows did. */
export const storeResealedSecret = async (
  db: Db,
  input: { teamId: string; credentialId: string; envelope: Envelope },
) =>
  (
    await db.credential.updateMany({
      where: { id: input.credentialId, teamId: input.teamId, sealFormat: 1 },
      data: { ...sealedColumns(input.envelope), sealFormat: 2 },
    })
  ).count;
