/**
 * Password reset links: only the hash is stored; a team admin's link is mailed through a
 * real SMTP server (smtp-server on loopback) to the member's own address and shown to
 * nobody, and without SMTP only an instance admin is shown a link for someone else; it
 * works once, within the hour, and ends the member's old sessions. Admins reset members
 * and viewers, owners anyone but themselves. The account takeover across teams (an admin
 * of team B invites team A's owner, resets, signs in as them) fails, and a password
 * change revokes the API tokens made since a reset link was issued, listed with why.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePassword, createTeamWithOwner, verifyPassword, type Db } from "@switchyard/db";
import { refreshSessionToken } from "~/server/auth/session-token";
import { issuePasswordReset, resetPassword } from "~/server/members/password-reset";
import { openSmtpInbox, type SmtpInbox } from "./helpers/smtp-inbox";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

let seeded: SeededDatabase;
let db: Db;
let adminId: string;
let memberId: string;
let smtp: SmtpInbox | undefined;
const mails: { to: string; body: string }[] = [];
const admin = () => ({
  teamId: seeded.teamId,
  userId: adminId,
  role: "admin" as const,
  instanceAdmin: false,
});
const instanceAdmin = () => ({
  teamId: seeded.teamId,
  userId: seeded.adminId,
  role: "owner" as const,
  instanceAdmin: true,
});
const mailDeps = () => ({
  db,
  mail: { smtpUrl: smtp!.url, from: "Switchyard <sy@test.local>" },
  baseUrl: "https://sy.example.com",
});
const mailedLink = () =>
  /https:\/\/sy\.example\.com\/reset\/(pwr_[A-Za-z0-9_-]{43})/.exec(
    mails.at(-1)!.body.replace(/=\r?\n/g, ""),
  )![1]!;

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  adminId = await addMember(db, seeded.teamId, {
    email: "admin2@test.local",
    name: "Admin Two",
    role: "admin",
  });
  memberId = await addMember(db, seeded.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
    password: "old-password-1",
  });
  smtp = await openSmtpInbox(mails);
});
afterAll(async () => {
  await smtp?.close();
  await seeded?.close();
});

describe("password reset links", () => {
  it("shows an instance admin the link once without SMTP, stores only its hash, sets the password once and ends old sessions", async () => {
    const session = await refreshSessionToken(db, { token: {}, user: { id: memberId } });
    const issued = await dashboardCaller({ db }, seeded.adminId).members.issuePasswordReset({
      userId: memberId,
    });
    expect(issued.mailedTo).toBeNull();
    const token = issued.path!.replace("/reset/", "");
    expect(issued.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    const row = await db.passwordReset.findFirstOrThrow({ where: { userId: memberId } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));

    await expect(resetPassword(db, { token, password: "short" })).rejects.toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
    });
    expect(await resetPassword(db, { token, password: "brand-new-password" })).toEqual({
      email: "member@test.local",
    });
    expect(await verifyPassword(db, "member@test.local", "brand-new-password")).toBeTruthy();
    expect(await verifyPassword(db, "member@test.local", "old-password-1")).toBeUndefined();
    expect(await refreshSessionToken(db, { token: session! })).toBeNull();
    await expect(
      resetPassword(db, { token, password: "another-password-2" }),
    ).rejects.toMatchObject({ code: "USER.LINK.UNUSABLE", userMessage: /already used/ });
  });

  it("refuses an expired link", async () => {
    const issued = await issuePasswordReset({ db }, instanceAdmin(), { userId: memberId });
    await db.passwordReset.updateMany({
      where: { userId: memberId, usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(
      resetPassword(db, {
        token: issued.path!.replace("/reset/", ""),
        password: "brand-new-password",
      }),
    ).rejects.toMatchObject({ userMessage: /expired/ });
  });

  it("mails the link through the SMTP server when there is one, and shows it to nobody", async () => {
    await db.user.update({ where: { id: memberId }, data: { emailVerifiedAt: null } });
    const issued = await issuePasswordReset(mailDeps(), admin(), { userId: memberId });
    expect(issued).toMatchObject({ mailedTo: "member@test.local", path: null });
    expect(mails.at(-1)!.to).toBe("member@test.local");
    expect(await resetPassword(db, { token: mailedLink(), password: "mailed-password-3" })).toEqual(
      {
        email: "member@test.local",
      },
    );
    // The link reached the address: it is the member's.
    expect(
      (await db.user.findUniqueOrThrow({ where: { id: memberId } })).emailVerifiedAt,
    ).toBeInstanceOf(Date);
  });

  it("never gives a team admin a link for someone else without SMTP, and says what to do instead", async () => {
    await expect(
      dashboardCaller({ db }, adminId).members.issuePasswordReset({ userId: memberId }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
      cause: { code: "USER.ACCOUNT.RESET_NEEDS_MAIL" },
      message: /instance admin/,
    });
  });

  it("lets admins reset members and viewers only, owners anyone but themselves", async () => {
    const otherAdmin = await addMember(db, seeded.teamId, {
      email: "admin3@test.local",
      name: "Admin Three",
      role: "admin",
    });
    await expect(
      dashboardCaller({ db }, adminId).members.issuePasswordReset({ userId: otherAdmin }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      dashboardCaller({ db }, adminId).members.issuePasswordReset({ userId: seeded.adminId }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      dashboardCaller({ db }, memberId).members.issuePasswordReset({ userId: adminId }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      dashboardCaller({ db }, seeded.adminId).members.issuePasswordReset({
        userId: seeded.adminId,
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(
      (
        await dashboardCaller({ db }, seeded.adminId).members.issuePasswordReset({
          userId: otherAdmin,
        })
      ).path,
    ).toMatch(/^\/reset\/pwr_/);
  });
});

describe("taking over an account through a reset", () => {
  it("fails for an admin of another team who invites the account's owner and resets its password", async () => {
    // Team A, owned by its owner, who has a password and is signed in.
    const ownerA = await addMember(db, seeded.teamId, {
      email: "owner-a@test.local",
      name: "Owner A",
      role: "owner",
      password: "owner-a-password",
    });
    const session = await refreshSessionToken(db, { token: {}, user: { id: ownerA } });
    // The attacker: any account, owner of a team of their own.
    const attacker = await db.user.create({
      data: { email: "attacker@test.local", name: "Attacker" },
    });
    const teamB = (await createTeamWithOwner(db, { name: "Team B", ownerId: attacker.id })).id;
    const invitation = await dashboardCaller({ db }, attacker.id, teamB).invitations.create({
      role: "member",
    });
    await dashboardCaller({ db }, ownerA).invitations.accept({ token: invitation.token });

    // Without SMTP: refused, and nothing is made.
    const before = await db.passwordReset.count();
    await expect(
      dashboardCaller({ db }, attacker.id, teamB).members.issuePasswordReset({ userId: ownerA }),
    ).rejects.toMatchObject({
      cause: { code: "USER.ACCOUNT.RESET_NEEDS_MAIL" },
    });
    expect(await db.passwordReset.count()).toBe(before);
    // With SMTP: the link goes to the owner's own address; the attacker sees none.
    const mailed = await issuePasswordReset(
      mailDeps(),
      { teamId: teamB, userId: attacker.id, role: "owner", instanceAdmin: false },
      { userId: ownerA },
    );
    expect(mailed).toMatchObject({ mailedTo: "owner-a@test.local", path: null });
    expect(mails.at(-1)!.to).toBe("owner-a@test.local");
    expect(JSON.stringify(mailed)).not.toContain("pwr_");

    // The owner's password and session hold; team A is still theirs alone.
    expect(await verifyPassword(db, "owner-a@test.local", "owner-a-password")).toBeTruthy();
    expect(await refreshSessionToken(db, { token: session! })).not.toBeNull();
    expect(
      await db.membership.count({ where: { teamId: seeded.teamId, userId: attacker.id } }),
    ).toBe(0);
  });
});

describe("API tokens and a password change", () => {
  const tokenState = async (id: string) =>
    db.apiToken.findUniqueOrThrow({
      where: { id },
      select: { revokedAt: true, revokedReason: true },
    });

  it("revokes the tokens made since a reset link was issued at the next password change, even one through a newer link, and keeps older ones", async () => {
    const victim = await addMember(db, seeded.teamId, {
      email: "victim@test.local",
      name: "Victim",
      role: "admin",
      password: "victim-password-1",
    });
    const older = await dashboardCaller({ db }, victim).tokens.create({
      name: "made before any reset",
    });

    // Someone gets a link (say, from a mailbox that was not the victim's alone), sets a password, makes a token.
    const first = await issuePasswordReset({ db }, instanceAdmin(), { userId: victim });
    await resetPassword(db, {
      token: first.path!.replace("/reset/", ""),
      password: "someone-elses-1",
    });
    const planted = await dashboardCaller({ db }, victim).tokens.create({
      name: "made after the reset",
    });

    // The victim gets the account back through a new link.
    const second = await issuePasswordReset({ db }, instanceAdmin(), { userId: victim });
    await resetPassword(db, {
      token: second.path!.replace("/reset/", ""),
      password: "victim-password-2",
    });
    expect(await tokenState(planted.id)).toMatchObject({ revokedReason: "password_changed" });
    expect((await tokenState(planted.id)).revokedAt).toBeInstanceOf(Date);
    expect(await tokenState(older.id)).toMatchObject({ revokedAt: null });
    const listed = (await dashboardCaller({ db }, victim).tokens.list()).find(
      (t) => t.id === planted.id,
    );
    expect(listed).toMatchObject({ revokedReason: "password_changed" });
    const audit = await db.auditLog.findFirstOrThrow({
      where: { teamId: seeded.teamId, action: "api_token.revoke", targetId: victim },
    });
    expect(audit.metadata).toMatchObject({ reason: "password_changed", tokens: [planted.prefix] });
  });

  it("revokes them too when the password is changed on the Account page, and from then on leaves new ones be", async () => {
    const user = await addMember(db, seeded.teamId, {
      email: "changer@test.local",
      name: "Changer",
      role: "member",
      password: "changer-password-1",
    });
    const issued = await issuePasswordReset({ db }, instanceAdmin(), { userId: user });
    await resetPassword(db, {
      token: issued.path!.replace("/reset/", ""),
      password: "changer-password-2",
    });
    const after = await dashboardCaller({ db }, user).tokens.create({ name: "after the reset" });
    await changePassword(db, user, "changer-password-2", "changer-password-3");
    expect(await tokenState(after.id)).toMatchObject({ revokedReason: "password_changed" });
    // A password changed by its owner closes the window: the next change revokes nothing made since.
    const later = await dashboardCaller({ db }, user).tokens.create({ name: "later" });
    await changePassword(db, user, "changer-password-3", "changer-password-4");
    expect(await tokenState(later.id)).toMatchObject({ revokedAt: null });
  });
});

describe("an instance admin's reset links", () => {
  it("are for anyone on the installation but themselves, shown once without SMTP, and audited without a team", async () => {
    const outsider = await db.user.create({
      data: { email: "outsider@test.local", name: "Outsider" },
    });
    await expect(
      dashboardCaller({ db }, adminId).instance.issuePasswordReset({ userId: outsider.id }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      dashboardCaller({ db }, seeded.adminId).instance.issuePasswordReset({
        userId: seeded.adminId,
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const issued = await dashboardCaller({ db }, seeded.adminId).instance.issuePasswordReset({
      userId: outsider.id,
    });
    expect(issued.path).toMatch(/^\/reset\/pwr_/);
    const entry = await db.auditLog.findFirstOrThrow({
      where: { teamId: null, action: "password_reset.create", targetId: outsider.id },
    });
    expect(entry.actorUserId).toBe(seeded.adminId);
    const found = await dashboardCaller({ db }, seeded.adminId).instance.people({
      query: "outsider",
    });
    expect(found.map((p) => p.email)).toEqual(["outsider@test.local"]);
  });
});

describe("a mailed reset link and an unverified account", () => {
  it("lets the address's owner take the account over: whoever made it loses its tokens and sign-ins", async () => {
    const squatted = await addMember(db, seeded.teamId, {
      email: "squatted@test.local",
      name: "Squatter",
      role: "member",
      password: "squatter-password",
    });
    const token = await dashboardCaller({ db }, squatted).tokens.create({ name: "squatter's" });
    await db.userIdentity.create({
      data: { userId: squatted, issuer: "https://idp.example.com", subject: "squatter" },
    });
    await issuePasswordReset(mailDeps(), admin(), { userId: squatted });
    await resetPassword(db, { token: mailedLink(), password: "owners-password-1" });
    expect(await db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).toMatchObject({
      revokedReason: "account_claimed",
    });
    expect(await db.userIdentity.count({ where: { userId: squatted } })).toBe(0);
    expect(await verifyPassword(db, "squatted@test.local", "owners-password-1")).toBeTruthy();
    expect(
      (await db.user.findUniqueOrThrow({ where: { id: squatted } })).emailVerifiedAt,
    ).toBeInstanceOf(Date);
    expect(
      await db.auditLog.count({
        where: { teamId: null, action: "account.claim", targetId: squatted },
      }),
    ).toBe(1);
  });
});
