/**
 * Stores what an agent step's MCP proxy reported over the step channel: each call record
 * becomes a ToolCall row of the step run, each span a Span row of the run. The channel has
 * already scrubbed them; the worker scrubs once more with the run's scrubber (values a step
 * resolved later join it). Rows are written in the order they arrived, off the step's path,
 * by one writer at a time: what arrives while a write is under way is stored by the next
 * one, together (up to BATCH rows a statement), so the statements grow with the rate of
 * records rather than their number; `record` resolves once the write that took its row has
 * ended (the proxy answers the call then). `flush` waits for every one of them before the
 * step is finished. A write the database cannot take because it is unreachable is tried again
 * while the outage lasts (up to `outageMs`; each row keeps its id, so none is stored
 * twice); past that, or refused, the step's flush fails with the error. With telemetry on,
 * the spans are exported too, scrubbed as stored (proxy-spans.ts).
 */
import type { Context } from "@opentelemetry/api";
import type { AttemptEventBus } from "@switchyard/core/events";
import type { SpanRecord, ToolCallRecord } from "@switchyard/core/mcp";
import type { AgentStepEvent } from "@switchyard/core/providers";
import type { Scrubber } from "@switchyard/core/secrets";
import {
  insertSpans,
  insertToolCalls,
  newRowId,
  whileDatabaseUnavailable,
  type Db,
  type SpanRow,
  type ToolCallRow,
} from "@switchyard/db";
import type { Logger } from "./logger";
import { exportProxySpan } from "./proxy-spans";

export type ToolCallRowWriterDeps = {
  db: Db;
  log: Logger;
  teamId: string;
  runId: string;
  /** The StepRun id of the agent attempt. */
  stepRunId: string;
  scrubber: Scrubber;
  /** The run's trace: the proxy's spans of it are exported, scrubbed as stored, when telemetry runs. */
  trace?: Context;
  /** How long a database outage may last before a write fails (SWITCHYARD_DB_OUTAGE_MS). */
  outageMs: number;
};

type NativeUse = { name: string; arguments: unknown; startedAt: Date };

const NOT_CONNECTORS = new Set(["builtin", "proxy"]);
/** Rows a write takes at most; what arrives while one is under way waits for the next. */
const BATCH = 2000;

const nanosToDate = (nanos: string) => {
  try {
    return new Date(Number(BigInt(nanos) / 1_000_000n));
  } catch {
    return new Date();
  }
};

export const toolCallRow = (stepRunId: string, r: ToolCallRecord): ToolCallRow => {
  const startedAt = new Date(r.started_at);
  return {
    id: newRowId(),
    stepRunId,
    toolName: r.tool,
    source: r.source,
    connectorId: NOT_CONNECTORS.has(r.source) ? null : r.source,
    fidelity: r.fidelity,
    arguments: r.arguments,
    result: r.result,
    resultCut: r.result_cut ?? null,
    isError: r.is_error,
    errorType: r.error_type,
    startedAt: Number.isNaN(startedAt.getTime()) ? new Date() : startedAt,
    durationMs: r.duration_ms,
    traceId: r.trace_id,
    spanId: r.span_id,
    replay: r.replay ?? null,
  };
};

export const spanRow = (s: SpanRecord): SpanRow => ({
  traceId: s.trace_id,
  spanId: s.span_id,
  parentSpanId: s.parent_span_id,
  name: s.name,
  kind: s.kind,
  status: s.status,
  attributes: s.attributes,
  startTime: nanosToDate(s.start_time_unix_nano),
  endTime: nanosToDate(s.end_time_unix_nano),
});

