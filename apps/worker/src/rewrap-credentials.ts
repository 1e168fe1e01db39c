/**
 * Master key rotation without downtime: every credential still wrapped by a retired master
 * key gets its data key wrapped again by the current one; the sealed values themselves are
 * not touched, so web and workers keep opening them throughout (they hold the retired keys
 * until this has run). A row re-sealed meanwhile is already under the current key and is
 * left alone. Run it after every web and worker has the new key: `npm run keys:rewrap`.
 */
import { rewrapSecret, type Keyring } from "@switchyard/core/crypto";
import { credentialsNotUnder, storeRewrappedKey, type Db } from "@switchyard/db";

const BATCH = 200;

export type RewrapReport = {
  rewrapped: number;
  skipped: number;
  failed: { id: string; reason: string }[];
};

export const rewrapCredentials = async (db: Db, keyring: Keyring): Promise<RewrapReport> => {
  const report: RewrapReport = { rewrapped: 0, skipped: 0, failed: [] };
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
        report.failed.push({
          id: row.id,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }
    after = batch.at(-1)!.id;
  }
};
