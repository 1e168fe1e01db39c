/**
 * The team's audit log through the dashboard's procedures: admins page through their
 * team's entries newest first (who, what, on what, when, with the entry's facts), by a
 * cursor that neither repeats nor skips an entry when several share a moment, narrowed to
 * actions starting with a prefix, each naming the request that made it; another team's
 * entries never show, and members are refused.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { withRequestId } from "@switchyard/core/context";
import { createApiToken, type Db } from "@switchyard/db";
import { auditPage } from "~/server/contract/audit.types";
import { handleRest } from "~/server/rest/rest-api";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addMember } from "./helpers/team-member";

let seeded: SeededDatabase;
let db: Db;
let memberId: string;
const caller = (userId: string) => dashboardCaller({ db }, userId);
const admin = () => caller(seeded.adminId);

/** Twelve entries over six moments (two at each), oldest first: lane.* and variable.* by turns. */
const ENTRIES = Array.from({ length: 12 }, (_, i) => ({
  action: i % 2 === 0 ? `lane.update` : `variable.set`,
  targetId: `t${i}`,
  createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0, Math.floor(i / 2))),
}));

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  memberId = await addMember(db, seeded.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
  });
  const other = await db.team.create({ data: { slug: "other", name: "Other" } });
  for (const e of ENTRIES) {
    await db.auditLog.create({
      data: {
        teamId: seeded.teamId,
        actorUserId: seeded.adminId,
        targetType: e.action.split(".")[0]!,
        metadata: { lanes: "default", n: Number(e.targetId.slice(1)) },
        ...e,
      },
    });
  }
  await db.auditLog.create({
    data: {
      teamId: other.id,
      actorUserId: memberId,
      action: "lane.create",
      targetType: "lane",
      targetId: "theirs",
    },
  });
});
afterAll(async () => {
  await seeded?.close();
});

it("pages through the team's entries newest first without repeating or skipping one", async () => {
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await admin().audit.list({ limit: 5, ...(cursor ? { cursor } : {}) });
    seen.push(...page.entries.map((e) => e.targetId!));
    cursor = page.nextCursor ?? undefined;
    pages += 1;
  } while (cursor && pages < 10);
  expect(pages).toBe(3);
  expect(seen).toHaveLength(12);
  expect(new Set(seen).size).toBe(12);
  // Newest moment first; the two entries of a moment in a stable order.
  const moments = seen.map((id) => ENTRIES.find((e) => e.targetId === id)!.createdAt.getTime());
  expect(moments).toEqual([...moments].sort((a, b) => b - a));
  expect(seen).not.toContain("theirs");
});

it("shows who did what, on what, when, with the entry's facts", async () => {
  const { entries } = await admin().audit.list({ limit: 1 });
  const newest = ENTRIES.at(-1)!;
  expect(entries[0]).toMatchObject({
    action: newest.action,
    targetType: "variable",
    targetId: newest.targetId,
    actor: { id: seeded.adminId, name: "Demo admin", email: "admin@test.local" },
    metadata: { lanes: "default", n: 11 },
    createdAt: newest.createdAt,
  });
});

it("narrows the list to actions starting with a prefix, across pages", async () => {
  const first = await admin().audit.list({ action: "lane.", limit: 4 });
  expect(first.entries.map((e) => e.targetId)).toEqual(["t10", "t8", "t6", "t4"]);
  const second = await admin().audit.list({ action: "lane.", limit: 4, cursor: first.nextCursor! });
  expect(second.entries.map((e) => e.targetId)).toEqual(["t2", "t0"]);
  expect(second.nextCursor).toBeNull();
  expect((await admin().audit.list({ action: "connector." })).entries).toEqual([]);
});

it("records what the API changes, and refuses members and a cursor of another team", async () => {
  await withRequestId("req-audit-1", () =>
    admin().lanes.create({
      name: "audited",
      description: "",
      saveRoles: ["owner"],
      startRoles: ["owner"],
    }),
  );
  const { entries } = await admin().audit.list({ action: "lane.create" });
  expect(entries.map((e) => [e.action, e.targetId, e.actor?.email, e.requestId])).toEqual([
    ["lane.create", "audited", "admin@test.local", "req-audit-1"],
  ]);

  await expect(caller(memberId).audit.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
  const theirs = await db.auditLog.findFirstOrThrow({ where: { targetId: "theirs" } });
  await expect(admin().audit.list({ cursor: theirs.id })).rejects.toMatchObject({
    code: "BAD_REQUEST",
  });
});

it("answers the same list over REST, filters as query parameters, and refuses a member's token", async () => {
  const adminToken = (
    await createApiToken(db, { teamId: seeded.teamId, userId: seeded.adminId, name: "audit" })
  ).token;
  const memberToken = (
    await createApiToken(db, { teamId: seeded.teamId, userId: memberId, name: "audit" })
  ).token;
  const rest = async (path: string, token: string) => {
    const res = await handleRest(
      {
        db,
        queue: () => {
          throw new Error("no queue");
        },
        prefix: "t",
        publish: () => Promise.resolve(0),
      },
      new Request(`http://localhost/api/v1${path}`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      path.split("?")[0]!,
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const page = await rest("/audit?action=variable.&limit=4", adminToken);
  expect(page.status).toBe(200);
  const parsed = auditPage.parse(page.body);
  expect(parsed.entries.map((e) => e.targetId)).toEqual(["t11", "t9", "t7", "t5"]);
  const next = auditPage.parse(
    (await rest(`/audit?action=variable.&limit=4&cursor=${parsed.nextCursor}`, adminToken)).body,
  );
  expect(next.entries.map((e) => e.targetId)).toEqual(["t3", "t1"]);
  expect(await rest("/audit?limit=500", adminToken)).toMatchObject({
    status: 400,
    body: { error: { code: "BAD_REQUEST" } },
  });
  expect(await rest("/audit", memberToken)).toMatchObject({
    status: 403,
    body: { error: { code: "FORBIDDEN" } },
  });
});
