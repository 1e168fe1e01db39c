/**
 * The tool calls and spans an agent step's MCP proxy reported, as the worker stores them:
 * team-scoped, written in ordered multi-row batches, every text and JSON value through
 * storable.ts (the records are already scrubbed by the step channel).
 */
import type { Db } from "../client";
import type { Prisma, ToolFidelity } from "../generated/prisma/client";
import { storableJson, storableText } from "../storable";

export type ToolCallRow = {
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

const json = (value: unknown) => storableJson(value ?? null) as Prisma.InputJsonValue;

/** Inserts the rows in the order given (one statement). */
export const insertToolCalls = async (db: Db, teamId: string, runId: string, rows: readonly ToolCallRow[]) => {
  if (rows.length === 0) return;
  await db.toolCall.createMany({
    data: rows.map((r) => ({
      teamId,
      runId,
      stepRunId: r.stepRunId,
      toolName: storableText(r.toolName),
      source: storableText(r.source),
      connectorId: storableText(r.connectorId ?? null),
      fidelity: r.fidelity,
      arguments: json(r.arguments),
      result: json(r.result),
      ...(r.resultCut ? { resultCut: json(r.resultCut) } : {}),
      isError: r.isError,
      errorType: storableText(r.errorType ?? null),
      startedAt: r.startedAt,
      durationMs: Math.max(0, Math.round(r.durationMs)),
      traceId: r.traceId ?? null,
      spanId: r.spanId ?? null,
    })),
  });
};

/** Inserts spans once each: a span already stored (same trace and span id) is skipped. */
export const insertSpans = async (db: Db, teamId: string, runId: string, rows: readonly SpanRow[]) => {
  if (rows.length === 0) return;
  await db.span.createMany({
    skipDuplicates: true,
    data: rows.map((s) => ({
      teamId,
      runId,
      traceId: s.traceId,
      spanId: s.spanId,
      parentSpanId: s.parentSpanId ?? null,
      name: storableText(s.name),
      kind: storableText(s.kind),
      status: storableText(s.status),
      attributes: json(s.attributes) as Prisma.InputJsonObject,
      startTime: s.startTime,
      endTime: s.endTime ?? null,
    })),
  });
};

/** A step run's tool calls in the order they started. */
export const listStepToolCalls = (db: Db, teamId: string, stepRunId: string) =>
  db.toolCall.findMany({ where: { teamId, stepRunId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] });

/**
 * A page of a run's tool calls (every step's), in the order they started: `after` is the
 * id of the last call of the previous page; `nextAfter` is null on the last page.
 */
export const listRunToolCalls = async (db: Db, teamId: string, runId: string, options: { after?: string; take?: number } = {}) => {
  const take = Math.min(Math.max(options.take ?? 100, 1), 500);
  const from = options.after ? await db.toolCall.findFirst({ where: { id: options.after, teamId, runId }, select: { startedAt: true, id: true } }) : null;
  const rows = await db.toolCall.findMany({
    where: {
      teamId,
      runId,
      ...(from ? { OR: [{ startedAt: { gt: from.startedAt } }, { startedAt: from.startedAt, id: { gt: from.id } }] } : {}),
    },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
    take: take + 1,
    select: {
      id: true,
      stepRunId: true,
      toolName: true,
      source: true,
      fidelity: true,
      arguments: true,
      result: true,
      isError: true,
      errorType: true,
      startedAt: true,
      durationMs: true,
    },
  });
  const page = rows.slice(0, take);
  return { toolCalls: page, nextAfter: rows.length > take ? (page[page.length - 1]?.id ?? null) : null };
};
