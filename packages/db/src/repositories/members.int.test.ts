/**
 * Passwords against a real database: scrypt hashes, old bcrypt hashes upgraded on the first
 * successful sign-in, the same work for an unknown email as for a wrong password, and the
 * session version that a password change or a removal from a team moves on.
 */
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createDb, type Db } from "../index";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { DUMMY_PASSWORD_HASH, verifyPasswordHash } from "../password-hash";
import { changePassword, hashPassword, removeMember, verifyPassword } from "./members";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

it("stores new passwords as scrypt hashes and verifies them", async () => {
  const user = await db.user.create({
    data: {
      email: "s@test.local",
      name: "S",
      passwordHash: await hashPassword("right-horse-battery"),
    },
  });
  expect(user.passwordHash).toMatch(/^scrypt\$/);
  expect((await verifyPassword(db, "S@test.local", "right-horse-battery"))?.id).toBe(user.id);
  expect(await verifyPassword(db, "s@test.local", "wrong-horse-battery")).toBeUndefined();
});

it("accepts an old bcrypt hash once and replaces it with a scrypt hash on success", async () => {
  const legacy = bcrypt.hashSync("old-password-1", 4);
  const user = await db.user.create({
    data: { email: "legacy@test.local", name: "L", passwordHash: legacy },
  });
  expect(await verifyPassword(db, "legacy@test.local", "not-it")).toBeUndefined();
  expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(legacy);

  expect((await verifyPassword(db, "legacy@test.local", "old-password-1"))?.id).toBe(user.id);
  const upgraded = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash!;
  expect(upgraded).toMatch(/^scrypt\$/);
  expect(await verifyPasswordHash("old-password-1", upgraded)).toBe(true);
  expect((await verifyPassword(db, "legacy@test.local", "old-password-1"))?.id).toBe(user.id);
});

it("checks an unknown email, or a user without a password, against a dummy hash", async () => {
  await db.user.create({ data: { email: "nopass@test.local", name: "N" } });
  const verify = vi.fn(verifyPasswordHash);
  expect(await verifyPassword(db, "nobody@test.local", "whatever-1", verify)).toBeUndefined();
  expect(await verifyPassword(db, "nopass@test.local", "whatever-2", verify)).toBeUndefined();
  expect(verify.mock.calls).toEqual([
    ["whatever-1", DUMMY_PASSWORD_HASH],
    ["whatever-2", DUMMY_PASSWORD_HASH],
  ]);
  // The dummy is a real hash of the current kind, so checking it costs what a real check costs.
  expect(DUMMY_PASSWORD_HASH).toMatch(/^scrypt\$/);
  expect(await verifyPasswordHash("whatever-1", DUMMY_PASSWORD_HASH)).toBe(false);
});

it("changes a password only with the current one, and moves the session version on", async () => {
  const user = await db.user.create({
    data: { email: "c@test.local", name: "C", passwordHash: await hashPassword("first-password") },
  });
  expect(user.sessionVersion).toBe(0);
  const wrong = await changePassword(db, user.id, "not-the-password", "second-password").catch(
    (e: unknown) => e,
  );
  expect(wrong).toMatchObject({ code: "USER.WRONG_PASSWORD" });
  const short = await changePassword(db, user.id, "first-password", "short").catch(
    (e: unknown) => e,
  );
  expect(short).toMatchObject({ code: "USER.INPUT.VALIDATION_FAILED" });
  expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion).toBe(0);

  await changePassword(db, user.id, "first-password", "second-password");
  const after = await db.user.findUniqueOrThrow({ where: { id: user.id } });
  expect(after.sessionVersion).toBe(1);
  expect(await verifyPassword(db, "c@test.local", "first-password")).toBeUndefined();
  expect((await verifyPassword(db, "c@test.local", "second-password"))?.id).toBe(user.id);
});

it("removes a member from one team only", async () => {
  const [a, b] = await Promise.all([
    db.team.create({ data: { slug: "rm-a", name: "A" } }),
    db.team.create({ data: { slug: "rm-b", name: "B" } }),
  ]);
  const user = await db.user.create({ data: { email: "m@test.local", name: "M" } });
  await db.membership.createMany({
    data: [
      { teamId: a.id, userId: user.id, role: "member" },
      { teamId: b.id, userId: user.id, role: "member" },
    ],
  });
  expect(await removeMember(db, a.id, user.id)).toBe(true);
  expect(await removeMember(db, a.id, user.id)).toBe(false);
  expect(
    (await db.membership.findMany({ where: { userId: user.id } })).map((m) => m.teamId),
  ).toEqual([b.id]);
});
