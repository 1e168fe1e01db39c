/**
 * How an API token's life ends, through the real REST handler and the dashboard's
 * procedures on a real database: a token is bound to the membership it was made under, so
 * removing its maker revokes it (listed as revoked, "member removed") and inviting the
 * person back does not bring it to life; a token made with a token never outlives its
 * maker, and revoking the maker revokes what it made; the installation's longest token
 * lifetime caps a token asked for without an expiry and refuses a longer one, by the same
 * rule over tRPC and REST.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken, createInvitation, type Db } from "@switchyard/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restOnDatabase } from "./helpers/rest-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

let seeded: SeededDatabase;
let db: Db;
const caller = (userId: string, teamId?: string) => dashboardCaller({ db }, userId, teamId);
const owner = () => caller(seeded.adminId, seeded.teamId);
let n = 0;
const person = (role: "admin" | "member" | "viewer" = "member") => {
  n += 1;
  return addMember(db, seeded.teamId, { email: `p${n}@test.local`, name: `Person ${n}`, role });
};

const rest = restOnDatabase(() => db);

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
});
afterAll(async () => {
  await seeded?.close();
});

describe("a token and the membership it was made under", () => {
  it("stays revoked when its removed maker is invited back, and is listed as revoked because the member was removed", async () => {
    const userId = await person("admin");
    const made = await caller(userId).tokens.create({ name: "before removal" });
    expect((await rest(made.token, "GET", "/members")).status).toBe(200);

    await owner().members.remove({ userId });
    // Invited back, with the same role: the old token still does nothing.
    const invitation = await createInvitation(db, {
      teamId: seeded.teamId,
      createdById: seeded.adminId,
      role: "admin",
      expiresAt: new Date(Date.now() + 60_000),
    });
    await caller(userId).invitations.accept({ token: invitation.token });
    expect((await rest(made.token, "GET", "/members")).status).toBe(401);
    const revoked = (await owner().tokens.list()).find((t) => t.id === made.id);
    expect(revoked).toMatchObject({ revokedReason: "member_removed" });
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    // A token made under the new membership works.
    const fresh = await caller(userId, seeded.teamId).tokens.create({ name: "after" });
    expect((await rest(fresh.token, "GET", "/members")).status).toBe(200);
  });

  it("refuses a live token whose membership is not the one it was made under, even if nobody revoked it", async () => {
    const userId = await person();
    const { id, token } = await createApiToken(db, {
      teamId: seeded.teamId,
      userId,
      name: "bound",
    });
    expect((await rest(token, "GET", "/members")).status).toBe(200);
    // The membership replaced underneath (as a removal and re-invite would), the token left live.
    await db.membership.deleteMany({ where: { teamId: seeded.teamId, userId } });
    await db.membership.create({ data: { teamId: seeded.teamId, userId, role: "member" } });
    expect((await db.apiToken.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
    expect((await rest(token, "GET", "/members")).status).toBe(401);
  });
});

describe("a token made with a token", () => {
  it("never outlives its maker: its expiry is capped at the maker's", async () => {
    const userId = await person();
    const maker = await caller(userId).tokens.create({ name: "maker", expiresInDays: 2 });
    const made = await rest(maker.token, "POST", "/tokens", { name: "child", expiresInDays: 30 });
    expect(made.status).toBe(201);
    expect(new Date(made.body.expiresAt as string).getTime()).toBe(maker.expiresAt!.getTime());
    const forever = await rest(maker.token, "POST", "/tokens", { name: "child without expiry" });
    expect(new Date(forever.body.expiresAt as string).getTime()).toBe(maker.expiresAt!.getTime());
  });

  it("is revoked with its maker, and with its maker's maker", async () => {
    const userId = await person();
    const maker = await caller(userId).tokens.create({ name: "root" });
    const child = await rest(maker.token, "POST", "/tokens", { name: "child" });
    const grandchild = await rest(child.body.token as string, "POST", "/tokens", {
      name: "grandchild",
    });
    expect(grandchild.status).toBe(201);
    expect((await rest(grandchild.body.token as string, "GET", "/members")).status).toBe(200);

    await caller(userId).tokens.revoke({ id: maker.id });
    expect((await rest(child.body.token as string, "GET", "/members")).status).toBe(401);
    expect((await rest(grandchild.body.token as string, "GET", "/members")).status).toBe(401);
    const listed = await caller(userId).tokens.list();
    expect(listed.find((t) => t.id === maker.id)).toMatchObject({ revokedReason: "revoked" });
    expect(listed.find((t) => t.id === child.body.id)).toMatchObject({
      revokedReason: "maker_revoked",
    });
    expect(listed.find((t) => t.id === grandchild.body.id)).toMatchObject({
      revokedReason: "maker_revoked",
    });
  });
});

describe("the installation's longest token lifetime", () => {
  it("gives a token asked for without an expiry the longest, and refuses a longer one naming the field, over tRPC and REST alike", async () => {
    await owner().instance.update({ maxTokenLifetimeDays: 30 });
    try {
      const userId = await person();
      const day = 86_400_000;
      const unlimited = await caller(userId).tokens.create({ name: "no expiry asked" });
      expect(Math.abs(unlimited.expiresAt!.getTime() - (Date.now() + 30 * day))).toBeLessThan(
        60_000,
      );
      await expect(
        caller(userId).tokens.create({ name: "too long", expiresInDays: 31 }),
      ).rejects.toMatchObject({
        code: "BAD_REQUEST",
        cause: { code: "USER.TOKEN.LIFETIME_TOO_LONG", location: { path: "expiresInDays" } },
      });
      expect(
        (
          await caller(userId).tokens.create({ name: "short", expiresInDays: 7 })
        ).expiresAt!.getTime(),
      ).toBeLessThan(Date.now() + 8 * day);

      const viaRest = await rest(unlimited.token, "POST", "/tokens", {
        name: "too long",
        expiresInDays: 90,
      });
      expect(viaRest).toMatchObject({
        status: 400,
        body: {
          error: { code: "USER.TOKEN.LIFETIME_TOO_LONG", location: { path: "expiresInDays" } },
        },
      });
      const capped = await rest(unlimited.token, "POST", "/tokens", { name: "no expiry asked" });
      expect(new Date(capped.body.expiresAt as string).getTime()).toBeLessThanOrEqual(
        unlimited.expiresAt!.getTime(),
      );
    } finally {
      await owner().instance.update({ maxTokenLifetimeDays: null });
    }
  });
});
