/**
 * A team's access to each model vendor, as stored: the endpoint or allowed endpoints, and
 * the API key as the envelope it was sealed into (in a Credential row named after the
 * vendor), with its last four characters as a hint. Listing never reads a credential; the
 * envelope is handed out only to open it for a step. Sealing, opening and auditing happen
 * in the callers; nothing here holds a key.
 */
import { modelKeyHolder } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import type { PrismaClientOrTransaction } from "../transaction";
import { envelopeOf, sealedColumns } from "./sealed-columns";
import type { SealedValue } from "./variables";

/** A new key: its envelope and the hint shown for it. */
export type SealedModelKey = SealedValue & { hint: string };

/**
 * `key`: a new key, `null` to drop the stored one, unset to keep it. `endpoint` and
 * `allowedEndpoints` are stored as given, already checked.
 */
type StoreModelAccessInput = {
  teamId: string;
  vendor: string;
  endpoint: string | null;
  allowedEndpoints: string[];
  key?: SealedModelKey | null;
};

const credentialName = (vendor: string, credentialId: string) =>
  `${modelKeyHolder(vendor)}:${credentialId}`;

const listed = {
  vendor: true,
  endpoint: true,
  allowedEndpoints: true,
  credentialId: true,
  keyHint: true,
  updatedAt: true,
} as const;

/** What anyone in the team may see of a row: whether a key is set and its hint, never the key. */
const visible = (row: {
  vendor: string;
  endpoint: string | null;
  allowedEndpoints: string[];
  credentialId: string | null;
  keyHint: string | null;
  updatedAt: Date;
}) => ({
  vendor: row.vendor,
  endpoint: row.endpoint,
  allowedEndpoints: row.allowedEndpoints,
  keySet: row.credentialId !== null,
  keyHint: row.credentialId !== null ? row.keyHint : null,
  updatedAt: row.updatedAt,
});

export type ModelAccessRow = ReturnType<typeof visible>;

/** The team's model access, by vendor, without the sealed keys. */
export const listModelAccess = async (
  db: PrismaClientOrTransaction,
  teamId: string,
): Promise<ModelAccessRow[]> =>
  (
    await db.modelAccess.findMany({ where: { teamId }, select: listed, orderBy: { vendor: "asc" } })
  ).map(visible);

/** The team's model access for that vendor; undefined when there is none. */
export const findModelAccess = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  vendor: string,
): Promise<ModelAccessRow | undefined> => {
  const row = await db.modelAccess.findUnique({
    where: { teamId_vendor: { teamId, vendor } },
    select: listed,
  });
  return row ? visible(row) : undefined;
};

/** Writes a vendor's access (and a new key's credential, dropping the one it replaces). Run it in a transaction. */
export const storeModelAccess = async (
  tx: PrismaClientOrTransaction,
  input: StoreModelAccessInput,
): Promise<ModelAccessRow> => {
  const { teamId, vendor, endpoint, allowedEndpoints, key } = input;
  const existing = await tx.modelAccess.findUnique({
    where: { teamId_vendor: { teamId, vendor } },
    select: { credentialId: true },
  });
  if (key) {
    const { envelope } = key;
    await tx.credential.create({
      data: {
        id: key.credentialId,
        teamId,
        name: credentialName(vendor, key.credentialId),
        kind: "api_key",
        ...sealedColumns(envelope),
      },
    });
  }
  const keyColumns =
    key === undefined
      ? {}
      : { credentialId: key?.credentialId ?? null, keyHint: key?.hint ?? null };
  const row = await tx.modelAccess.upsert({
    where: { teamId_vendor: { teamId, vendor } },
    create: { teamId, vendor, endpoint, allowedEndpoints, ...keyColumns },
    update: { endpoint, allowedEndpoints, ...keyColumns },
    select: listed,
  });
  if (key !== undefined && existing?.credentialId)
    await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId } });
  return visible(row);
};

/** Removes a vendor's access and its key's credential; NOT_FOUND when there is none. */
export const removeModelAccess = async (
  tx: PrismaClientOrTransaction,
  input: { teamId: string; vendor: string },
) => {
  const existing = await tx.modelAccess.findUnique({
    where: { teamId_vendor: { teamId: input.teamId, vendor: input.vendor } },
  });
  if (!existing) throw new AppError("NOT_FOUND", `the team has no access set for ${input.vendor}`);
  await tx.modelAccess.delete({ where: { id: existing.id } });
  if (existing.credentialId)
    await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId: input.teamId } });
};

type StoredModelAccess = {
  vendor: string;
  endpoint: string | null;
  allowedEndpoints: string[];
  sealed: SealedValue | undefined;
};

/** A vendor's access for a step of the team, with the key's envelope to open; undefined when none is set. */
export const modelAccessForStep = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  vendor: string,
): Promise<StoredModelAccess | undefined> => {
  const row = await db.modelAccess.findUnique({
    where: { teamId_vendor: { teamId, vendor } },
    include: { credential: true },
  });
  if (!row) return undefined;
  const { credential } = row;
  if (credential && credential.teamId !== teamId) {
    throw new AppError(
      "SYSTEM.CREDENTIAL_UNREADABLE",
      `the ${vendor} key of this team is held by another team`,
    );
  }
  const sealed = credential
    ? {
        credentialId: credential.id,
        envelope: envelopeOf(credential),
      }
    : undefined;
  return {
    vendor: row.vendor,
    endpoint: row.endpoint,
    allowedEndpoints: row.allowedEndpoints,
    sealed,
  };
};
