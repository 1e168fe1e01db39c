/**
 * The run list: what it sends (never a run's checkpoint, inputs or pinned versions), its
 * filters, keyset pages that neither repeat nor skip runs of the same moment, and counts
 * per status under the same filters; the same on tRPC and REST.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createApiToken,
  createDb,
  createRun,
  insertSpans,
  insertToolCalls,
  saveCheckpoint,
  saveWorkflowVersion,
  startStepRun,
  type Db,
  type RunStatus,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import type { Queue } from "bullmq";
import type { RunJob } from "@switchyard/core/runs";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller } from "./helpers/rest-caller";

let database: TestDatabase;
let db: Db;
let adminId: string;
let teamId: string;
let redis: Redis;

const WORKFLOW = (name: string) => ({
  "workflow.yaml": `name: ${name}\nstates:\n  initial: s\n  s: { type: step, command: 'true' }\n`,
});

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  adminId = seeded.admin.id;
  teamId = seeded.team.id;
  redis = new Redis(process.env.REDIS_URL!);
});
afterAll(async () => {
  redis?.disconnect();
  await db?.$disconnect();
  await database?.drop();
});

it("lists runs without their checkpoints or pinned versions", async () => {
  const version = await saveWorkflowVersion(db, {
    teamId,
    name: "listed",
    files: WORKFLOW("listed"),
  });
  const run = await createRun(db, {
    teamId,
    workflowId: version.workflowId,
    workflowVersionId: version.id,
    lane: "default",
    trigger: "api",
    inputs: { secretish: "input-value-33" },
  });
  await db.run.update({ where: { id: run.id }, data: { status: "running", workerId: "w" } });
  expect(
    await saveCheckpoint(db, teamId, run.id, "w", { context: { captured: "checkpoint-value-71" } }),
  ).toBe(true);

  const listed = await dashboardCaller({ db }, adminId).runs.list();
  const row = listed.runs.find((r) => r.id === run.id);
  expect(row).toMatchObject({
    id: run.id,
    status: "running",
    trigger: "api",
    workflow: { name: "listed" },
  });
  expect(row).not.toHaveProperty("checkpoint");
  expect(row).not.toHaveProperty("pinnedVersions");
  expect(row).not.toHaveProperty("inputs");
  expect(JSON.stringify(listed)).not.toContain("checkpoint-value-71");
  expect(JSON.stringify(listed)).not.toContain("input-value-33");
});

it("filters, pages by cursor without repeats or gaps, and counts per status under the filters", async () => {
  const a = await saveWorkflowVersion(db, { teamId, name: "paged-a", files: WORKFLOW("paged-a") });
  const b = await saveWorkflowVersion(db, { teamId, name: "paged-b", files: WORKFLOW("paged-b") });
  const statuses: RunStatus[] = [
    "succeeded",
    "failed",
    "succeeded",
    "cancelled",
    "succeeded",
    "queued",
    "failed",
  ];
  // Several runs share one createdAt: the page boundary must fall between them correctly.
  const moment = new Date("2026-11-30T10:00:00.000Z");
  const made: string[] = [];
  for (const [i, status] of statuses.entries()) {
    const run = await createRun(db, {
      teamId,
      workflowId: a.workflowId,
      workflowVersionId: a.id,
      lane: "default",
      trigger: i % 2 ? "api" : "dashboard",
      startedById: adminId,
    });
    await db.run.update({
      where: { id: run.id },
      data: { status, createdAt: i < 4 ? moment : new Date(moment.getTime() + i * 1000) },
    });
    made.push(run.id);
  }
  const other = await createRun(db, {
    teamId,
    workflowId: b.workflowId,
    workflowVersionId: b.id,
    lane: "default",
    trigger: "dashboard",
  });

  const caller = dashboardCaller({ db }, adminId);
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await caller.runs.list({ workflowId: a.workflowId, limit: 2, cursor });
    seen.push(...page.runs.map((r) => r.id));
    expect(page.counts).toEqual({
      queued: 1,
      running: 0,
      waiting: 0,
      succeeded: 3,
      failed: 2,
      cancelled: 1,
    });
    cursor = page.nextCursor ?? undefined;
    pages += 1;
  } while (cursor);
  expect(pages).toBe(4);
  expect(new Set(seen).size).toBe(made.length);
  expect(seen.sort()).toEqual([...made].sort());
  expect(seen).not.toContain(other.id);

  const failed = await caller.runs.list({ workflowId: a.workflowId, status: ["failed"] });
  expect(failed.runs.map((r) => r.status)).toEqual(["failed", "failed"]);
  // counts ignore the status filter, so the tabs keep their numbers
  expect(failed.counts.succeeded).toBe(3);
  const api = await caller.runs.list({ workflowId: a.workflowId, trigger: ["api"] });
  expect(api.runs.every((r) => r.trigger === "api")).toBe(true);
  expect(api.runs).toHaveLength(3);
  const late = await caller.runs.list({
    workflowId: a.workflowId,
    from: new Date(moment.getTime() + 1).toISOString(),
  });
  expect(late.runs).toHaveLength(3);
  expect(
    (await caller.runs.list({ startedBy: adminId, workflowId: a.workflowId })).runs,
  ).toHaveLength(7);

  await expect(caller.runs.list({ cursor: "not-a-cursor" })).rejects.toMatchObject({
    code: "BAD_REQUEST",
  });

  // REST: the same filters as query parameters
  const token = (await createApiToken(db, { teamId, userId: adminId, name: "list" })).token;
  const call = restCaller(
    { db, queue: undefined as unknown as Queue<RunJob>, redis, prefix: "unused" },
    () => token,
  );
  const rest = await call(
    "GET",
    `/runs?workflowId=${a.workflowId}&status=succeeded,failed&limit=3`,
  );
  expect(rest.status).toBe(200);
  const body = rest.body as {
    runs: { status: string }[];
    nextCursor: string | null;
    counts: Record<string, number>;
  };
  expect(body.runs).toHaveLength(3);
  expect(body.runs.every((r) => ["succeeded", "failed"].includes(r.status))).toBe(true);
  expect(body.nextCursor).not.toBeNull();
  const next = await call(
    "GET",
    `/runs?workflowId=${a.workflowId}&status=succeeded,failed&limit=3&cursor=${body.nextCursor!}`,
  );
  expect((next.body as { runs: unknown[] }).runs).toHaveLength(2);
  expect((await call("GET", "/runs?status=bogus")).body.error?.code).toBe("BAD_REQUEST");
});

it("refuses dates and cursors Postgres cannot store with a 400 naming the field, through tRPC and REST", async () => {
  const caller = dashboardCaller({ db }, adminId);
  const token = (await createApiToken(db, { teamId, userId: adminId, name: "dates" })).token;
  const call = restCaller(
    { db, queue: undefined as unknown as Queue<RunJob>, redis, prefix: "unused" },
    () => token,
  );
  const cursorOf = (at: string) => Buffer.from(`${at}|cmrunid`).toString("base64url");
  const out = [
    "0000-01-01T00:00:00Z",
    "0001-01-01T00:30:00+01:00", // year 0 once in UTC
    "9999-12-31T23:30:00-01:00", // year 10000 once in UTC
  ];
  for (const at of out) {
    for (const field of ["from", "to"] as const) {
      const rest = await call("GET", `/runs?${field}=${encodeURIComponent(at)}`);
      expect(rest.status, `${field}=${at}`).toBe(400);
      expect(rest.body.error).toMatchObject({ code: "BAD_REQUEST", location: { path: field } });
      await expect(caller.runs.list({ [field]: at })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining(field) as unknown,
      });
    }
  }
  for (const at of [
    "0000-01-01T00:00:00.000Z",
    "-000001-01-01T00:00:00.000Z",
    "+275760-09-13T00:00:00.000Z",
    "+010000-01-01T00:00:00.000Z",
  ]) {
    const rest = await call("GET", `/runs?cursor=${cursorOf(at)}`);
    expect(rest.status, `cursor at ${at}`).toBe(400);
    expect(rest.body.error).toMatchObject({ code: "BAD_REQUEST", location: { path: "cursor" } });
    await expect(caller.runs.list({ cursor: cursorOf(at) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  }
  // The widest dates Postgres stores are still filters like any other.
  expect(
    (await call("GET", `/runs?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z`)).status,
  ).toBe(200);
  expect((await call("GET", `/runs?cursor=${cursorOf("0001-01-01T00:00:00.000Z")}`)).status).toBe(
    200,
  );
});

it("pages a run's tool calls in start order, answering only their contract fields, and lists its spans", async () => {
  const version = await saveWorkflowVersion(db, {
    teamId,
    name: "called",
    files: WORKFLOW("called"),
  });
  const run = await createRun(db, {
    teamId,
    workflowId: version.workflowId,
    workflowVersionId: version.id,
    lane: "default",
    trigger: "api",
  });
  const step = await startStepRun(db, {
    teamId,
    runId: run.id,
    stateName: "s",
    stepType: "agent",
    attempt: 1,
    path: { workflow: "called", key: "s", loop: [], calls: [] },
  });
  const at = new Date("2026-11-30T12:00:00.000Z");
  await insertToolCalls(
    db,
    teamId,
    run.id,
    Array.from({ length: 5 }, (_, i) => ({
      stepRunId: step.id,
      toolName: `tool_${i}`,
      source: "builtin",
      fidelity: "proxy" as const,
      arguments: { i },
      isError: false,
      // two share a start: the id orders them
      startedAt: new Date(at.getTime() + Math.min(i, 3) * 1000),
      durationMs: 5,
      traceId: "t".repeat(32),
    })),
  );
  await insertSpans(db, teamId, run.id, [
    {
      traceId: "a".repeat(32),
      spanId: "1".repeat(16),
      name: "run",
      kind: "internal",
      status: "ok",
      attributes: {},
      startTime: at,
      endTime: new Date(at.getTime() + 5000),
    },
    {
      traceId: "a".repeat(32),
      spanId: "2".repeat(16),
      parentSpanId: "1".repeat(16),
      name: "step s",
      kind: "internal",
      status: "ok",
      attributes: {},
      startTime: at,
    },
  ]);
  const caller = dashboardCaller({ db }, adminId);
  const names: string[] = [];
  let after: string | undefined;
  do {
    const page = await caller.runs.toolCalls({ id: run.id, limit: 2, after });
    names.push(...page.toolCalls.map((c) => c.toolName));
    expect(page.toolCalls.every((c) => c.stepRunId === step.id)).toBe(true);
    after = page.nextAfter ?? undefined;
  } while (after);
  expect(names.sort()).toEqual(["tool_0", "tool_1", "tool_2", "tool_3", "tool_4"]);
  const spans = await caller.runs.spans({ id: run.id });
  expect(spans.spans.map((s) => [s.name, s.parentSpanId])).toEqual([
    ["run", null],
    ["step s", "1".repeat(16)],
  ]);
  expect(spans.truncated).toBe(false);
  // A page of the oldest spans, saying there are more.
  const page = await caller.runs.spans({ id: run.id, limit: 1 });
  expect([page.spans.map((s) => s.name), page.truncated]).toEqual([["run"], true]);

  const token = (await createApiToken(db, { teamId, userId: adminId, name: "calls" })).token;
  const call = restCaller(
    { db, queue: undefined as unknown as Queue<RunJob>, redis, prefix: "unused" },
    () => token,
  );
  const rest = await call("GET", `/runs/${run.id}/tool-calls?limit=3`);
  expect(rest.status).toBe(200);
  const first = (rest.body as { toolCalls: Record<string, unknown>[] }).toolCalls[0]!;
  expect(first).toMatchObject({ toolName: "tool_0", arguments: { i: 0 } });
  expect(first).not.toHaveProperty("teamId");
  expect(first).not.toHaveProperty("traceId");
  const restSpans = await call("GET", `/runs/${run.id}/spans?limit=1`);
  expect(restSpans.body).toMatchObject({ spans: [{ name: "run" }], truncated: true });
  expect((await call("GET", `/runs/${run.id}/spans?limit=0`)).status).toBe(400);
});
