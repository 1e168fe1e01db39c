/**
 * Instance admins and the installation's settings on a real database: the seed's admin and
 * the verified emails SWITCHYARD_INSTANCE_ADMINS names are instance admins (an unverified
 * account with a named email is not); only they read and change the settings, over tRPC
 * and REST alike, each change one audit entry without a team; teams are made by instance
 * admins only until they let anyone; "SSO only" cannot be switched on without an issuer.
 */
// Read by the web app's environment on first use, below.
process.env.SWITCHYARD_INSTANCE_ADMINS = "Named@Test.Local, unverified@test.local";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createApiToken,
  createDb,
  hashPassword,
  readInstanceSettings,
  verifyPassword,
  type Db,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import { signUpOpen } from "~/server/members/open-sign-up";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restOnDatabase } from "./helpers/rest-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

let seeded: SeededDatabase;
let db: Db;
const caller = (userId: string, teamId?: string) => dashboardCaller({ db }, userId, teamId);
const rest = restOnDatabase(() => db);
let n = 0;
const person = async (
  options: {
    role?: "owner" | "admin" | "member" | "viewer";
    email?: string;
    verified?: boolean;
  } = {},
) => {
  n += 1;
  const id = await addMember(db, seeded.teamId, {
    email: options.email ?? `p${n}@test.local`,
    name: `Person ${n}`,
    role: options.role ?? "member",
  });
  if (options.verified)
    await db.user.update({ where: { id }, data: { emailVerifiedAt: new Date() } });
  return id;
};

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
});
afterAll(async () => {
  await seeded?.close();
});

describe("instance admins", () => {
  it("are the seed's admin and the verified accounts SWITCHYARD_INSTANCE_ADMINS names", async () => {
    expect((await caller(seeded.adminId).instance.me()).instanceAdmin).toBe(true);
    const named = await person({ email: "named@test.local", verified: true });
    expect((await caller(named).instance.me()).instanceAdmin).toBe(true);
    // Anyone may type a named email into an unbound invitation: not verified, not an admin.
    const squatter = await person({ email: "unverified@test.local" });
    expect((await caller(squatter).instance.me()).instanceAdmin).toBe(false);
    const owner = await person({ role: "owner" });
    expect((await caller(owner).instance.me()).instanceAdmin).toBe(false);
    await expect(caller(squatter).instance.settings()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller(owner).instance.update({ openSignUp: true })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const admins = await caller(named).instance.admins();
    expect(admins.map((a) => [a.email, a.source])).toEqual([
      ["admin@test.local", "seed"],
      ["named@test.local", "environment"],
    ]);
  });
});

describe("the installation's settings", () => {
  it("start closed: teams by instance admins only, no sign-up without an invitation, passwords allowed, no token limit, commands from the connectors folder only", async () => {
    expect(await caller(seeded.adminId).instance.settings()).toMatchObject({
      teamCreation: "instance_admins",
      openSignUp: false,
      ssoOnly: false,
      maxTokenLifetimeDays: null,
      allowAnyConnectorCommand: false,
    });
    expect(await readInstanceSettings(db)).toMatchObject({
      teamCreation: "instance_admins",
      openSignUp: false,
    });
  });

  it("change only as instance admins say, each change one audit entry without a team, saying from and to", async () => {
    const updated = await caller(seeded.adminId).instance.update({
      openSignUp: true,
      maxTokenLifetimeDays: 90,
      allowAnyConnectorCommand: true,
    });
    expect(updated).toMatchObject({
      openSignUp: true,
      maxTokenLifetimeDays: 90,
      allowAnyConnectorCommand: true,
      teamCreation: "instance_admins",
    });
    expect(await readInstanceSettings(db)).toMatchObject({
      openSignUp: true,
      maxTokenLifetimeDays: 90,
      allowAnyConnectorCommand: true,
    });
    // The same again changes nothing and writes nothing.
    await caller(seeded.adminId).instance.update({ openSignUp: true });
    const entries = await db.auditLog.findMany({
      where: { teamId: null, action: "instance.update" },
    });
    expect(entries.map((e) => [e.actorUserId, e.metadata])).toEqual([
      [
        seeded.adminId,
        {
          openSignUp: { from: false, to: true },
          maxTokenLifetimeDays: { from: null, to: 90 },
          allowAnyConnectorCommand: { from: false, to: true },
        },
      ],
    ]);
    const page = await caller(seeded.adminId).instance.audit({});
    expect(page.entries[0]).toMatchObject({
      action: "instance.update",
      actor: { id: seeded.adminId },
    });
    // Nor does a team's audit log show it.
    expect(
      (await caller(seeded.adminId, seeded.teamId).audit.list({})).entries.map((e) => e.action),
    ).not.toContain("instance.update");

    await expect(
      caller(seeded.adminId).instance.update({ maxTokenLifetimeDays: 0 }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await caller(seeded.adminId).instance.update({
      openSignUp: false,
      maxTokenLifetimeDays: null,
      allowAnyConnectorCommand: false,
    });
  });

  it("refuses SSO only while no issuer is configured, naming the field, so nobody is locked out", async () => {
    await expect(caller(seeded.adminId).instance.update({ ssoOnly: true })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { code: "USER.INSTANCE.SSO_NOT_CONFIGURED", location: { path: "ssoOnly" } },
    });
    expect((await readInstanceSettings(db)).ssoOnly).toBe(false);
  });

  it("are served over REST to an instance admin's token (changes need one acting as admin or owner), and refused to others", async () => {
    const admin = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: seeded.adminId,
      name: "instance",
    });
    const readOnly = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: seeded.adminId,
      name: "read only",
      role: "viewer",
    });
    const owner = await person({ role: "owner" });
    const ownersToken = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: owner,
      name: "owner",
    });

    expect(await rest(admin.token, "GET", "/instance")).toMatchObject({
      status: 200,
      body: { teamCreation: "instance_admins" },
    });
    expect(await rest(readOnly.token, "GET", "/instance")).toMatchObject({ status: 200 });
    expect(
      await rest(readOnly.token, "PUT", "/instance", { teamCreation: "anyone" }),
    ).toMatchObject({ status: 403 });
    expect(await rest(ownersToken.token, "GET", "/instance")).toMatchObject({ status: 403 });
    expect(
      await rest(admin.token, "PUT", "/instance", { teamCreation: "everybody" }),
    ).toMatchObject({ status: 400 });
    expect(await rest(admin.token, "PUT", "/instance", { teamCreation: "anyone" })).toMatchObject({
      status: 200,
      body: { teamCreation: "anyone" },
    });
    expect(
      await rest(admin.token, "PUT", "/instance", { teamCreation: "instance_admins" }),
    ).toMatchObject({ status: 200 });
    const entry = await db.auditLog.findFirstOrThrow({
      where: { teamId: null, action: "instance.update" },
      orderBy: { createdAt: "desc" },
    });
    expect(entry.actorToken).toBe(admin.id);
  });
});

