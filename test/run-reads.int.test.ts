/**
 * The web's hot reads as plain SQL (run-reads.ts, findMembership, sessionMembership,
 * listLanes): the same rows, order and instants as Prisma reads of the same tables, in a
 * process whose zone is not UTC, and never a row of another team (a run id, a workflow id
 * or a tool call cursor of team B asked for by team A gets nothing of B's).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  countRunsByStatus,
  createDb,
  createRun,
  createTeamWithOwner,
  decodeRunCursor,
  findMembership,
  getRun,
  insertToolCalls,
  listLanes,
  listRuns,
  listRunToolCalls,
  runStatusOf,
  saveWorkflowVersion,
  sessionMembership,
  startStepRun,
  type Db,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";

let database: TestDatabase;
let db: Db;
let adminId: string;
let teamA: string;
let teamB: string;
let ownerB: string;
const zone = process.env.TZ;

const WORKFLOW = (name: string) => ({
  "workflow.yaml": `name: ${name}\nstates:\n  initial: s\n  s: { type: step, command: 'true' }\n`,
});

/** A run of `teamId` with one agent step and `calls` tool calls, `at` and after. */
const runWithCalls = async (teamId: string, name: string, at: Date, calls: number) => {
  const version = await saveWorkflowVersion(db, { teamId, name, files: WORKFLOW(name) });
  const run = await createRun(db, {
    teamId,
    workflowId: version.workflowId,
    workflowVersionId: version.id,
    lane: "default",
    trigger: "api",
    inputs: { n: 1 },
  });
  const step = await startStepRun(db, {
    teamId,
    runId: run.id,
    stateName: "s",
    stepType: "agent",
    attempt: 1,
    path: { workflow: name, key: "s", loop: [], calls: [] },
  });
  await db.stepRun.update({ where: { id: step.id }, data: { costUsd: 0.012345 } });
  await insertToolCalls(
    db,
    teamId,
    run.id,
    Array.from({ length: calls }, (_, i) => ({
      stepRunId: step.id,
      toolName: `tool_${i}`,
      source: "builtin",
      fidelity: "proxy" as const,
      arguments: { i },
      isError: false,
      // Pairs share a start, so the id decides their order.
      startedAt: new Date(at.getTime() + Math.floor(i / 2) * 1000 + 7),
      durationMs: i,
    })),
  );
  return { run, step, workflowId: version.workflowId };
};

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 3 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  adminId = seeded.admin.id;
  teamA = seeded.team.id;
  ownerB = (await db.user.create({ data: { email: "b@test.local", name: "B" } })).id;
  teamB = (await createTeamWithOwner(db, { name: "Team B", ownerId: ownerB })).id;
  // Instants must come back the same whatever the process's zone.
  process.env.TZ = "America/New_York";
  expect(new Date("2026-01-01T00:00:00Z").getHours()).toBe(19);
});
afterAll(async () => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
  await db?.$disconnect();
  await database?.drop();
});

it("reads one run and its steps as Prisma does, in a zone that is not UTC, and nothing of another team's", async () => {
  const at = new Date("2026-11-30T12:00:00.123Z");
  const { run, step } = await runWithCalls(teamA, "read-a", at, 3);
  await db.run.update({
    where: { id: run.id },
    data: { status: "succeeded", startedAt: at, finishedAt: new Date(at.getTime() + 1500) },
  });
  const b = await runWithCalls(teamB, "read-b", at, 2);

  const read = await getRun(db, teamA, run.id);
  const stored = await db.run.findFirstOrThrow({
    where: { id: run.id },
    omit: { checkpoint: true, pinnedVersions: true, idempotencyHash: true },
  });
  const storedStep = await db.stepRun.findFirstOrThrow({ where: { id: step.id } });
  expect(read).toMatchObject({
    ...stored,
    workflow: { name: "read-a" },
    version: { number: 1 },
    firedBy: null,
    startedBy: null,
  });
  expect(read!.startedAt!.toISOString()).toBe("2026-11-30T12:00:00.123Z");
  expect(read!.steps).toEqual([
    {
      ...storedStep,
      costUsd: 0.012345,
      toolCallCount: 3,
    },
  ]);

  expect(await getRun(db, teamA, b.run.id)).toBeNull();
  expect(await runStatusOf(db, teamA, b.run.id)).toBeNull();

  // Who started it and which trigger fired it; a trigger of another team is never shown.
  const schedule = await db.trigger.create({
    data: { teamId: teamA, workflowId: run.workflowId, kind: "schedule", name: "nightly" },
  });
  const foreign = await db.trigger.create({
    data: { teamId: teamB, workflowId: b.workflowId, kind: "webhook", name: "theirs" },
  });
  await db.run.update({
    where: { id: run.id },
    data: { triggerId: schedule.id, startedById: adminId },
  });
  const admin = await db.user.findUniqueOrThrow({ where: { id: adminId } });
  expect(await getRun(db, teamA, run.id)).toMatchObject({
    firedBy: { id: schedule.id, name: "nightly", kind: "schedule" },
    startedBy: { id: adminId, name: admin.name },
  });
  await db.run.update({ where: { id: run.id }, data: { triggerId: foreign.id } });
  expect((await getRun(db, teamA, run.id))?.firedBy).toBeNull();
  expect(await runStatusOf(db, teamA, run.id)).toBe("succeeded");
});

