/**
 * Teams and people through the dashboard's procedures against a real database: a new team
 * with its owner and lanes, invitations by link (made once, accepted once, refused when
 * expired, revoked, used or for another email; a visitor signs up through one), role
 * changes and removals with the owner rules (only owners touch the owner role; a team
 * keeps its last owner), and a removed member's session ending at its next use.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { createApiToken, type Db } from "@switchyard/db";
import { createInvitationResponse, listMembersResponse } from "~/server/contract/members.types";
import { refreshSessionToken } from "~/server/auth/session-token";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restOnDatabase } from "./helpers/rest-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

let seeded: SeededDatabase;
let db: Db;
let adminId: string;
let memberId: string;
let viewerId: string;
const caller = (userId: string, teamId?: string) => dashboardCaller({ db }, userId, teamId);
const owner = () => caller(seeded.adminId, seeded.teamId);
const anonymous = () => dashboardCaller({ db }, undefined as unknown as string);

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
  });
  viewerId = await addMember(db, seeded.teamId, {
    email: "viewer@test.local",
    name: "Viewer",
    role: "viewer",
  });
});
afterAll(async () => {
  await seeded?.close();
});

describe("teams", () => {
  it("tells the session's team and the caller's role", async () => {
    expect(await caller(viewerId).teams.current()).toMatchObject({
      team: { id: seeded.teamId },
      role: "viewer",
    });
    expect(await owner().teams.current()).toMatchObject({ role: "owner" });
  });

  it("lets any signed-in user make a team where the installation allows it, owned by them, with the default and operator lanes", async () => {
    await caller(seeded.adminId).instance.update({ teamCreation: "anyone" });
    const { team } = await caller(viewerId).teams.create({ name: "Viewer's own" });
    expect(team.slug).toMatch(/^viewer-s-own-[0-9a-f]{6}$/);
    expect(await caller(viewerId, team.id).teams.current()).toMatchObject({
      team: { id: team.id },
      role: "owner",
    });
    expect((await caller(viewerId, team.id).lanes.list()).map((l) => l.name)).toEqual([
      "default",
      "operator",
    ]);
    expect((await caller(viewerId).teams.mine()).map((t) => t.role).sort()).toEqual([
      "owner",
      "viewer",
    ]);
    await expect(caller(viewerId).teams.create({ name: "  " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await caller(seeded.adminId).instance.update({ teamCreation: "instance_admins" });
  });
});

describe("invitations", () => {
  it("gives the link once, stores only its hash, lists it as pending and lets one user accept it once", async () => {
    const made = await caller(adminId).invitations.create({ role: "member" });
    expect(made.token).toMatch(/^inv_/);
    expect(made.path).toBe(`/invite/${made.token}`);
    expect(made.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const row = await db.invitation.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.tokenHash).toBe(createHash("sha256").update(made.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(made.token);
    const listed = await caller(adminId).invitations.list();
    expect(listed.map((i) => i.id)).toContain(made.id);
    expect(JSON.stringify(listed)).not.toContain(made.token);

    expect(await anonymous().invitations.preview({ token: made.token })).toMatchObject({
      team: { name: "Demo team" },
      role: "member",
    });
    const outsider = await addMember(
      db,
      (await db.team.create({ data: { slug: "other", name: "Other" } })).id,
      { email: "out@test.local", name: "Out", role: "owner" },
    );
    expect(await caller(outsider).invitations.accept({ token: made.token })).toMatchObject({
      teamId: seeded.teamId,
      role: "member",
    });
    expect(await caller(outsider, seeded.teamId).teams.current()).toMatchObject({ role: "member" });
    const late = await addMember(
      db,
      (await db.team.findUniqueOrThrow({ where: { slug: "other" } })).id,
      { email: "late@test.local", name: "Late", role: "member" },
    );
    await expect(caller(late).invitations.accept({ token: made.token })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: /already used/,
    });
    await expect(anonymous().invitations.preview({ token: made.token })).rejects.toMatchObject({
      message: /already used/,
    });
    expect((await caller(adminId).invitations.list()).map((i) => i.id)).not.toContain(made.id);
  });

  it("refuses revoked, expired, unknown and other-email links with a clear error", async () => {
    const revoked = await caller(adminId).invitations.create({ role: "viewer" });
    await caller(adminId).invitations.revoke({ id: revoked.id });
    await expect(anonymous().invitations.preview({ token: revoked.token })).rejects.toMatchObject({
      message: /revoked/,
    });
    await expect(caller(adminId).invitations.revoke({ id: revoked.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });

    const expired = await caller(adminId).invitations.create({ role: "viewer", expiresInDays: 1 });
    await db.invitation.update({
      where: { id: expired.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(
      anonymous().invitations.signUp({
        token: expired.token,
        name: "X",
        email: "x@test.local",
        password: "long-enough-pw",
      }),
    ).rejects.toMatchObject({
      message: /expired/,
    });
    await expect(
      anonymous().invitations.preview({ token: "inv_" + "A".repeat(43) }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    const forSomeone = await caller(adminId).invitations.create({
      role: "member",
      email: "Someone@Test.local",
    });
    await expect(
      caller(memberId).invitations.accept({ token: forSomeone.token }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      caller(adminId).invitations.create({ role: "member", expiresInDays: 31 }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("lets a visitor sign up through a link and join in one step, with the password limits", async () => {
    const made = await caller(adminId).invitations.create({ role: "member" });
    await expect(
      anonymous().invitations.signUp({
        token: made.token,
        name: "New",
        email: "new@test.local",
        password: "short",
      }),
    ).rejects.toMatchObject({
      message: /characters/,
    });
    await expect(
      anonymous().invitations.signUp({
        token: made.token,
        name: "New",
        email: "member@test.local",
        password: "long-enough-pw",
      }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const joined = await anonymous().invitations.signUp({
      token: made.token,
      name: "New",
      email: "New@test.local",
      password: "long-enough-pw",
    });
    expect(joined).toMatchObject({ teamId: seeded.teamId, role: "member" });
    const user = await db.user.findUniqueOrThrow({ where: { email: "new@test.local" } });
    expect(user.passwordHash).toMatch(/^scrypt\$/);
    expect(await caller(user.id).teams.current()).toMatchObject({ role: "member" });
  });

  it("lets only admins manage invitations and only owners invite owners", async () => {
    await expect(caller(memberId).invitations.create({ role: "viewer" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(caller(memberId).invitations.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller(adminId).invitations.create({ role: "owner" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await owner().invitations.create({ role: "owner" })).role).toBe("owner");
  });
});

describe("members and roles", () => {
  it("lists members with name, email, role and when they joined", async () => {
    const members = await caller(viewerId).members.list();
    expect(members.find((m) => m.userId === memberId)).toMatchObject({
      name: "Member",
      email: "member@test.local",
      role: "member",
    });
    expect(members.find((m) => m.userId === memberId)?.joinedAt).toBeInstanceOf(Date);
  });

  it("lets admins change roles, owners alone touch the owner role, and keeps the last owner", async () => {
    await expect(
      caller(memberId).members.changeRole({ userId: viewerId, role: "member" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await caller(adminId).members.changeRole({ userId: viewerId, role: "member" })).toEqual({
      userId: viewerId,
      role: "member",
    });
    await caller(adminId).members.changeRole({ userId: viewerId, role: "viewer" });
    await expect(
      caller(adminId).members.changeRole({ userId: memberId, role: "owner" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      caller(adminId).members.changeRole({ userId: seeded.adminId, role: "member" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      owner().members.changeRole({ userId: seeded.adminId, role: "admin" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(owner().members.leave()).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      caller(adminId).members.changeRole({ userId: "nobody", role: "member" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    await owner().members.changeRole({ userId: adminId, role: "owner" });
    expect(
      await owner().members.changeRole({ userId: seeded.adminId, role: "admin" }),
    ).toMatchObject({ role: "admin" });
    await caller(adminId).members.changeRole({ userId: seeded.adminId, role: "owner" });
    await caller(seeded.adminId).members.changeRole({ userId: adminId, role: "admin" });
    const audit = await db.auditLog.findMany({
      where: { teamId: seeded.teamId, action: "member.role" },
    });
    expect(audit.length).toBeGreaterThanOrEqual(5);
  });

  it("removes a member, whose session ends at its next use; admins never remove an owner", async () => {
    const leaving = await addMember(db, seeded.teamId, {
      email: "leaving@test.local",
      name: "Leaving",
      role: "member",
    });
    const signedIn = await refreshSessionToken(db, { token: {}, user: { id: leaving } });
    expect(signedIn?.teamId).toBe(seeded.teamId);
    await expect(caller(memberId).members.remove({ userId: leaving })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(caller(adminId).members.remove({ userId: seeded.adminId })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await caller(adminId).members.remove({ userId: leaving })).toEqual({ userId: leaving });
    expect(await refreshSessionToken(db, { token: signedIn! })).toBeNull();
    await expect(caller(leaving, seeded.teamId).members.list()).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(owner().members.remove({ userId: leaving })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("lets a member leave", async () => {
    const quitter = await addMember(db, seeded.teamId, {
      email: "quitter@test.local",
      name: "Quitter",
      role: "viewer",
    });
    expect(await caller(quitter).members.leave()).toEqual({ userId: quitter });
    expect((await owner().members.list()).map((m) => m.userId)).not.toContain(quitter);
  });
});

describe("members and invitations over REST", () => {
  const rest = restOnDatabase(() => db);

  it("lists members, changes a role, invites by link, lists and revokes invitations, removes a member, with the contract's shapes", async () => {
    const { token } = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: adminId,
      name: "rest",
    });
    const listed = await rest(token, "GET", "/members");
    expect(listed.status).toBe(200);
    expect(
      listMembersResponse.parse(listed.body).members.find((m) => m.userId === memberId),
    ).toMatchObject({ role: "member" });

    const target = await addMember(db, seeded.teamId, {
      email: "rest-target@test.local",
      name: "Rest Target",
      role: "viewer",
    });
    expect(await rest(token, "PUT", `/members/${target}`, { role: "member" })).toMatchObject({
      status: 200,
      body: { userId: target, role: "member" },
    });
    expect(await rest(token, "PUT", `/members/${target}`, { role: "owner" })).toMatchObject({
      status: 403,
      body: { error: { code: "FORBIDDEN" } },
    });
    expect(await rest(token, "PUT", `/members/${target}`, { role: "boss" })).toMatchObject({
      status: 400,
    });

    const made = await rest(token, "POST", "/invitations", {
      role: "viewer",
      email: "later@test.local",
      expiresInDays: 3,
    });
    expect(made.status).toBe(201);
    const invitation = createInvitationResponse.parse(made.body);
    expect(invitation.path).toBe(`/invite/${invitation.token}`);
    const pending = await rest(token, "GET", "/invitations");
    expect(JSON.stringify(pending.body)).not.toContain(invitation.token);
    expect((pending.body.invitations as { id: string }[]).map((i) => i.id)).toContain(
      invitation.id,
    );
    expect(await rest(token, "DELETE", `/invitations/${invitation.id}`)).toMatchObject({
      status: 200,
      body: { id: invitation.id },
    });
    expect(await rest(token, "DELETE", `/invitations/${invitation.id}`)).toMatchObject({
      status: 404,
    });

    expect(await rest(token, "DELETE", `/members/${target}`)).toMatchObject({
      status: 200,
      body: { userId: target },
    });
    expect(await rest(token, "DELETE", `/members/${target}`)).toMatchObject({ status: 404 });
  });

  it("stops a removed member's API token at once", async () => {
    const gone = await addMember(db, seeded.teamId, {
      email: "gone@test.local",
      name: "Gone",
      role: "member",
    });
    const { token } = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: gone,
      name: "theirs",
    });
    expect((await rest(token, "GET", "/members")).status).toBe(200);
    await owner().members.remove({ userId: gone });
    expect((await rest(token, "GET", "/members")).status).toBe(401);
  });
});
