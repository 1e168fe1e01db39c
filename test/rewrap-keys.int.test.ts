/**
 * Rotating the master key: credentials of every kind (a secret variable, a model key, a
 * connector's credential) and the kept ID token of a member's sign-in sealed under the old key are re-wrapped under the new one by
 * `npm run keys:rewrap` (its entry run as a process against this database), after which
 * they open with the new key alone; their values are unchanged, a second run has nothing
 * to do, and a credential it cannot open is named while the others are still re-wrapped.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  keyringOf,
  openConnectorCredential,
  openSsoIdToken,
  parseMasterKey,
} from "@switchyard/core/crypto";
import { connectorCredentialForUse, ssoIdTokenOf, type Db } from "@switchyard/db";
import { teamModelAccess } from "../apps/worker/src/model-access";
import { rewrapCredentials } from "../apps/worker/src/rewrap-credentials";
import { resolveTeamVariables } from "../apps/worker/src/team-variables";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { signInThroughIssuer } from "./helpers/sign-in-stand-in";

const OLD = { id: "k1", key: randomBytes(32).toString("base64") };
const NEW = { id: "k2", key: randomBytes(32).toString("base64") };
const before = keyringOf(parseMasterKey(OLD.id, OLD.key));
const during = keyringOf(parseMasterKey(NEW.id, NEW.key), [parseMasterKey(OLD.id, OLD.key)]);
const after = keyringOf(parseMasterKey(NEW.id, NEW.key));
let seeded: SeededDatabase;
let db: Db;
const ISSUER = "https://sso.rewrap.example";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const ID_TOKEN = `${b64({ alg: "RS256" })}.${b64({ iss: ISSUER, sub: "member-7" })}.c2lnbmF0dXJl`;

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  const admin = dashboardCaller({ db, keyring: before }, seeded.adminId);
  await admin.variables.set({
    name: "OPS_KEY",
    value: "ops-key-value-5678",
    secret: true,
    lanes: ["operator"],
  });
  await admin.models.set({ vendor: "anthropic", apiKey: "sk-ant-api03-Rotated-Key-4d8e" });
  await admin.connectors.create({
    definition: {
      id: "files",
      name: "Files",
      transport: "stdio",
      command: "node",
      args: ["/opt/connectors/server.js"],
      credential_env: "FILES_TOKEN",
    },
  });
  await admin.connectors.setCredential({
    id: "files",
    scope: "team",
    value: "files-token-2c7e9a14",
  });
  await signInThroughIssuer({ db, keyring: before }, seeded.adminId, {
    issuer: ISSUER,
    idToken: ID_TOKEN,
  });
});
afterAll(async () => {
  await seeded?.close();
});

const openAll = async (keyring: typeof after) => {
  const variables = await resolveTeamVariables(db, keyring, seeded.teamId, ["OPS_KEY"], "operator");
  const model = await teamModelAccess(db, keyring, seeded.teamId, "anthropic");
  const stored = (await connectorCredentialForUse(db, {
    teamId: seeded.teamId,
    slug: "files",
    owner: "team",
  }))!;
  const connector = openConnectorCredential(
    keyring,
    {
      teamId: seeded.teamId,
      credentialId: stored.sealed.credentialId,
      connector: "files",
      owner: "team",
    },
    stored.sealed.envelope,
  );
  const kept = (await ssoIdTokenOf(db, {
    teamId: seeded.teamId,
    userId: seeded.adminId,
    issuer: ISSUER,
  }))!;
  const idToken = openSsoIdToken(
    keyring,
    { identityId: kept.identityId, issuer: kept.issuer },
    kept.envelope,
  );
  return [variables.values.OPS_KEY, model?.apiKey, connector, idToken];
};

it("re-wraps every credential under the new key, after which the old key is no longer needed", async () => {
  await expect(openAll(after)).rejects.toMatchObject({ code: "SYSTEM.CREDENTIAL_KEY_MISSING" });
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "../apps/worker/src/keys-rewrap.ts")],
    {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: seeded.url,
        REDIS_URL: process.env.REDIS_URL,
        SWITCHYARD_MASTER_KEY: NEW.key,
        SWITCHYARD_MASTER_KEY_ID: NEW.id,
        SWITCHYARD_MASTER_KEYS_RETIRED: `${OLD.id}:${OLD.key}`,
      },
      encoding: "utf8",
    },
  );
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain(
    're-wrapped 3 credential(s) and 1 kept sign-in ID token(s) under master key "k2"',
  );
  expect(await openAll(after)).toEqual([
    "ops-key-value-5678",
    "sk-ant-api03-Rotated-Key-4d8e",
    "files-token-2c7e9a14",
    ID_TOKEN,
  ]);
  expect(await rewrapCredentials(db, during)).toEqual({
    rewrapped: 0,
    idTokensRewrapped: 0,
    skipped: 0,
    failed: [],
  });
});

it("names a credential it cannot open and still re-wraps the others", async () => {
  const admin = dashboardCaller({ db, keyring: before }, seeded.adminId);
  await admin.connectors.setCredential({
    id: "files",
    scope: "team",
    value: "files-token-second-91b3",
  });
  await admin.variables.set({
    name: "OTHER",
    value: "other-value-4411",
    secret: true,
    lanes: ["operator"],
  });
  // An envelope altered at rest: it cannot be opened, so it cannot be re-wrapped.
  const broken = (await connectorCredentialForUse(db, {
    teamId: seeded.teamId,
    slug: "files",
    owner: "team",
  }))!;
  await db.credential.update({
    where: { id: broken.sealed.credentialId },
    data: { wrappedKey: new Uint8Array(randomBytes(60)) },
  });
  const report = await rewrapCredentials(db, during);
  expect(report.rewrapped).toBe(1);
  expect(report.failed).toEqual([
    {
      id: broken.sealed.credentialId,
      reason: expect.stringContaining("could not be opened") as string,
    },
  ]);
  expect(
    (await resolveTeamVariables(db, after, seeded.teamId, ["OTHER"], "operator")).values.OTHER,
  ).toBe("other-value-4411");
});
