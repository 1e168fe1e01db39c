/**
 * `npm run keys:rewrap`: wraps every stored credential's data key with the current master
 * key (SWITCHYARD_MASTER_KEY / _ID), opening older ones with SWITCHYARD_MASTER_KEYS_RETIRED.
 * Prints what it did; exits 1 when a credential could not be re-wrapped (its id and why).
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { createDb } from "@switchyard/db";
import { readWorkerEnv } from "./env";
import { rewrapCredentials } from "./rewrap-credentials";

const env = readWorkerEnv(process.env);
const keyring = keyringOf(
  parseMasterKey(env.SWITCHYARD_MASTER_KEY_ID, env.SWITCHYARD_MASTER_KEY),
  env.SWITCHYARD_MASTER_KEYS_RETIRED.map((k) => parseMasterKey(k.id, k.key)),
);
const db = createDb(env.DATABASE_URL, { max: 2 });
try {
  const report = await rewrapCredentials(db, keyring);
  console.log(
    `re-wrapped ${report.rewrapped} credential(s) and ${report.idTokensRewrapped} kept sign-in ID token(s) under master key "${keyring.current.id}"; ${report.skipped} changed meanwhile (already current)`,
  );
  for (const f of report.failed) console.error(`could not re-wrap ${f.id}: ${f.reason}`);
  process.exitCode = report.failed.length > 0 ? 1 : 0;
} finally {
  await db.$disconnect();
}
