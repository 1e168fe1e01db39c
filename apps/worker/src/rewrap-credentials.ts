/**
 * Master key rotation without downtime: every credential still wrapped by a retired master
 * key gets its data key wrapped again by the current one; the sealed values themselves are
 * not touched, so web and workers keep opening them throughout (they hold the retired keys
 * until this has run). A row re-sealed meanwhile is already under the current key and is
 * left alone. The ID tokens kept from members' sign-ins (for enterprise connectors) are
 * sealed the same way and re-wrapped too. Run it after every web and worker has the new key:
 * `npm run keys:rewrap`.
 */
import { rewrapSecret, rewrapSsoIdToken, type Keyring } from "@switchyard/core/crypto";
import {
  credentialsNotUnder,
  ssoIdTokensNotUnder,
  storeRewrappedKey,
  storeRewrappedSsoIdToken,
  type Db,
} from "@switchyard/db";

const BATCH = 200;

export type RewrapReport = {
  rewrapped: number;
  /** Kept sign-in ID tokens re-wrapped (not counted in `rewrapped`). */
  idTokensRewrapped: number;
  skipped: number;
  /** A credential's id, or `sso-id-token:<identity id>`. */
  failed: { id: string; reason: string }[];
};

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const rewrapCredentials = async (db: Db, keyring: Keyring): Promise<RewrapReport> => {
  const report: RewrapReport = { rewrapped: 0, idTokensRewrapped: 0, skipped: 0, failed: [] };
  await rewrapIdTokens(db, keyring, report);
  let after: string | undefined;
  for (;;) {
    const batch = await credentialsNotUnder(db, keyring.current.id, BATCH, after);
    if (batch.length === 0) return report;
    for (const row of batch) {
      try {
        const owner = { teamId: row.teamId, credentialId: row.id, name: row.holder };
        const envelope = rewrapSecret(keyring, owner, row.envelope, row.format);
        if (await storeRewrappedKey(db, { id: row.id, fromKeyId: row.envelope.keyId, envelope }))
          report.rewrapped++;
        else report.skipped++;
      } catch (error) {
        report.failed.push({ id: row.id, reason: reasonOf(error) });
      }
    }
    after = batch.at(-1)!.id;
  }
};

const rewrapIdTokens = async (db: Db, keyring: Keyring, report: RewrapReport) => {
  let after: string | undefined;
  for (;;) {
    const batch = await ssoIdTokensNotUnder(db, keyring.current.id, BATCH, after);
    if (batch.length === 0) return;
    for (const row of batch) {
      try {
        const envelope = rewrapSsoIdToken(keyring, row, row.envelope);
        const input = { identityId: row.identityId, fromKeyId: row.envelope.keyId, envelope };
        if (await storeRewrappedSsoIdToken(db, input)) report.idTokensRewrapped++;
        else report.skipped++;
      } catch (error) {
        report.failed.push({ id: `sso-id-token:${row.identityId}`, reason: reasonOf(error) });
      }
    }
    after = batch.at(-1)!.identityId;
  }
};
