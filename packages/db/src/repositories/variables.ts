/**
 * A team's variables, the values of a workflow's `env` names. Plain ones are stored as
 * they are; secret ones are write-only: sealed in a Credential envelope bound to the team,
 * the credential and the variable's name, never listed, opened only by the worker for a
 * run in one of the secret's lanes. Every change is audited, without its value.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import { openSecret, sealSecret, type Envelope, type Keyring } from "@switchyard/core/crypto";
import { mayUseSecret, type SecretRule } from "@switchyard/core/policy";
import { checkSecretLength } from "@switchyard/core/secrets";
import type { Db } from "../client";

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const MAX_VALUE = 64 * 1024;

/** `lanes`: a secret's lanes; unset keeps a secret's lanes, and a new secret gets operator only. */
export type SetVariableInput = { teamId: string; actorUserId: string; name: string; value: string; secret: boolean; lanes?: string[] };

/** What a secret's envelope is bound to besides the team and credential ids. */
const holder = (name: string) => `variable:${name}`;

const envelopeOf = (row: { keyId: string; wrappedKey: Uint8Array; ciphertext: Uint8Array; iv: Uint8Array; authTag: Uint8Array }): Envelope => ({
  keyId: row.keyId,
  wrappedKey: Buffer.from(row.wrappedKey),
  ciphertext: Buffer.from(row.ciphertext),
  iv: Buffer.from(row.iv),
  authTag: Buffer.from(row.authTag),
});

const sealedColumns = (envelope: Envelope) => ({
  keyId: envelope.keyId,
  wrappedKey: new Uint8Array(envelope.wrappedKey),
  ciphertext: new Uint8Array(envelope.ciphertext),
  iv: new Uint8Array(envelope.iv),
  authTag: new Uint8Array(envelope.authTag),
});

/** Lanes must exist in the team; they are stored sorted and once each. */
const checkLanes = async (db: Pick<Db, "lane">, teamId: string, lanes: string[]) => {
  const known = new Set((await db.lane.findMany({ where: { teamId }, select: { name: true } })).map((l) => l.name));
  const unknown = lanes.find((l) => !known.has(l));
  if (unknown !== undefined) {
    throw new AppError("USER.INPUT_VALIDATION_FAILED", `lane "${unknown}" does not exist in this team`, { location: { path: "lanes" } });
  }
  return [...new Set(lanes)].sort();
};

export const setVariable = async (db: Db, keyring: Keyring, input: SetVariableInput) => {
  if (!NAME.test(input.name)) {
    throw new AppError("USER.INPUT_VALIDATION_FAILED", `"${input.name}" is not a variable name (letters, digits and _, not starting with a digit)`, { location: { path: "name" } });
  }
  if (Buffer.byteLength(input.value) > MAX_VALUE) {
    throw new AppError("USER.INPUT_VALIDATION_FAILED", "a variable's value is at most 64 KiB", { location: { path: "value" } });
  }
  if (input.secret) checkSecretLength(input.value);
  const { teamId, name } = input;
  await db.$transaction(async (tx) => {
    const existing = await tx.teamVariable.findUnique({ where: { teamId_name: { teamId, name } } });
    if (!input.secret && input.lanes && input.lanes.length > 0) {
      throw new AppError("USER.INPUT_VALIDATION_FAILED", "only a secret has lanes; a plain variable is readable in every lane", { location: { path: "lanes" } });
    }
    const lanes = input.secret ? await checkLanes(tx, teamId, input.lanes ?? (existing?.secret ? existing.lanes : ["operator"])) : [];
    let credentialId: string | null = null;
    if (input.secret) {
      credentialId = `cred_${randomBytes(12).toString("hex")}`;
      const envelope = sealSecret(keyring, { teamId, credentialId, name: holder(name) }, input.value);
      await tx.credential.create({
        data: { id: credentialId, teamId, name: `${holder(name)}:${credentialId}`, kind: "secret", ...sealedColumns(envelope) },
      });
    }
    await tx.teamVariable.upsert({
      where: { teamId_name: { teamId, name } },
      create: { teamId, name, secret: input.secret, value: input.secret ? null : input.value, credentialId, lanes },
      update: { secret: input.secret, value: input.secret ? null : input.value, credentialId, lanes },
    });
    if (existing?.credentialId) await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId } });
    await tx.auditLog.create({
      data: { teamId, actorUserId: input.actorUserId, action: "variable.set", targetType: "variable", targetId: name, metadata: { secret: input.secret, lanes } },
    });
  });
};