export const toolCallRowWriter = (deps: ToolCallRowWriterDeps) => {
  const { db, teamId, runId, scrubber } = deps;
  let calls: ToolCallRow[] = [];
  let spans: SpanRow[] = [];
  /** Settles when the write that takes the calls pending now has ended, stored or not: one for all of them. */
  let pendingStored: { promise: Promise<void>; settle: () => void } | undefined;
  const storedPromise = () => {
    if (!pendingStored) {
      let settle!: () => void;
      const promise = new Promise<void>((resolve) => (settle = resolve));
      pendingStored = { promise, settle };
    }
    return pendingStored.promise;
  };
  /** The one writer, while it runs: each round stores all that is pending, up to a batch. */
  let writing: Promise<void> | undefined;
  let failure: unknown;
  const outage = {
    outageMs: deps.outageMs,
    onRetry: (error: unknown, tries: number) => {
      if (tries === 1)
        deps.log.warn("the database is unreachable; tool calls wait to be recorded", {
          runId,
          stepRunId: deps.stepRunId,
          error: scrubber.scrub(String(error)),
        });
    },
  };
  const take = <T>(rows: T[]): [batch: T[], rest: T[]] =>
    rows.length <= BATCH ? [rows, []] : [rows.slice(0, BATCH), rows.slice(BATCH)];
  const write = async () => {
    // Records of the same task (one socket chunk's) join the first batch.
    await Promise.resolve();
    while (calls.length > 0 || spans.length > 0) {
      const [batchCalls, restCalls] = take(calls);
      const [batchSpans, restSpans] = take(spans);
      calls = restCalls;
      spans = restSpans;
      // The pending calls' promise belongs to the batch once every one of them is in it.
      const told = restCalls.length === 0 ? pendingStored : undefined;
      if (restCalls.length === 0) pendingStored = undefined;
      // Calls and spans go to tables of their own: both at once, on two connections.
      const stored = await Promise.allSettled([
        whileDatabaseUnavailable(() => insertToolCalls(db, teamId, runId, batchCalls), outage),
        whileDatabaseUnavailable(() => insertSpans(db, teamId, runId, batchSpans), outage),
      ]);
      for (const outcome of stored) {
        if (outcome.status === "fulfilled") continue;
        failure ??= outcome.reason;
        deps.log.error("could not record tool calls", {
          runId,
          stepRunId: deps.stepRunId,
          error: scrubber.scrub(String(outcome.reason)),
        });
      }
      told?.settle();
    }
    writing = undefined;
  };
  const later = () => {
    writing ??= write();
  };
  /** Native tool calls the CLI reported, by id, until their result arrives. */
  const native = new Map<string, NativeUse>();
  const nativeRow = (
    use: NativeUse,
    result: { text: string; isError: boolean } | undefined,
  ): ToolCallRow => ({
    id: newRowId(),
    stepRunId: deps.stepRunId,
    toolName: scrubber.scrub(use.name),
    source: "agent",
    connectorId: null,
    fidelity: "agent_reported",
    arguments: scrubber.scrubValue(use.arguments ?? null),
    result: result ? { text: scrubber.scrub(result.text) } : null,
    isError: result?.isError ?? true,
    errorType: result ? null : "no_result",
    startedAt: use.startedAt,
    durationMs: Date.now() - use.startedAt.getTime(),
  });
  return {
    /**
     * A tool the agent CLI ran itself (not through the proxy), as it reported it: stored
     * with fidelity `agent_reported` once its result arrives, or, unanswered, at flush.
     */
    agentEvent: (event: AgentStepEvent) => {
      if (event.type === "tool_use" && event.native)
        native.set(event.id, {
          name: event.name,
          arguments: event.arguments,
          startedAt: new Date(),
        });
      if (event.type !== "tool_result" || !event.native) return;
      const use = native.get(event.id) ?? {
        name: "unknown",
        arguments: null,
        startedAt: new Date(),
      };
      native.delete(event.id);
      calls.push(nativeRow(use, event));
      later();
    },
    /** Stores the proxy's record of a call; resolves once the write that took it has ended. */
    record: (record: ToolCallRecord) => {
      calls.push(toolCallRow(deps.stepRunId, scrubber.scrubValue(record)));
      const stored = storedPromise();
      later();
      return stored;
    },
    span: (span: SpanRecord) => {
      const scrubbed = scrubber.scrubValue(span);
      spans.push(spanRow(scrubbed));
      exportProxySpan(scrubbed, deps.trace);
      later();
    },
    /** Writes what is pending; throws when any batch of this step could not be stored. */
    flush: async () => {
      for (const use of native.values()) calls.push(nativeRow(use, undefined));
      native.clear();
      if (calls.length > 0 || spans.length > 0) later();
      while (writing) await writing;
      if (failure !== undefined) throw scrubber.scrubError(failure);
    },
  };
};

export type ToolCallRowWriter = ReturnType<typeof toolCallRowWriter>;

/**
 * Writes an agent attempt's ToolCall rows (`tool.recorded`, and the CLI's own tools from
 * `agent.reported`) and Span rows (`span.ended`) as its events arrive; `flush` before it ends.
 */
export const recordAttemptEvents = (
  events: AttemptEventBus,
  deps: ToolCallRowWriterDeps,
): ToolCallRowWriter => {
  const writer = toolCallRowWriter(deps);
  events.subscribe("tool.recorded", writer.record);
  events.subscribe("span.ended", writer.span);
  events.subscribe("agent.reported", writer.agentEvent);
  return writer;
};
