/**
 * The ID token of a member's sign-in through the configured issuer, as the sign-in's NextAuth
 * callbacks handle it: the `jwt` callback's part keeps it (sealed for the member's identity)
 * from the account NextAuth hands it at an issuer sign-in, and nothing at a password sign-in;
 * the `signOut` event's part deletes the member's kept tokens, and nobody else's.
 */
import { randomBytes } from "node:crypto";
import { keyringOf, openSsoIdToken, parseMasterKey } from "@switchyard/core/crypto";
import { ssoIdTokenOf } from "@switchyard/db";
import { afterAll, beforeAll, expect, it } from "vitest";
import { forgetSignInIdTokens, keepIdTokenOfSignIn } from "~/server/auth/keep-id-token";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const ISSUER = "https://sso.sign-in.example";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const idTokenOf = (sub: string) =>
  `${b64({ alg: "RS256" })}.${b64({ iss: ISSUER, sub, exp: Math.floor(Date.now() / 1000) + 600 })}.c2ln`;
let seeded: SeededDatabase;

beforeAll(async () => {
  seeded = await openSeededDatabase();
});
afterAll(async () => {
  await seeded?.close();
});

const link = (userId: string, subject: string) =>
  seeded.db.userIdentity.create({ data: { userId, issuer: ISSUER, subject } });

const signIn = (provider: string, subject: string, idToken: string) => {
  // Shaped as NextAuth hands them to the jwt callback.
  const account = {
    provider,
    type: provider === "oidc" ? "oidc" : "credentials",
    providerAccountId: subject,
    id_token: idToken,
  };
  const profile = { sub: subject };
  return keepIdTokenOfSignIn({ db: seeded.db, keyring }, ISSUER, { account, profile });
};

const keptOf = async (userId: string) => {
  const kept = await ssoIdTokenOf(seeded.db, { teamId: seeded.teamId, userId, issuer: ISSUER });
  return kept && openSsoIdToken(keyring, kept, kept.envelope);
};

it("keeps the ID token of an issuer sign-in from the jwt callback's account, and nothing at a password sign-in", async () => {
  await link(seeded.adminId, "admin-sub");
  await signIn("credentials", "admin-sub", idTokenOf("admin-sub"));
  expect(await keptOf(seeded.adminId)).toBeUndefined();

  const token = idTokenOf("admin-sub");
  await signIn("oidc", "admin-sub", token);
  expect(await keptOf(seeded.adminId)).toBe(token);
  // Sealed: the row holds no part of it in the clear.
  const row = await seeded.db.ssoIdToken.findFirstOrThrow();
  expect(Buffer.from(row.ciphertext).toString("utf8")).not.toContain(token.split(".")[1]);
  // The next sign-in replaces it.
  const next = idTokenOf("admin-sub") + "x";
  await signIn("oidc", "admin-sub", next);
  expect(await keptOf(seeded.adminId)).toBe(next);
});

it("deletes the member's kept ID tokens when they sign out, and nobody else's", async () => {
  const member = await addMember(seeded.db, seeded.teamId, {
    email: "signed-in@example.com",
    name: "Signed In",
    role: "member",
  });
  await link(member, "member-sub");
  const membersToken = idTokenOf("member-sub");
  await signIn("oidc", "member-sub", membersToken);
  expect(await keptOf(seeded.adminId)).toBeDefined();

  await forgetSignInIdTokens(seeded.db, { token: { sub: seeded.adminId } });
  expect(await keptOf(seeded.adminId)).toBeUndefined();
  expect(await keptOf(member)).toBe(membersToken);
  // A sign-out event without a token (a database session) deletes nothing.
  await forgetSignInIdTokens(seeded.db, { session: null });
  expect(await keptOf(member)).toBe(membersToken);
});
