/**
 * Credentials at rest: AES-256-GCM envelopes. Each secret gets a random data key; the data
 * key is wrapped by the master key named by `keyId` (so keys can rotate), and both layers
 * bind the team and credential ids and the name the secret is held under (a variable's
 * name) as additional data, so a ciphertext copied to another row, team or variable does
 * not open. Format 1 envelopes, sealed before names were bound, open only when asked for
 * by format, to be re-sealed.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { AppError } from "../errors/app-error";

type MasterKey = { id: string; key: Buffer };
/** Every master key still able to open envelopes, by id (the current one included). */
export type Keyring = { current: MasterKey; byId: (id: string) => Buffer | undefined };

export type Envelope = {
  keyId: string;
  wrappedKey: Buffer;
  ciphertext: Buffer;
  iv: Buffer;
  authTag: Buffer;
};
/** `name`: what holds the secret, e.g. a variable's name. */
type EnvelopeOwner = { teamId: string; credentialId: string; name: string };
/** 2 binds the owner's name; 1 (old rows only) binds the team and credential ids alone. */
export type SealFormat = 1 | 2;

const IV = 12;
const TAG = 16;

const aad = (owner: EnvelopeOwner, layer: "key" | "value", format: SealFormat) =>
  Buffer.from(
    format === 1
      ? `switchyard:${layer}:${owner.teamId}:${owner.credentialId}`
      : `switchyard:${layer}:2:${JSON.stringify([owner.teamId, owner.credentialId, owner.name])}`,
  );

const seal = (key: Buffer, plaintext: Buffer, data: Buffer) => {
  const iv = randomBytes(IV);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(data);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, authTag: cipher.getAuthTag() };
};

const open = (
  key: Buffer,
  sealed: { iv: Buffer; ciphertext: Buffer; authTag: Buffer },
  data: Buffer,
) => {
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.iv);
  decipher.setAAD(data);
  decipher.setAuthTag(sealed.authTag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
};

/** The master key from its base64 text; throws SYSTEM.CONFIG unless it is 32 bytes. */
export const parseMasterKey = (id: string, base64: string): MasterKey => {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32)
    throw new AppError("SYSTEM.CONFIG", "the master key must be 32 bytes, base64-encoded");
  return { id, key };
};

/** A keyring that seals with `current` and opens with it or any of `older`. */
export const keyringOf = (current: MasterKey, older: MasterKey[] = []): Keyring => {
  const all = new Map([...older, current].map((k) => [k.id, k.key]));
  return { current, byId: (id) => all.get(id) };
};

/** Seals `plaintext` for `owner` with the keyring's current master key. */
export const sealSecret = (
  keyring: Keyring,
  owner: EnvelopeOwner,
  plaintext: string,
  format: SealFormat = 2,
): Envelope => {
  const dataKey = randomBytes(32);
  try {
    const wrapped = seal(keyring.current.key, dataKey, aad(owner, "key", format));
    const value = seal(dataKey, Buffer.from(plaintext, "utf8"), aad(owner, "value", format));
    return {
      keyId: keyring.current.id,
      wrappedKey: Buffer.concat([wrapped.iv, wrapped.authTag, wrapped.ciphertext]),
      ciphertext: value.ciphertext,
      iv: value.iv,
      authTag: value.authTag,
    };
  } finally {
    dataKey.fill(0);
  }
};

/** Opens an envelope sealed for `owner`; throws if it was sealed for another or altered. */
export const openSecret = (
  keyring: Keyring,
  owner: EnvelopeOwner,
  envelope: Envelope,
  format: SealFormat = 2,
): string => {
  const master = keyring.byId(envelope.keyId);
  if (!master)
    throw new AppError(
      "SYSTEM.CREDENTIAL_KEY_MISSING",
      `no master key "${envelope.keyId}" is configured to open this credential`,
    );
  let dataKey: Buffer | undefined;
  try {
    const w = envelope.wrappedKey;
    dataKey = open(
      master,
      {
        iv: w.subarray(0, IV),
        authTag: w.subarray(IV, IV + TAG),
        ciphertext: w.subarray(IV + TAG),
      },
      aad(owner, "key", format),
    );
    return open(dataKey, envelope, aad(owner, "value", format)).toString("utf8");
  } catch (cause) {
    if (cause instanceof AppError) throw cause;
    throw new AppError(
      "SYSTEM.CREDENTIAL_UNREADABLE",
      "a stored credential could not be opened (wrong key, or it was altered)",
      { cause },
    );
  } finally {
    dataKey?.fill(0);
  }
};

/**
 * The same envelope with its data key wrapped by the keyring's current master key: what
 * rotating the master key does to each stored credential. The value's ciphertext is not
 * touched; the owner and format must be those it was sealed with.
 */
export const rewrapSecret = (
  keyring: Keyring,
  owner: EnvelopeOwner,
  envelope: Envelope,
  format: SealFormat = 2,
): Envelope => {
  const master = keyring.byId(envelope.keyId);
  if (!master)
    throw new AppError(
      "SYSTEM.CREDENTIAL_KEY_MISSING",
      `no master key "${envelope.keyId}" is configured to open this credential`,
    );
  let dataKey: Buffer | undefined;
  try {
    const w = envelope.wrappedKey;
    dataKey = open(
      master,
      {
        iv: w.subarray(0, IV),
        authTag: w.subarray(IV, IV + TAG),
        ciphertext: w.subarray(IV + TAG),
      },
      aad(owner, "key", format),
    );
    const wrapped = seal(keyring.current.key, dataKey, aad(owner, "key", format));
    return {
      ...envelope,
      keyId: keyring.current.id,
      wrappedKey: Buffer.concat([wrapped.iv, wrapped.authTag, wrapped.ciphertext]),
    };
  } catch (cause) {
    if (cause instanceof AppError) throw cause;
    throw new AppError(
      "SYSTEM.CREDENTIAL_UNREADABLE",
      "a stored credential could not be opened (wrong key, or it was altered)",
      { cause },
    );
  } finally {
    dataKey?.fill(0);
  }
};
