/**
 * Sign-in through an OpenID Connect issuer, as the dashboard links it: a user is found by
 * (issuer, subject); a first sign-in links to the user with the same (verified) email only
 * when the issuer verified the email, makes a new user when nobody has it (where sign-up is
 * open), and is refused when an account has the email but the issuer did not verify it.
 * The same subject at another issuer is someone else. Unverified accounts taken over:
 * email-verification.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkOidcSignIn, type Db } from "@switchyard/db";
import { refreshSessionToken } from "~/server/auth/session-token";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

const ISSUER = "https://idp.example.com";
let seeded: SeededDatabase;
let db: Db;
let memberId: string;

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  memberId = await addMember(db, seeded.teamId, {
    email: "casey@example.com",
    name: "Casey",
    role: "member",
    password: "casey-password-1",
  });
  // Casey's address is known to be Casey's (an invitation bound to it, say): a verified sign-in links, it does not take over.
  await db.user.update({ where: { id: memberId }, data: { emailVerifiedAt: new Date() } });
});
afterAll(async () => {
  await seeded?.close();
});

describe("linking an issuer's sign-in to a user", () => {
  it("refuses to link an existing account's email the issuer did not verify", async () => {
    await expect(
      linkOidcSignIn(db, {
        issuer: ISSUER,
        subject: "s-casey",
        email: "Casey@example.com",
        emailVerified: false,
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await db.userIdentity.count()).toBe(0);
  });

  it("links a verified email to its user, who then signs in into their team, and finds them by subject afterwards", async () => {
    expect(
      await linkOidcSignIn(db, {
        issuer: ISSUER,
        subject: "s-casey",
        email: "Casey@example.com",
        emailVerified: true,
      }),
    ).toEqual({ userId: memberId, outcome: "linked" });
    // Later the issuer may send another email, or none: the subject decides.
    expect(
      await linkOidcSignIn(db, {
        issuer: ISSUER,
        subject: "s-casey",
        email: "renamed@example.com",
        emailVerified: false,
      }),
    ).toEqual({ userId: memberId, outcome: "known" });
    const token = await refreshSessionToken(db, { token: {}, user: { id: memberId } });
    expect(token).toMatchObject({ sub: memberId, teamId: seeded.teamId });
  });

  it("makes a new user where sign-up is open, with no password and no team, for an email nobody has; the same subject elsewhere is another person", async () => {
    const made = await linkOidcSignIn(
      db,
      {
        issuer: ISSUER,
        subject: "s-new",
        email: "new@example.com",
        emailVerified: false,
        name: "New Person",
      },
      { openSignUp: true },
    );
    expect(made.outcome).toBe("created");
    const user = await db.user.findUniqueOrThrow({ where: { id: made.userId } });
    expect(user).toMatchObject({
      email: "new@example.com",
      name: "New Person",
      passwordHash: null,
    });
    expect(await refreshSessionToken(db, { token: {}, user: { id: made.userId } })).toMatchObject({
      sub: made.userId,
      teamId: undefined,
    });

    const elsewhere = await linkOidcSignIn(
      db,
      {
        issuer: "https://other-idp.example.com",
        subject: "s-new",
        email: "other@example.com",
        emailVerified: true,
      },
      { openSignUp: true },
    );
    expect(elsewhere.userId).not.toBe(made.userId);
    await expect(linkOidcSignIn(db, { issuer: ISSUER, subject: "s-nomail" })).rejects.toMatchObject(
      { code: "UNAUTHORIZED" },
    );
  });
});
