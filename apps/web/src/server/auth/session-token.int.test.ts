/**
 * The session token against a real database: it carries the user's session version and
 * the membership of the team it acts in, and every use checks both, so a password change
 * or a removal from that team ends it. Switching teams is only to a team of one's own, and
 * the dashboard's procedures then act in the chosen team only.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { changePassword, createDb, hashPassword, removeMember, type Db } from "@switchyard/db";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "../../../../../test/helpers/dashboard-caller";
import {
  chooseTeam,
  refreshSessionToken,
  withCheckedMembership,
  type SessionToken,
} from "./session-token";

const CHEAP = { logN: 10, r: 8, p: 1 };

let database: TestDatabase;
let db: Db;
let redis: Redis;
const prefix = `sy-session-${randomBytes(4).toString("hex")}`;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
  redis = new Redis(process.env.REDIS_URL!);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await db.$disconnect();
  await database.drop();
});

const setup = async (name: string, teams: string[]) => {
  const user = await db.user.create({
    data: {
      email: `${name}@test.local`,
      name,
      passwordHash: await hashPassword("first-password", CHEAP),
    },
  });
  const created = [];
  for (const slug of teams) {
    const team = await db.team.upsert({
      where: { slug },
      create: { slug, name: slug },
      update: {},
    });
    await db.membership.create({ data: { teamId: team.id, userId: user.id, role: "member" } });
    created.push(team);
  }
  return { user, teams: created };
};

/** A default lane in each team, open to every role. */
const defaultLanes = (teams: { id: string }[]) =>
  db.lane.createMany({
    data: teams.map((t) => ({
      teamId: t.id,
      name: "default",
      saveRoles: ["owner", "admin", "member"] as const,
      startRoles: ["owner", "admin", "member"] as const,
    })),
  });

/** What next-auth does: the callback at sign-in, then at each use of the cookie. */
const signIn = (userId: string) =>
  refreshSessionToken(db, { token: {}, user: { id: userId }, trigger: "signIn" });
const use = (token: SessionToken | null, session?: unknown) =>
  refreshSessionToken(db, {
    token: token!,
    ...(session === undefined ? {} : { trigger: "update" as const, session }),
  });

it("ends a session when the user's password changes, and not before", async () => {
  const { user, teams } = await setup("pw", ["pw-team"]);
  const token = await signIn(user.id);
  expect(token).toMatchObject({ sub: user.id, sv: 0, teamId: teams[0]!.id });
  expect(await use(token)).toMatchObject({ sub: user.id, teamId: teams[0]!.id });

  await changePassword(db, user.id, "first-password", "second-password");
  expect(await use(token)).toBeNull();
  // Signing in again after the change gives a session that works.
  const fresh = await signIn(user.id);
  expect(await use(fresh)).toMatchObject({ sub: user.id, sv: 1 });
});

it("changes the password from the dashboard only with the current one, which ends the session that did it", async () => {
  const { user } = await setup("dash", ["dash-team"]);
  const token = await signIn(user.id);
  const account = dashboardCaller({ db, redis, prefix }, user.id).account;
  await expect(
    account.changePassword({ currentPassword: "not-it", newPassword: "another-password" }),
  ).rejects.toMatchObject({
    message: "the current password is not right",
  });
  expect(await use(token)).not.toBeNull();
  expect(
    await account.changePassword({
      currentPassword: "first-password",
      newPassword: "another-password",
    }),
  ).toEqual({ signedOut: true });
  expect(await use(token)).toBeNull();
});

it("refuses a token without a session version, as issued before versions existed", async () => {
  const { user } = await setup("old", ["old-team"]);
  expect(await use({ sub: user.id })).toBeNull();
});

