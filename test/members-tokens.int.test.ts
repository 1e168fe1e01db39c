/**
 * API tokens with a role and an expiry: a token's role is at most its maker's, the REST
 * caller acts with the lower of the token's role and its owner's current role (demoting
 * the owner demotes the token), an expired token is refused, and listings show each
 * token's role, expiry and owner.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db } from "@switchyard/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restOnDatabase } from "./helpers/rest-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

let seeded: SeededDatabase;
let db: Db;
let adminId: string;
let memberId: string;
const caller = (userId: string) => dashboardCaller({ db }, userId);

const rest = restOnDatabase(() => db);

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
});
afterAll(async () => {
  await seeded?.close();
});

describe("API token roles", () => {
  it("gives a token at most its maker's role, and acts with it over REST", async () => {
    await expect(
      caller(memberId).tokens.create({ name: "too much", role: "admin" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const viewerToken = await caller(adminId).tokens.create({ name: "read only", role: "viewer" });
    expect(viewerToken.role).toBe("viewer");
    expect((await rest(viewerToken.token, "GET", "/members")).status).toBe(200);
    expect(await rest(viewerToken.token, "POST", "/invitations", { role: "member" })).toMatchObject(
      { status: 403 },
    );
    // Nor may it make a token above itself.
    expect(
      await rest(viewerToken.token, "POST", "/tokens", { name: "escalate", role: "admin" }),
    ).toMatchObject({ status: 403 });

    const full = await caller(adminId).tokens.create({ name: "full" });
    expect(full.role).toBe("admin");
    expect((await rest(full.token, "POST", "/invitations", { role: "member" })).status).toBe(201);
    const listed = await caller(adminId).tokens.list();
    expect(listed.find((t) => t.id === viewerToken.id)).toMatchObject({
      role: "viewer",
      createdBy: { id: adminId, email: "admin2@test.local" },
    });
  });

  it("never acts above the owner's current role: demoting the owner demotes the token", async () => {
    const owner = await addMember(db, seeded.teamId, {
      email: "soon-member@test.local",
      name: "Soon Member",
      role: "admin",
    });
    const token = await caller(owner).tokens.create({ name: "admin token", role: "admin" });
    expect((await rest(token.token, "GET", "/invitations")).status).toBe(200);
    await caller(seeded.adminId).members.changeRole({ userId: owner, role: "member" });
    expect((await rest(token.token, "GET", "/invitations")).status).toBe(403);
  });

  it("makes tokens over REST with an expiry, and refuses an expired one", async () => {
    const full = await caller(adminId).tokens.create({ name: "maker" });
    const made = await rest(full.token, "POST", "/tokens", {
      name: "short",
      role: "member",
      expiresInDays: 1,
    });
    expect(made).toMatchObject({ status: 201, body: { role: "member" } });
    const expiresAt = new Date(made.body.expiresAt as string).getTime();
    expect(expiresAt - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await db.apiToken.update({
      where: { id: made.body.id as string },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await rest(made.body.token as string, "GET", "/members")).status).toBe(401);
  });

  it("notes when a token was last used to the minute, not with a write on every request", async () => {
    const full = await caller(adminId).tokens.create({ name: "busy" });
    const lastUsed = async () =>
      (await db.apiToken.findFirst({ where: { name: "busy" }, select: { lastUsedAt: true } }))
        ?.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    expect((await rest(full.token, "GET", "/members")).status).toBe(200);
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    expect((await rest(full.token, "GET", "/members")).status).toBe(200);
    expect(await lastUsed()).toEqual(first);
    // A minute later, the next request notes it again.
    await db.apiToken.updateMany({
      where: { name: "busy" },
      data: { lastUsedAt: new Date(Date.now() - 61_000) },
    });
    expect((await rest(full.token, "GET", "/members")).status).toBe(200);
    expect((await lastUsed())!.getTime()).toBeGreaterThan(Date.now() - 10_000);
  });
});
