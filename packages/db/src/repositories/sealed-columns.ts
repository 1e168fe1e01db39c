/**
 * A Credential row's sealed columns and the envelope they hold, both ways: what every
 * repository that stores a secret (variables, model keys, connector credentials) writes and
 * hands out to be opened. Nothing here opens or seals.
 */
import type { Envelope } from "@switchyard/core/crypto";

type SealedRow = {
  keyId: string;
  wrappedKey: Uint8Array;
  ciphertext: Uint8Array;
  iv: Uint8Array;
  authTag: Uint8Array;
};

/** The envelope a row's sealed columns hold. */
export const envelopeOf = (row: SealedRow): Envelope => ({
  keyId: row.keyId,
  wrappedKey: Buffer.from(row.wrappedKey),
  ciphertext: Buffer.from(row.ciphertext),
  iv: Buffer.from(row.iv),
  authTag: Buffer.from(row.authTag),
});

/** The sealed columns that store an envelope. */
export const sealedColumns = (envelope: Envelope) => ({
  keyId: envelope.keyId,
  wrappedKey: new Uint8Array(envelope.wrappedKey),
  ciphertext: new Uint8Array(envelope.ciphertext),
  iv: new Uint8Array(envelope.iv),
  authTag: new Uint8Array(envelope.authTag),
});