it("ends a session when its member is removed from the session's team, even if added back later", async () => {
  const { user, teams } = await setup("rm", ["rm-a", "rm-b"]);
  const [a, b] = [teams[0]!, teams[1]!];
  const token = await signIn(user.id);
  expect(token).toMatchObject({ teamId: a.id });

  // Removal from another team leaves this session alone.
  await removeMember(db, b.id, user.id);
  expect(await use(token)).toMatchObject({ teamId: a.id });

  await removeMember(db, a.id, user.id);
  expect(await use(token)).toBeNull();
  await db.membership.create({ data: { teamId: a.id, userId: user.id, role: "member" } });
  expect(await use(token)).toBeNull();
});

it("switches the session to another team of the user's, never to a team they are not in", async () => {
  const { user, teams } = await setup("sw", ["sw-a", "sw-b"]);
  const [a, b] = [teams[0]!, teams[1]!];
  const stranger = await db.team.create({ data: { slug: "sw-other", name: "Other" } });
  const token = await signIn(user.id);

  const switched = await use(token, { teamId: b.id });
  expect(switched).toMatchObject({ teamId: b.id });
  expect(await use(switched)).toMatchObject({ teamId: b.id });

  // A request for a foreign team changes nothing.
  expect(await use(switched, { teamId: stranger.id })).toMatchObject({ teamId: b.id });
  await expect(chooseTeam(db, user.id, stranger.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
  expect((await chooseTeam(db, user.id, a.id)).teamId).toBe(a.id);
});

it("scopes every team procedure to the session's team and re-checks membership on use", async () => {
  const { user, teams } = await setup("scope", ["scope-a", "scope-b"]);
  const [a, b] = [teams[0]!, teams[1]!];
  const stranger = await db.team.create({ data: { slug: "scope-other", name: "Other" } });
  await defaultLanes([a, b]);
  const yaml = (name: string) =>
    `name: ${name}\nstates:\n  initial: a\n  a:\n    type: step\n    command: echo hi\n`;
  await dashboardCaller({ db }, user.id, a.id).workflows.save({
    files: { "workflow.yaml": yaml("only-in-a") },
  });
  await dashboardCaller({ db }, user.id, b.id).workflows.save({
    files: { "workflow.yaml": yaml("only-in-b") },
  });

  const names = async (teamId: string) =>
    (await dashboardCaller({ db }, user.id, teamId).workflows.list()).map((w) => w.name);
  expect(await names(a.id)).toEqual(["only-in-a"]);
  expect(await names(b.id)).toEqual(["only-in-b"]);
  await expect(names(stranger.id)).rejects.toMatchObject({ code: "FORBIDDEN" });

  await removeMember(db, b.id, user.id);
  await expect(names(b.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
});

it("hands the membership a session's check read to the request's procedures, which act in it without reading it again", async () => {
  const { user, teams } = await setup("once", ["once-a", "once-b"]);
  const [a, b] = [teams[0]!, teams[1]!];
  await defaultLanes([a, b]);
  const token = await signIn(user.id);
  const { value, membership } = await withCheckedMembership(() => use(token));
  expect(value).toMatchObject({ teamId: a.id });
  expect(membership).toMatchObject({ userId: user.id, teamId: a.id, role: "member" });
  // Outside a check, nothing is kept.
  expect((await withCheckedMembership(() => Promise.resolve(1))).membership).toBeUndefined();

  // The member leaves the team after the request's check: the request acts in what its check
  // read (it would be refused had the procedure read the membership again).
  await removeMember(db, a.id, user.id);
  const lanes = await dashboardCaller({ db }, user.id, a.id, membership).lanes.list();
  expect(lanes.map((l) => l.name)).toEqual(["default"]);
  // The next request's check sees the removal.
  expect((await withCheckedMembership(() => use(token))).value).toBeNull();
  // A membership of another team than the session's is not taken for it: it is read.
  await removeMember(db, b.id, user.id);
  await expect(
    dashboardCaller({ db }, user.id, b.id, membership).lanes.list(),
  ).rejects.toMatchObject({ code: "FORBIDDEN" });
});
