/**
 * The tool calls and spans an agent step's MCP proxy reported, as the worker stores them:
 * team-scoped, written in ordered multi-row statements (unnest() of one array a column: a
 * Prisma createMany of the same rows costs several times more), every text and JSON value
 * through storable.ts (the records are already scrubbed by the step channel).
 */
import { newRowId } from "../row-id";
import { poolOf, type Db } from "../client";
import type { ToolFidelity } from "../generated/prisma/client";
import { storableJson, storableText } from "../storable";

export type ToolCallRow = {
  /** Made by the caller (newRowId), so a batch sent again stores each call once; made here when absent. */
  id?: string;
  stepRunId: string;
  toolName: string;
  /** `builtin`, `proxy`, or the connector id. */
  source: string;
  connectorId?: string | null;
  fidelity: ToolFidelity;
  arguments: unknown;
  result?: unknown;
  /** The proxy cut the result the agent got: its full size and the file keeping it. */
  resultCut?: { bytes: number; file: string | null } | null;
  isError: boolean;
  errorType?: string | null;
  startedAt: Date;
  durationMs: number;
  traceId?: string | null;
  spanId?: string | null;
  /** In a replay: `recorded`, `live` or `unmatched` (how the call was answered). */
  replay?: string | null;
};

export type SpanRow = {
  traceId: string;
  spanId: string;
  parentSpanId?: string | null;
  name: string;
  kind: string;
  status: string;
  attributes: Record<string, unknown>;
  startTime: Date;
  endTime?: Date | null;
};

/** JSON text for a jsonb column, through storable.ts only when the text holds a U+0000. */
const jsonText = (value: unknown) => {
  const text = JSON.stringify(value ?? null);
  return text.includes("\\u0000") ? JSON.stringify(storableJson(value ?? null)) : text;
};

/** `timestamp(3)` columns hold UTC; a cast to `timestamp` ignores the ISO text's zone. */
const utc = (date: Date) => date.toISOString();

/** A duration for an int4 column: whole, 0 when it is no number, at most the column's top. */
const wholeMs = (ms: number) =>
  Number.isFinite(ms) ? Math.min(2_147_483_647, Math.max(0, Math.round(ms))) : 0;

/** At most this many rows a statement: larger batches are written in turn. */
const ROWS_PER_STATEMENT = 2000;

/** Straight through node-postgres when the client's pool is at hand (see client.ts), else as a Prisma raw query. */
const execute = async (db: Db, sql: string, params: unknown[]) => {
  const pool = poolOf(db);
  if (pool && !pool.ending) await pool.query(sql, params);
  else await db.$executeRawUnsafe(sql, ...params);
};

const inChunks = async <T>(
  rows: readonly T[],
  write: (chunk: readonly T[]) => Promise<unknown>,
) => {
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT)
    await write(
      at === 0 && rows.length <= ROWS_PER_STATEMENT
        ? rows
        : rows.slice(at, at + ROWS_PER_STATEMENT),
    );
};

const INSERT_TOOL_CALLS = `INSERT INTO "ToolCall" ("id", "teamId", "runId", "stepRunId", "toolName", "source", "connectorId", "fidelity", "arguments", "result", "resultCut", "isError", "errorType", "startedAt", "durationMs", "traceId", "spanId", "replay")
SELECT u.id, $1, $2, u.step, u.tool, u.source, u.connector, u.fidelity::"ToolFidelity", u.args, u.result, u.cut, u.error, u.error_type, u.started, u.duration, u.trace, u.span, u.replay
FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[], $10::jsonb[], $11::jsonb[], $12::boolean[], $13::text[], $14::timestamp(3)[], $15::int4[], $16::text[], $17::text[], $18::text[])
  AS u(id, step, tool, source, connector, fidelity, args, result, cut, error, error_type, started, duration, trace, span, replay)
ON CONFLICT (id) DO NOTHING`;

/**
 * Inserts the rows in the order given: one multi-row statement (unnest of one array a
 * column) for up to 2,000 rows, the statements in turn.
 */
export const insertToolCalls = async (
  db: Db,
  teamId: string,
  runId: string,
  rows: readonly ToolCallRow[],
) =>
  inChunks(rows, (chunk) =>
    execute(db, INSERT_TOOL_CALLS, [
      teamId,
      runId,
      chunk.map((r) => r.id ?? newRowId()),
      chunk.map((r) => r.stepRunId),
      chunk.map((r) => storableText(r.toolName)),
      chunk.map((r) => storableText(r.source)),
      chunk.map((r) => storableText(r.connectorId ?? null)),
      chunk.map((r) => r.fidelity),
      chunk.map((r) => jsonText(r.arguments)),
      chunk.map((r) => jsonText(r.result)),
      chunk.map((r) => (r.resultCut ? jsonText(r.resultCut) : null)),
      chunk.map((r) => r.isError),
      chunk.map((r) => storableText(r.errorType ?? null)),
      chunk.map((r) => utc(r.startedAt)),
      chunk.map((r) => wholeMs(r.durationMs)),
      chunk.map((r) => storableText(r.traceId ?? null)),
      chunk.map((r) => storableText(r.spanId ?? null)),
      chunk.map((r) => storableText(r.replay ?? null)),
    ]),
  );

const INSERT_SPANS = `INSERT INTO "Span" ("id", "teamId", "runId", "traceId", "spanId", "parentSpanId", "name", "kind", "status", "attributes", "startTime", "endTime")
SELECT u.id, $1, $2, u.trace, u.span, u.parent, u.name, u.kind, u.status, u.attributes, u.start, u.finish
FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::jsonb[], $11::timestamp(3)[], $12::timestamp(3)[])
  AS u(id, trace, span, parent, name, kind, status, attributes, start, finish)
ON CONFLICT ("traceId", "spanId") DO NOTHING`;

/** Inserts spans once each: a span already stored (same trace and span id) is skipped. */
export const insertSpans = async (
  db: Db,
  teamId: string,
  runId: string,
  rows: readonly SpanRow[],
) =>
  inChunks(rows, (chunk) =>
    execute(db, INSERT_SPANS, [
      teamId,
      runId,
      chunk.map(newRowId),
      chunk.map((s) => storableText(s.traceId)),
      chunk.map((s) => storableText(s.spanId)),
      chunk.map((s) => storableText(s.parentSpanId ?? null)),
      chunk.map((s) => storableText(s.name)),
      chunk.map((s) => storableText(s.kind)),
      chunk.map((s) => storableText(s.status)),
      chunk.map((s) => jsonText(s.attributes)),
      chunk.map((s) => utc(s.startTime)),
      chunk.map((s) => (s.endTime ? utc(s.endTime) : null)),
    ]),
  );

/** A step run's tool calls in the order they started. */
export const listStepToolCalls = (db: Db, teamId: string, stepRunId: string) =>
  db.toolCall.findMany({
    where: { teamId, stepRunId },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
  });
