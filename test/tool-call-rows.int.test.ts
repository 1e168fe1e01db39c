/**
 * The worker's ToolCallRowWriter against a real database: what an agent step's proxy reports
 * is stored completely, in the order it arrived, scrubbed and team-scoped; records that
 * arrive while a write is under way are stored together in a few multi-row statements (not
 * one statement a socket chunk); and `flush`, at the step's end, returns only once every
 * record handed to the writer is stored. Statements are counted by a trigger of this
 * test's own database; writes are held back with a table lock.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SpanRecord, ToolCallRecord } from "@switchyard/core/mcp";
import { Scrubber } from "@switchyard/core/secrets";
import {
  createRun,
  listRunSpans,
  listStepToolCalls,
  saveWorkflowVersion,
  startStepRun,
  type Db,
} from "@switchyard/db";
import { createLogger } from "../apps/worker/src/logger";
import { toolCallRowWriter } from "../apps/worker/src/tool-call-rows";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

const SECRET = "sk-live-4f9a8b7c6d5e4f3a2b1c";
const SAME_START = "2030-01-01T00:00:00.000Z";

let database: SeededDatabase;
let db: Db;
let teamId: string;
let runId: string;
let admin: pg.Client;
let attempt = 0;

const newStep = async () =>
  (
    await startStepRun(db, {
      teamId,
      runId,
      stateName: "agent",
      stepType: "agent",
      attempt: ++attempt,
      path: { workflow: "recorded", key: "agent", loop: [], calls: [] },
    })
  ).id;

const writerFor = (stepRunId: string) =>
  toolCallRowWriter({
    db,
    log: createLogger("error"),
    teamId,
    runId,
    stepRunId,
    scrubber: new Scrubber().add(SECRET),
    outageMs: 5_000,
  });

const record = (i: number, extra: Partial<ToolCallRecord> = {}): ToolCallRecord => ({
  type: "tool_call",
  tool: `tool_${i}`,
  source: i % 3 === 0 ? "github" : "builtin",
  fidelity: "proxy",
  arguments: { path: `src/file-${i}.ts`, header: `Authorization: Bearer ${SECRET}` },
  result: { content: [{ type: "text", text: `line ${i}\n`.repeat(8) }] },
  is_error: false,
  error_type: null,
  // All start at once: only the order they arrived in tells them apart.
  started_at: SAME_START,
  duration_ms: i % 7,
  jsonrpc_id: i,
  protocol_version: "2025-06-18",
  trace_id: "a".repeat(32),
  span_id: i.toString(16).padStart(16, "0"),
  parent_span_id: null,
  ...extra,
});

const span = (i: number, stepNo: number): SpanRecord => ({
  name: `tools/call tool_${i}`,
  trace_id: stepNo.toString(16).padStart(32, "0"),
  span_id: i.toString(16).padStart(16, "0"),
  parent_span_id: null,
  kind: "server",
  start_time_unix_nano: "1893456000000000000",
  end_time_unix_nano: "1893456000005000000",
  attributes: { "gen_ai.tool.name": `tool_${i}` },
  status: "ok",
});

const insertStatements = async () =>
  (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM test_insert_statements`))
    .rows[0]!.n;

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

/** Resolves once a statement of the writer waits on the lock this test holds. */
const untilAWriteWaits = async () => {
  for (let i = 0; i < 400; i++) {
    const waiting = await admin.query(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if (waiting.rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("no write of the writer waited on the lock");
};

beforeAll(async () => {
  database = await openSeededDatabase();
  db = database.db;
  teamId = database.teamId;
  const version = await saveWorkflowVersion(db, {
    teamId,
    name: "recorded",
    files: {
      "workflow.yaml":
        "name: recorded\nstates:\n  initial: s\n  s:\n    type: step\n    command: 'true'\n",
    },
  });
  runId = (
    await createRun(db, {
      teamId,
      workflowId: version.workflowId,
      workflowVersionId: version.id,
      lane: "default",
      trigger: "api",
    })
  ).id;
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`
    CREATE TABLE test_insert_statements (at timestamptz NOT NULL DEFAULT now());
    CREATE FUNCTION test_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_insert_statements DEFAULT VALUES; RETURN NULL; END $$;
    CREATE TRIGGER test_count_insert AFTER INSERT ON "ToolCall" FOR EACH STATEMENT EXECUTE FUNCTION test_count_insert();
  `);
});

afterAll(async () => {
  await admin?.end();
  await database?.close();
});

it("stores a burst of records completely, in the order they arrived, scrubbed and team-scoped, with their spans", async () => {
  const stepRunId = await newStep();
  const writer = writerFor(stepRunId);
  const n = 3000;
  for (let i = 0; i < n; i++) {
    void writer.record(record(i));
    writer.span(span(i, attempt));
  }
  await writer.flush();

  const rows = await listStepToolCalls(db, teamId, stepRunId);
  expect(rows.map((r) => r.toolName)).toEqual(Array.from({ length: n }, (_, i) => `tool_${i}`));
  expect(
    rows.every((r) => r.teamId === teamId && r.runId === runId && r.stepRunId === stepRunId),
  ).toBe(true);
  expect(JSON.stringify(rows)).not.toContain(SECRET);
  expect(rows[0]!.arguments).toEqual({
    path: "src/file-0.ts",
    header: "Authorization: Bearer [REDACTED]",
  });
  expect(rows[3]!.connectorId).toBe("github");
  expect(rows[1]!.connectorId).toBeNull();
  const spans = await listRunSpans(db, teamId, runId, 10_000);
  expect(spans.spans.filter((s) => s.name.startsWith("tools/call "))).toHaveLength(n);
  expect(await listStepToolCalls(db, "another-team", stepRunId)).toEqual([]);
});

it("answers a record once its row is stored, so the proxy can hold the call's result until then", async () => {
  const stepRunId = await newStep();
  const writer = writerFor(stepRunId);
  let answered = 0;
  await admin.query("BEGIN");
  await admin.query(`LOCK TABLE "ToolCall" IN SHARE MODE`);
  let both: Promise<unknown>;
  try {
    both = Promise.all(
      [writer.record(record(0)), writer.record(record(1))].map((p) => p.then(() => answered++)),
    );
    await untilAWriteWaits();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(0);
  } finally {
    await admin.query("COMMIT");
  }
  await both;
  // No flush: each record's promise settled after the write that took it.
  expect((await listStepToolCalls(db, teamId, stepRunId)).map((r) => r.toolName)).toEqual([
    "tool_0",
    "tool_1",
  ]);
  await writer.flush();
});

it("stores each field as the run page reads it: JSON null, a cut result, a NUL byte, a whole duration within the column, how a replay answered", async () => {
  const stepRunId = await newStep();
  const writer = writerFor(stepRunId);
  void writer.record(
    record(0, {
      result: null,
      duration_ms: 2.6,
      is_error: true,
      error_type: "tool_error",
      replay: "recorded",
    }),
  );
  void writer.record(
    record(1, {
      arguments: { text: "a\u0000b" },
      result_cut: { bytes: 90_000, file: ".switchyard/results/1.txt" },
    }),
  );
  // A duration past an int column (or none a number) does not cost the batch its rows.
  void writer.record(record(2, { duration_ms: 3e9 }));
  void writer.record(record(4, { duration_ms: Number.NaN }));
  writer.agentEvent({
    type: "tool_use",
    id: "u1",
    name: "Bash",
    arguments: { command: `echo ${SECRET}` },
    native: true,
  });
  await writer.flush();

  const rows = await listStepToolCalls(db, teamId, stepRunId);
  expect(rows).toHaveLength(5);
  expect(rows.find((r) => r.toolName === "tool_2")!.durationMs).toBe(2_147_483_647);
  expect(rows.find((r) => r.toolName === "tool_4")!.durationMs).toBe(0);
  const [first, second, native] = [
    rows.find((r) => r.toolName === "tool_0")!,
    rows.find((r) => r.toolName === "tool_1")!,
    rows.find((r) => r.toolName === "Bash")!,
  ];
  expect(first).toMatchObject({
    result: null,
    resultCut: null,
    durationMs: 3,
    isError: true,
    errorType: "tool_error",
    fidelity: "proxy",
    source: "github",
    connectorId: "github",
    replay: "recorded",
  });
  expect(first.startedAt.toISOString()).toBe(SAME_START);
  expect(first.traceId).toBe("a".repeat(32));
  expect(second).toMatchObject({
    arguments: { text: "a\uFFFDb" },
    resultCut: { bytes: 90_000, file: ".switchyard/results/1.txt" },
    isError: false,
    errorType: null,
    replay: null,
  });
  expect(native).toMatchObject({
    fidelity: "agent_reported",
    source: "agent",
    arguments: { command: "echo [REDACTED]" },
    result: null,
    isError: true,
    errorType: "no_result",
  });
});

it("stores records arriving chunk by chunk while a write waits in a few multi-row statements, and flush waits for them all", async () => {
  const stepRunId = await newStep();
  const writer = writerFor(stepRunId);
  const before = await insertStatements();
  const chunks = 60;
  const perChunk = 50;
  await admin.query("BEGIN");
  await admin.query(`LOCK TABLE "ToolCall" IN SHARE MODE`);
  let flushed = false;
  let flushing: Promise<void> | undefined;
  try {
    for (let c = 0; c < chunks; c++) {
      // One socket chunk's records, each chunk in a task of its own as the channel reads them.
      for (let i = 0; i < perChunk; i++) void writer.record(record(c * perChunk + i));
      if (c === 0) await untilAWriteWaits();
      else await nextTick();
    }
    flushing = writer.flush().then(() => void (flushed = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(flushed).toBe(false);
  } finally {
    await admin.query("COMMIT");
  }
  await flushing;

  const rows = await listStepToolCalls(db, teamId, stepRunId);
  expect(rows.map((r) => r.toolName)).toEqual(
    Array.from({ length: chunks * perChunk }, (_, i) => `tool_${i}`),
  );
  const statements = (await insertStatements()) - before;
  expect(statements).toBeGreaterThanOrEqual(2);
  expect(statements).toBeLessThanOrEqual(5);
});

it("says at flush that records could not be stored, once the step's row is gone", async () => {
  const stepRunId = await newStep();
  const writer = writerFor(stepRunId);
  void writer.record(record(0));
  await writer.flush();
  await admin.query(`DELETE FROM "StepRun" WHERE id = $1`, [stepRunId]);
  void writer.record(record(1));
  writer.span(span(1, attempt));
  await expect(writer.flush()).rejects.toThrow(/foreign key/i);
});