it("pages a run's tool calls in (start, id) order, and ignores another team's run or cursor", async () => {
  const at = new Date("2026-11-30T13:00:00.000Z");
  const { run } = await runWithCalls(teamA, "calls-a", at, 9);
  const b = await runWithCalls(teamB, "calls-b", at, 4);
  const expected = await db.toolCall.findMany({
    where: { runId: run.id },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
    select: { id: true, startedAt: true },
  });
  const seen: { id: string; startedAt: Date }[] = [];
  let after: string | undefined;
  do {
    const page = await listRunToolCalls(db, teamA, run.id, { take: 2, after });
    seen.push(...page!.toolCalls.map(({ id, startedAt }) => ({ id, startedAt })));
    after = page!.nextAfter ?? undefined;
  } while (after);
  expect(seen).toEqual(expected);

  expect(await listRunToolCalls(db, teamA, b.run.id)).toBeNull();
  // A cursor of team B's call is no cursor here: the page starts at the run's first call.
  const bCall = (await listRunToolCalls(db, teamB, b.run.id, { take: 1 }))!.toolCalls[0]!;
  const fromB = await listRunToolCalls(db, teamA, run.id, { take: 1, after: bCall.id });
  expect(fromB!.toolCalls.map((c) => c.id)).toEqual([expected[0]!.id]);
});

it("lists and counts runs newest first by (createdAt, id), filtered, and never another team's", async () => {
  const moment = new Date("2026-11-30T14:00:00.000Z");
  const a = await saveWorkflowVersion(db, {
    teamId: teamA,
    name: "list-a",
    files: WORKFLOW("list-a"),
  });
  const b = await runWithCalls(teamB, "list-b", moment, 0);
  for (let i = 0; i < 6; i++) {
    const run = await createRun(db, {
      teamId: teamA,
      workflowId: a.workflowId,
      workflowVersionId: a.id,
      lane: "default",
      trigger: i % 2 ? "api" : "schedule",
      startedById: i % 3 ? adminId : undefined,
    });
    await db.run.update({
      where: { id: run.id },
      data: {
        status: i % 2 ? "failed" : "succeeded",
        createdAt: i < 3 ? moment : new Date(moment.getTime() + i),
      },
    });
  }
  const expected = await db.run.findMany({
    where: { teamId: teamA, workflowId: a.workflowId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, createdAt: true, startedById: true },
  });
  const seen: { id: string; createdAt: Date; startedById: string | null }[] = [];
  let cursor: ReturnType<typeof decodeRunCursor> | undefined;
  do {
    const page = await listRuns(db, teamA, { workflowId: a.workflowId, take: 2, cursor });
    for (const r of page.runs) {
      expect(r.workflow).toEqual({ name: "list-a" });
      expect(r.startedBy?.id ?? adminId).toBe(adminId);
      seen.push({ id: r.id, createdAt: r.createdAt, startedById: r.startedBy?.id ?? null });
    }
    cursor = page.nextCursor ? decodeRunCursor(page.nextCursor) : undefined;
  } while (cursor);
  expect(seen).toEqual(expected);

  const failed = await listRuns(db, teamA, {
    workflowId: a.workflowId,
    status: ["failed"],
    trigger: ["api"],
    from: new Date(moment.getTime() + 1),
  });
  expect(failed.runs.map((r) => [r.status, r.trigger])).toEqual([
    ["failed", "api"],
    ["failed", "api"],
  ]);
  expect(await countRunsByStatus(db, teamA, { workflowId: a.workflowId })).toMatchObject({
    succeeded: 3,
    failed: 3,
    queued: 0,
  });

  // Team B's workflow id asked for by team A: nothing, counted as nothing.
  expect((await listRuns(db, teamA, { workflowId: b.workflowId })).runs).toEqual([]);
  expect(Object.values(await countRunsByStatus(db, teamA, { workflowId: b.workflowId }))).toEqual([
    0, 0, 0, 0, 0, 0,
  ]);
  const all = await listRuns(db, teamA, { take: 200 });
  expect(all.runs.map((r) => r.id)).not.toContain(b.run.id);
});

it("checks a session and finds memberships in one statement each, only the user's own", async () => {
  const mine = await findMembership(db, adminId, { teamId: teamA });
  expect(mine).toEqual(
    await db.membership.findFirst({
      where: { userId: adminId, teamId: teamA },
      include: { team: true },
    }),
  );
  expect(await findMembership(db, adminId, { teamId: teamB })).toBeNull();
  const theirs = await findMembership(db, ownerB, { teamId: teamB });
  expect(await findMembership(db, adminId, { id: theirs!.id })).toBeNull();

  const version = (await db.user.findUniqueOrThrow({ where: { id: adminId } })).sessionVersion;
  expect(await sessionMembership(db, adminId, mine!.id)).toEqual({
    sessionVersion: version,
    membership: mine,
  });
  expect(await sessionMembership(db, adminId, theirs!.id)).toEqual({
    sessionVersion: version,
    membership: null,
  });
  expect(await sessionMembership(db, "no-such-user", mine!.id)).toEqual({
    sessionVersion: undefined,
    membership: null,
  });
});

it("lists a team's lanes with what names each, as stored, and nothing another team names", async () => {
  await saveWorkflowVersion(db, { teamId: teamB, name: "only-b", files: WORKFLOW("only-b") });
  const lanes = await listLanes(db, teamA);
  const stored = await db.lane.findMany({ where: { teamId: teamA }, orderBy: { name: "asc" } });
  expect(lanes.map((l) => [l.name, l.createdAt, l.saveRoles, l.startRoles])).toEqual(
    stored.map((l) => [l.name, l.createdAt, l.saveRoles, l.startRoles]),
  );
  const usedBy = lanes.find((l) => l.name === "default")!.usedBy;
  expect(usedBy.workflows).toContain("list-a");
  expect(usedBy.workflows).not.toContain("only-b");
  expect(usedBy.workflows).toEqual([...usedBy.workflows].sort());
});
