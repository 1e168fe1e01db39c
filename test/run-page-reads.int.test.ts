/**
 * What the run page reads of a run with many tool calls: one step attempt's calls a page at
 * a time (tRPC and REST, `stepRunId`), pages that neither repeat nor skip calls of the same
 * moment, and a step's activity without its latest calls when the page asks for none.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queue } from "bullmq";
import type { RunJob } from "@switchyard/core/runs";
import {
  createApiToken,
  createDb,
  createRun,
  insertToolCalls,
  saveWorkflowVersion,
  startStepRun,
  type Db,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller } from "./helpers/rest-caller";

let database: TestDatabase;
let db: Db;
let adminId: string;
let teamId: string;
let redis: Redis;

const WORKFLOW = {
  "workflow.yaml":
    "name: paged\nstates:\n  initial: a\n  a: { type: step, command: 'true', on_success: b }\n  b: { type: step, command: 'true' }\n",
};
const at = new Date("2026-11-30T12:00:00.000Z");

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

const newRunWithSteps = async () => {
  const version = await saveWorkflowVersion(db, { teamId, name: "paged", files: WORKFLOW });
  const run = await createRun(db, {
    teamId,
    workflowId: version.workflowId,
    workflowVersionId: version.id,
    lane: "default",
    trigger: "api",
  });
  const path = (key: string) => ({ workflow: "paged", key, loop: [], calls: [] });
  const first = await startStepRun(db, {
    teamId,
    runId: run.id,
    stateName: "a",
    stepType: "agent",
    attempt: 1,
    path: path("a"),
  });
  const second = await startStepRun(db, {
    teamId,
    runId: run.id,
    stateName: "b",
    stepType: "agent",
    attempt: 1,
    path: path("b"),
  });
  const calls = (stepRunId: string, prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      stepRunId,
      toolName: `${prefix}${i}`,
      source: "builtin",
      fidelity: "proxy" as const,
      arguments: { i },
      isError: false,
      // three calls a millisecond: the id orders calls of one moment
      startedAt: new Date(at.getTime() + Math.floor(i / 3)),
      durationMs: 1,
    }));
  // The steps' calls interleave in time, as two branches of a run would make them.
  await insertToolCalls(db, teamId, run.id, [
    ...calls(first.id, "a", 25),
    ...calls(second.id, "b", 7),
  ]);
  return { runId: run.id, first: first.id, second: second.id };
};

it("pages one step attempt's calls in start order, over tRPC and REST, without repeats or gaps", async () => {
  const { runId, first, second } = await newRunWithSteps();
  const caller = dashboardCaller({ db }, adminId);
  const names: string[] = [];
  let after: string | undefined;
  let pages = 0;
  do {
    const page = await caller.runs.toolCalls({ id: runId, stepRunId: first, limit: 4, after });
    expect(page.toolCalls.every((c) => c.stepRunId === first)).toBe(true);
    names.push(...page.toolCalls.map((c) => c.toolName));
    after = page.nextAfter ?? undefined;
    pages++;
  } while (after);
  expect(pages).toBe(7);
  expect(new Set(names).size).toBe(25);
  expect(names).toHaveLength(25);
  // In start order: the numbers never go down from one page to the next.
  const starts = names.map((n) => Math.floor(Number(n.slice(1)) / 3));
  expect(starts).toEqual([...starts].sort((a, b) => a - b));

  const token = (await createApiToken(db, { teamId, userId: adminId, name: "pages" })).token;
  const call = restCaller(
    { db, queue: undefined as unknown as Queue<RunJob>, redis, prefix: "unused" },
    () => token,
  );
  const rest = await call("GET", `/runs/${runId}/tool-calls?stepRunId=${second}&limit=100`);
  expect(rest.status).toBe(200);
  const body = rest.body as {
    toolCalls: { toolName: string; stepRunId: string }[];
    nextAfter: string | null;
  };
  expect(body.toolCalls.map((c) => c.toolName).sort()).toEqual([
    "b0",
    "b1",
    "b2",
    "b3",
    "b4",
    "b5",
    "b6",
  ]);
  expect(body.nextAfter).toBeNull();
  // Without stepRunId, every step's calls.
  const all = await call("GET", `/runs/${runId}/tool-calls?limit=500`);
  expect((all.body as { toolCalls: unknown[] }).toolCalls).toHaveLength(32);
});

it("leaves a step's latest calls out of its activity when asked for none, and says there are some", async () => {
  const { runId, first } = await newRunWithSteps();
  const caller = dashboardCaller({ db }, adminId);
  const none = await caller.runs.stepActivity({ runId, stepRunId: first, toolCallLimit: 0 });
  expect(none.toolCalls).toEqual([]);
  expect(none.toolCallsTruncated).toBe(true);
  const some = await caller.runs.stepActivity({ runId, stepRunId: first, toolCallLimit: 5 });
  expect(some.toolCalls.map((c) => c.toolName)).toEqual(["a20", "a21", "a22", "a23", "a24"]);
  expect((await caller.runs.stepActivity({ runId, stepRunId: first })).toolCalls).toHaveLength(25);
});