export const deleteVariable = async (db: Db, input: { teamId: string; actorUserId: string; name: string }) => {
  await db.$transaction(async (tx) => {
    const existing = await tx.teamVariable.findUnique({ where: { teamId_name: { teamId: input.teamId, name: input.name } } });
    if (!existing) throw new AppError("NOT_FOUND", `variable "${input.name}" does not exist`);
    await tx.teamVariable.delete({ where: { id: existing.id } });
    if (existing.credentialId) await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId: input.teamId } });
    await tx.auditLog.create({
      data: { teamId: input.teamId, actorUserId: input.actorUserId, action: "variable.delete", targetType: "variable", targetId: input.name },
    });
  });
};

/** Opens a secret to other lanes, or closes it, without touching its value. */
export const setSecretLanes = async (db: Db, input: { teamId: string; actorUserId: string; name: string; lanes: string[] }) =>
  db.$transaction(async (tx) => {
    const existing = await tx.teamVariable.findUnique({ where: { teamId_name: { teamId: input.teamId, name: input.name } } });
    if (!existing) throw new AppError("NOT_FOUND", `variable "${input.name}" does not exist`);
    if (!existing.secret) throw new AppError("USER.INPUT_VALIDATION_FAILED", `"${input.name}" is not a secret; only a secret has lanes`, { location: { path: "name" } });
    const lanes = await checkLanes(tx, input.teamId, input.lanes);
    await tx.teamVariable.update({ where: { id: existing.id }, data: { lanes } });
    await tx.auditLog.create({
      data: { teamId: input.teamId, actorUserId: input.actorUserId, action: "variable.lanes", targetType: "variable", targetId: input.name, metadata: { lanes } },
    });
    return { name: input.name, lanes };
  });

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
    (await db.teamVariable.findMany({ where: { teamId, secret: true }, select: { name: true, lanes: true } })).map((v) => [
      v.name,
      { name: v.name, lanes: v.lanes ?? [] },
    ]),
  );

/**
 * The values of the named variables for a run in `runLane`, secrets opened; `secrets` lists
 * those to scrub. A secret not open to the run's lane is refused before anything is opened.
 */
export const resolveVariables = async (db: Db, keyring: Keyring, teamId: string, names: string[], runLane: string) => {
  const rows = await db.teamVariable.findMany({ where: { teamId, name: { in: names } } });
  for (const row of rows) {
    const denied = row.secret ? mayUseSecret({ name: row.name, lanes: row.lanes ?? [] }, runLane) : undefined;
    if (denied) throw denied;
  }
  const credentialIds = rows.flatMap((r) => (r.secret && r.credentialId ? [r.credentialId] : []));
  const credentials = new Map(
    (await db.credential.findMany({ where: { teamId, id: { in: credentialIds } } })).map((c) => [c.id, c]),
  );
  const values: Record<string, string> = {};
  const secrets: string[] = [];
  for (const row of rows) {
    if (!row.secret) {
      values[row.name] = row.value ?? "";
      continue;
    }
    const credential = row.credentialId ? credentials.get(row.credentialId) : undefined;
    if (!credential) throw new AppError("SYSTEM.CREDENTIAL_MISSING", `secret variable "${row.name}" has no stored value`);
    const value = openSecret(keyring, { teamId, credentialId: credential.id, name: holder(row.name) }, envelopeOf(credential));
    values[row.name] = value;
    secrets.push(value);
  }
  return { values, secrets };
};

/**
 * Re-seals the secrets sealed before envelopes bound the variable's name (format 1) to the
 * current format, bound to the name they were sealed for (recorded in the credential's own
 * name when it was written), under the current master key. The worker runs it at boot; it
 * is idempotent, and a credential that another variable now points at, or that does not
 * open, is left as it is (and so never opens for a run).
 */
export const resealLegacySecrets = async (db: Db, keyring: Keyring) => {
  const result = { resealed: 0, skipped: [] as string[] };
  const legacy = await db.credential.findMany({ where: { sealFormat: 1, name: { startsWith: holder("") } } });
  if (legacy.length === 0) return result;
  const rows = await db.teamVariable.findMany({ where: { credentialId: { in: legacy.map((c) => c.id) } }, select: { teamId: true, name: true, credentialId: true } });
  for (const credential of legacy) {
    const row = rows.find((r) => r.credentialId === credential.id && r.teamId === credential.teamId);
    if (!row || credential.name !== `${holder(row.name)}:${credential.id}`) {
      result.skipped.push(credential.id);
      continue;
    }
    const owner = { teamId: credential.teamId, credentialId: credential.id, name: holder(row.name) };
    let value: string;
    try {
      value = openSecret(keyring, owner, envelopeOf(credential), 1);
    } catch {
      result.skipped.push(credential.id);
      continue;
    }
    const { count } = await db.credential.updateMany({
      where: { id: credential.id, teamId: credential.teamId, sealFormat: 1 },
      data: { ...sealedColumns(sealSecret(keyring, owner, value)), sealFormat: 2 },
    });
    result.resealed += count;
  }
  return result;
};