describe("making a team", () => {
  it("is for instance admins until they let anyone, and says why when refused", async () => {
    const member = await person();
    await expect(caller(member).teams.create({ name: "Mine" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      cause: { code: "USER.INSTANCE.TEAM_CREATION_CLOSED" },
      message: /instance admin/,
    });
    expect((await caller(member).instance.me()).mayCreateTeams).toBe(false);
    expect(
      (await caller(seeded.adminId).teams.create({ name: "By an instance admin" })).team.name,
    ).toBe("By an instance admin");

    await caller(seeded.adminId).instance.update({ teamCreation: "anyone" });
    expect((await caller(member).instance.me()).mayCreateTeams).toBe(true);
    expect((await caller(member).teams.create({ name: "Mine" })).team.name).toBe("Mine");
    await caller(seeded.adminId).instance.update({ teamCreation: "instance_admins" });
  });
});

describe("the seed", () => {
  it("makes its admin once, as an instance admin with a verified email, and never resets its password", async () => {
    const fresh = await freshDatabase();
    const other = createDb(fresh.url, { max: 2 });
    try {
      const first = await seed(other, {
        adminEmail: "Seed@Test.Local",
        adminPassword: "first-password-1",
      });
      expect(first.adminCreated).toBe(true);
      expect(first.admin).toMatchObject({ email: "seed@test.local", instanceAdmin: true });
      expect(first.admin.emailVerifiedAt).toBeInstanceOf(Date);
      await other.user.update({
        where: { id: first.admin.id },
        data: { passwordHash: await hashPassword("changed-since-1") },
      });

      const again = await seed(other, {
        adminEmail: "seed@test.local",
        adminPassword: "first-password-1",
      });
      expect(again.adminCreated).toBe(false);
      expect(await verifyPassword(other, "seed@test.local", "changed-since-1")).toBeTruthy();
      expect(await verifyPassword(other, "seed@test.local", "first-password-1")).toBeUndefined();

      // An installation from before instance admins: the seed's account becomes the first.
      await other.user.update({ where: { id: first.admin.id }, data: { instanceAdmin: false } });
      await seed(other, { adminEmail: "seed@test.local", adminPassword: "first-password-1" });
      expect(
        (await other.user.findUniqueOrThrow({ where: { id: first.admin.id } })).instanceAdmin,
      ).toBe(true);
    } finally {
      await other.$disconnect();
      await fresh.drop();
    }
  });
});

describe("signing up without an invitation", () => {
  const form = (email: string) => ({
    name: "New Person",
    email,
    password: "long-enough-password",
    address: "198.51.100.9",
  });

  it("is refused while the installation takes new people by invitation only, and makes an unverified account in no team once it is open", async () => {
    await expect(signUpOpen({ db }, form("new@test.local"))).rejects.toMatchObject({
      code: "USER.INSTANCE.SIGN_UP_CLOSED",
    });
    expect(await db.user.count({ where: { email: "new@test.local" } })).toBe(0);

    await caller(seeded.adminId).instance.update({ openSignUp: true });
    try {
      const made = await signUpOpen({ db }, form("New@Test.Local"));
      const user = await db.user.findUniqueOrThrow({ where: { id: made.userId } });
      expect(user).toMatchObject({
        email: "new@test.local",
        emailVerifiedAt: null,
        instanceAdmin: false,
      });
      expect(await db.membership.count({ where: { userId: made.userId } })).toBe(0);
      expect(await verifyPassword(db, "new@test.local", "long-enough-password")).toBeTruthy();
      await expect(signUpOpen({ db }, form("new@test.local"))).rejects.toMatchObject({
        code: "CONFLICT",
        location: { path: "email" },
      });
      await expect(
        signUpOpen({ db }, { ...form("short@test.local"), password: "short" }),
      ).rejects.toMatchObject({ code: "USER.INPUT.VALIDATION_FAILED" });
    } finally {
      await caller(seeded.adminId).instance.update({ openSignUp: false });
    }
  });
});
