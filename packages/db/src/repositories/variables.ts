/**
 * A team's variables, the values of a workflow's `env` names. Plain ones are stored as
 * they are; secret ones are write-only: sealed in a Credential envelope, never listed,
 * opened only by the worker when a run asks for them. Every change is audited, without
 * its value.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import { openSecret, sealSecret, type Keyring } from "@switchyard/core/crypto";
import { checkSecretLength } from "@switchyard/core/secrets";
import type { Db } from "../client";

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const MAX_VALUE = 64 * 1024;

export type SetVariableInput = { teamId: string; actorUserId: string; name: string; value: string; secret: boolean };

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
    let credentialId: string | null = null;
    if (input.secret) {
      credentialId = `cred_${randomBytes(12).toString("hex")}`;
      const envelope = sealSecret(keyring, { teamId, credentialId }, input.value);
      await tx.credential.create({
        data: {
          id: credentialId,
          teamId,
          name: `variable:${name}:${credentialId}`,
          kind: "secret",
          keyId: envelope.keyId,
          wrappedKey: new Uint8Array(envelope.wrappedKey),
          ciphertext: new Uint8Array(envelope.ciphertext),
          iv: new Uint8Array(envelope.iv),
          authTag: new Uint8Array(envelope.authTag),
        },
      });
    }
    await tx.teamVariable.upsert({
      where: { teamId_name: { teamId, name } },
      create: { teamId, name, secret: input.secret, value: input.secret ? null : input.value, credentialId },
      update: { secret: input.secret, value: input.secret ? null : input.value, credentialId },
    });
    if (existing?.credentialId) await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId } });
    await tx.auditLog.create({
      data: { teamId, actorUserId: input.actorUserId, action: "variable.set", targetType: "variable", targetId: name, metadata: { secret: input.secret } },
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

/** Names, kinds and plain values; a secret's value is never read here. */
export const listVariables = async (db: Db, teamId: string) =>
  (await db.teamVariable.findMany({ where: { teamId }, orderBy: { name: "asc" } })).map((v) => ({
    name: v.name,
    secret: v.secret,
    value: v.secret ? null : v.value,
    updatedAt: v.updatedAt,
  }));

/** The values of the named variables for a run, secrets opened; `secrets` lists those to scrub. */
export const resolveVariables = async (db: Db, keyring: Keyring, teamId: string, names: string[]) => {
  const rows = await db.teamVariable.findMany({ where: { teamId, name: { in: names } } });
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
    const value = openSecret(keyring, { teamId, credentialId: credential.id }, {
      keyId: credential.keyId,
      wrappedKey: Buffer.from(credential.wrappedKey),
      ciphertext: Buffer.from(credential.ciphertext),
      iv: Buffer.from(credential.iv),
      authTag: Buffer.from(credential.authTag),
    });
    values[row.name] = value;
    secrets.push(value);
  }
  return { values, secrets };
};
