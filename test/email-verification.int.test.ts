/**
 * Whether an account's email is known to be its owner's, on a real database: a sign-up
 * through an invitation bound to that email verifies it (the link went there); one through
 * an unbound invitation does not (anyone holding the link chose the address); a first
 * sign-in through an issuer that verified the email does, and one that did not does not.
 * An issuer's verified sign-in takes over an unverified account with its email (password,
 * sessions, tokens and other sign-ins gone), and a first sign-in of someone unknown needs
 * an invitation unless sign-up is open. The browser test of the same through a real
 * issuer is apps/web/e2e/oidc.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInvitation, linkOidcSignIn, verifyPassword, type Db } from "@switchyard/db";
import { refreshSessionToken } from "~/server/auth/session-token";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

const ISSUER = "https://idp.example.com";
let seeded: SeededDatabase;
let db: Db;
const anonymous = () => dashboardCaller({ db }, undefined as unknown as string);
const verifiedAt = async (email: string) =>
  (await db.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt;
const invitation = (email?: string) =>
  createInvitation(db, {
    teamId: seeded.teamId,
    createdById: seeded.adminId,
    role: "member",
    email,
    expiresAt: new Date(Date.now() + 3_600_000),
  });

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
    await anonymous().invitations.signUp({
      token: bound.token,
      name: "Bound",
      email: "bound@test.local",
      password: "long-enough-password",
    });
    expect(await verifiedAt("bound@test.local")).toBeInstanceOf(Date);

    const open = await invitation();
    await anonymous().invitations.signUp({
      token: open.token,
      name: "Anyone",
      email: "claimed@test.local",
      password: "long-enough-password",
    });
    expect(await verifiedAt("claimed@test.local")).toBeNull();
  });

  it("is verified by a first sign-in through an issuer that verified it, and not by one that did not", async () => {
    await linkOidcSignIn(
      db,
      {
        issuer: ISSUER,
        subject: "s-verified",
        email: "sso-verified@test.local",
        emailVerified: true,
      },
      { openSignUp: true },
    );
    expect(await verifiedAt("sso-verified@test.local")).toBeInstanceOf(Date);
    const unverified = await linkOidcSignIn(
      db,
      {
        issuer: ISSUER,
        subject: "s-unverified",
        email: "sso-unverified@test.local",
        emailVerified: false,
      },
      { openSignUp: true },
    );
    expect(await verifiedAt("sso-unverified@test.local")).toBeNull();
    // A later sign-in of the same subject, now verified by the issuer, verifies it.
    expect(
      await linkOidcSignIn(db, {
        issuer: ISSUER,
        subject: "s-unverified",
        email: "sso-unverified@test.local",
        emailVerified: true,
      }),
    ).toEqual({
      userId: unverified.userId,
      outcome: "known",
    });
    expect(await verifiedAt("sso-unverified@test.local")).toBeInstanceOf(Date);
  });
});

describe("a verified sign-in through an issuer and an unverified account with its email", () => {
  it("takes the account over for the verified person: its password is dropped, its sessions end, its tokens and other sign-ins go", async () => {
    // A squatter signs up through an unbound invitation with someone else's address.
    const open = await invitation();
    const { userId } = await anonymous()
      .invitations.signUp({
        token: open.token,
        name: "Squatter",
        email: "victim@corp.test",
        password: "squatter-password",
      })
      .then(async () => ({
        userId: (await db.user.findUniqueOrThrow({ where: { email: "victim@corp.test" } })).id,
      }));
    const session = await refreshSessionToken(db, { token: {}, user: { id: userId } });
    const token = await dashboardCaller({ db }, userId).tokens.create({ name: "squatter's" });
    await db.userIdentity.create({
      data: { userId, issuer: "https://other-idp.example.com", subject: "squatter" },
    });

    // The address's owner signs in through the issuer, which verified it.
    const claimed = await linkOidcSignIn(db, {
      issuer: ISSUER,
      subject: "s-victim",
      email: "Victim@corp.test",
      emailVerified: true,
      name: "Victim",
    });
    expect(claimed).toEqual({ userId, outcome: "claimed" });

    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.passwordHash).toBeNull();
    expect(user.emailVerifiedAt).toBeInstanceOf(Date);
    expect(await verifyPassword(db, "victim@corp.test", "squatter-password")).toBeUndefined();
    expect(await refreshSessionToken(db, { token: session! })).toBeNull();
    expect(await db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).toMatchObject({
      revokedReason: "account_claimed",
    });
    expect((await db.userIdentity.findMany({ where: { userId } })).map((i) => i.issuer)).toEqual([
      ISSUER,
    ]);
    const entry = await db.auditLog.findFirstOrThrow({
      where: { teamId: null, action: "account.claim", targetId: userId },
    });
    expect(entry.metadata).toMatchObject({
      issuer: ISSUER,
      passwordDropped: true,
      tokensRevoked: 1,
      signInsRemoved: 1,
    });
    // Team admins see it in their log.
    expect(
      await db.auditLog.count({
        where: { teamId: seeded.teamId, action: "member.account_claim", targetId: userId },
      }),
    ).toBe(1);
    // The next sign-in finds the person by subject.
    expect(
      await linkOidcSignIn(db, {
        issuer: ISSUER,
        subject: "s-victim",
        email: "victim@corp.test",
        emailVerified: true,
      }),
    ).toEqual({ userId, outcome: "known" });
  });

  it("never links an account the issuer did not verify the email of, nor takes one over", async () => {
    const open = await invitation();
    await anonymous().invitations.signUp({
      token: open.token,
      name: "Early",
      email: "early@corp.test",
      password: "early-password-1",
    });
    await expect(
      linkOidcSignIn(db, {
        issuer: ISSUER,
        subject: "s-early",
        email: "early@corp.test",
        emailVerified: false,
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await verifyPassword(db, "early@corp.test", "early-password-1")).toBeTruthy();
  });
});

describe("a first sign-in through an issuer of someone unknown", () => {
  const count = () => db.user.count();

  it("is refused while the installation takes new people by invitation only, and says so", async () => {
    const before = await count();
    await expect(
      linkOidcSignIn(
        db,
        { issuer: ISSUER, subject: "s-stranger", email: "stranger@corp.test", emailVerified: true },
        { openSignUp: false },
      ),
    ).rejects.toMatchObject({
      code: "USER.INSTANCE.SIGN_UP_CLOSED",
      userMessage: expect.stringMatching(/invitation/) as string,
    });
    expect(await count()).toBe(before);
  });

  it("is admitted with an invitation, joining its team in the same step (a bound one only for its email)", async () => {
    const bound = await invitation("someone-else@corp.test");
    await expect(
      linkOidcSignIn(
        db,
        { issuer: ISSUER, subject: "s-invited", email: "invited@corp.test", emailVerified: true },
        { openSignUp: false, invitationToken: bound.token },
      ),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await db.user.count({ where: { email: "invited@corp.test" } })).toBe(0);

    const open = await invitation();
    const made = await linkOidcSignIn(
      db,
      { issuer: ISSUER, subject: "s-invited", email: "invited@corp.test", emailVerified: false },
      { openSignUp: false, invitationToken: open.token },
    );
    expect(made.outcome).toBe("created");
    expect(
      await db.membership.count({ where: { userId: made.userId, teamId: seeded.teamId } }),
    ).toBe(1);
    expect((await db.invitation.findUniqueOrThrow({ where: { id: open.id } })).acceptedById).toBe(
      made.userId,
    );
  });

  it("is admitted with open sign-up, or when the operator names the verified email as an instance admin's", async () => {
    expect(
      (
        await linkOidcSignIn(
          db,
          { issuer: ISSUER, subject: "s-open", email: "open@corp.test", emailVerified: true },
          { openSignUp: true },
        )
      ).outcome,
    ).toBe("created");
    const admitted = { openSignUp: false, admittedEmails: ["ops@corp.test"] };
    await expect(
      linkOidcSignIn(
        db,
        {
          issuer: ISSUER,
          subject: "s-ops-unverified",
          email: "ops@corp.test",
          emailVerified: false,
        },
        admitted,
      ),
    ).rejects.toMatchObject({
      code: "USER.INSTANCE.SIGN_UP_CLOSED",
    });
    expect(
      (
        await linkOidcSignIn(
          db,
          { issuer: ISSUER, subject: "s-ops", email: "OPS@corp.test", emailVerified: true },
          admitted,
        )
      ).outcome,
    ).toBe("created");
  });
});
