/**
 * Master key rotation, as stored: the credentials (and the kept sign-in ID tokens) whose
 * data key is still wrapped by an older master key, a batch at a time, and the new wrapping written only if nobody re-sealed
 * the row meanwhile. Unwrapping and wrapping happen in the caller; nothing here holds a key.
 */
import type { Envelope, SealFormat } from "@switchyard/core/crypto";
import type { Db } from "../client";
import { envelopeOf } from "./sealed-columns";

type SealedCredential = {
  id: string;
  teamId: string;
  holder: string;
  format: SealFormat;
  envelope: Envelope;
};

/** What a credential row's envelope is bound to: its name without the trailing `:<credential id>`. */
const holderOf = (name: string, id: string) =>
  name.endsWith(`:${id}`) ? name.slice(0, -(id.length + 1)) : name;

export const credentialsNotUnder = async (
  db: Db,
  keyId: string,
  take: number,
  after?: string,
): Promise<SealedCredential[]> =>
  (
    await db.credential.findMany({
      where: { keyId: { not: keyId }, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take,
    })
  ).map((row) => ({
    id: row.id,
    teamId: row.teamId,
    holder: holderOf(row.name, row.id),
    format: row.sealFormat === 1 ? 1 : 2,
    envelope: envelopeOf(row),
  }));

/** Writes a re-wrapped data key; false when the row changed since it was read (left for the next pass). */
export const storeRewrappedKey = async (
  db: Db,
  input: { id: string; fromKeyId: string; envelope: Envelope },
) =>
  (
    await db.credential.updateMany({
      where: { id: input.id, keyId: input.fromKeyId },
      data: rewrapped(input.envelope),
    })
  ).count === 1;

/** The columns a re-wrapped data key changes. */
const rewrapped = (envelope: Envelope) => ({
  keyId: envelope.keyId,
  wrappedKey: new Uint8Array(envelope.wrappedKey),
});

/** Kept sign-in ID tokens whose data key is not wrapped by `keyId`, a batch at a time (by identity id). */
export const ssoIdTokensNotUnder = async (db: Db, keyId: string, take: number, after?: string) =>
  (
    await db.ssoIdToken.findMany({
      where: { keyId: { not: keyId }, ...(after ? { identityId: { gt: after } } : {}) },
      orderBy: { identityId: "asc" },
      take,
      include: { identity: { select: { issuer: true } } },
    })
  ).map((row) => ({
    identityId: row.identityId,
    issuer: row.identity.issuer,
    envelope: envelopeOf(row),
  }));

/** Writes a kept ID token's re-wrapped data key; false when it was replaced since it was read. */
export const storeRewrappedSsoIdToken = async (
  db: Db,
  {
    identityId,
    fromKeyId,
    envelope,
  }: { identityId: string; fromKeyId: string; envelope: Envelope },
) => {
  const where = { identityId, keyId: fromKeyId };
  const { count } = await db.ssoIdToken.updateMany({ where, data: rewrapped(envelope) });
  return count === 1;
};
