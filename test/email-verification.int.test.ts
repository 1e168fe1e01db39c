/**
 * Whether an account's email is known to be its owner's, on a real database: a sign-up
 * through an invitation bound to that email verifies it (the link went there); one through
 * an unbound invitation does not (anyone holding the link chose the address); a first
 * sign-in through an issuer that verified the email does, and one that did not does not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInvitation, linkOidcSignIn, type Db } from "@switchyard/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

const ISSUER = "https://idp.example.com";
let seeded: SeededDatabase;
let db: Db;
const anonymous = () => dashboardCaller({ db }, undefined as unknown as string);
const verifiedAt = async (email: string) => (await db.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt;
const invitation = (email?: string) =>
  createInvitation(db, { teamId: seeded.teamId, createdById: seeded.adminId, role: "member", email, expiresAt: new Date(Date.now() + 3_600_000) });

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
});
afterAll(async () => {
  await seeded?.close();
});

describe("an account's email", () => {
  it("is verified for the seeded admin", async () => {
    expect(await verifiedAt("admin@test.local")).toBeInstanceOf(Date);
  });

  it("is verified by a sign-up through an invitation bound to it, and not through an unbound one", async () => {
    const bound = await invitation("bound@test.local");
    await anonymous().invitations.signUp({ token: bound.token, name: "Bound", email: "bound@test.local", password: "long-enough-password" });
    expect(await verifiedAt("bound@test.local")).toBeInstanceOf(Date);

    const open = await invitation();
    await anonymous().invitations.signUp({ token: open.token, name: "Anyone", email: "claimed@test.local", password: "long-enough-password" });
    expect(await verifiedAt("claimed@test.local")).toBeNull();
  });

  it("is verified by a first sign-in through an issuer that verified it, and not by one that did not", async () => {
    await linkOidcSignIn(db, { issuer: ISSUER, subject: "s-verified", email: "sso-verified@test.local", emailVerified: true });
    expect(await verifiedAt("sso-verified@test.local")).toBeInstanceOf(Date);
    const unverified = await linkOidcSignIn(db, { issuer: ISSUER, subject: "s-unverified", email: "sso-unverified@test.local", emailVerified: false });
    expect(await verifiedAt("sso-unverified@test.local")).toBeNull();
    // A later sign-in of the same subject, now verified by the issuer, verifies it.
    expect(await linkOidcSignIn(db, { issuer: ISSUER, subject: "s-unverified", email: "sso-unverified@test.local", emailVerified: true })).toEqual({
      userId: unverified.userId,
      outcome: "known",
    });
    expect(await verifiedAt("sso-unverified@test.local")).toBeInstanceOf(Date);
  });
});
