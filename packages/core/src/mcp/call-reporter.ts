/**
 * Turns one finished tools/call into its record, its span and its log line, scrubbed and
 * capped, and hands them to the sink; `emit` resolves once the sink has stored the record
 * (the proxy answers the call then), or at once where the sink cannot tell.
 */
import type { ToolResult } from "../tools";
import type { RecordSink, ReplayMark, SpanAttributes, ToolCallRecord } from "./call-record";
import { capValue, type Redactor } from "./redact";
import type { ResultCut } from "./result-cap";
import { callParentOf, newSpanId, type TraceContext } from "./trace-context";

type CallOutcome = {
  tool: string;
  source: string;
  via?: "call_tool";
  arguments: unknown;
  result: ToolResult | undefined;
  resultCut?: ResultCut;
  isError: boolean;
  errorType: string | null;
  startedAtMs: number;
  durationMs: number;
  jsonrpcId: string | number;
  protocolVersion: string;
  spanId: string;
  /** The span the request's `_meta` named as its parent (callParentOf); else the step's. */
  parentSpanId?: string;
  replay?: ReplayMark;
};

export type CallLogger = (entry: Record<string, unknown>) => void;

type CallReporterDeps = {
  sink: RecordSink;
  redactor: Redactor;
  trace: TraceContext;
  log?: CallLogger;
};

const nanos = (ms: number): string => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

export class CallReporter {
  constructor(private readonly deps: CallReporterDeps) {}

  /** A new call's span ids in the step's trace, its parent named by the request's `_meta.traceparent` when given. */
  spanOf(metaTraceparent: unknown): { traceId: string; spanId: string; parentSpanId?: string } {
    const { trace } = this.deps;
    const parentSpanId = callParentOf(trace, metaTraceparent);
    return {
      traceId: trace.traceId,
      spanId: newSpanId(),
      ...(parentSpanId ? { parentSpanId } : {}),
    };
  }

  emit(outcome: CallOutcome): Promise<void> {
    const { sink, redactor, trace, log } = this.deps;
    const record: ToolCallRecord = {
      type: "tool_call",
      tool: outcome.tool,
      source: outcome.source,
      fidelity: "proxy",
      ...(outcome.via ? { via: outcome.via } : {}),
      arguments: capValue(redactor.value(outcome.arguments)),
      result: capValue(redactor.value(outcome.result ?? null)),
      ...(outcome.resultCut ? { result_cut: outcome.resultCut } : {}),
      is_error: outcome.isError,
      error_type: outcome.errorType,
      started_at: new Date(outcome.startedAtMs).toISOString(),
      duration_ms: Math.round(outcome.durationMs * 1000) / 1000,
      jsonrpc_id: outcome.jsonrpcId,
      protocol_version: outcome.protocolVersion,
      trace_id: trace.traceId,
      span_id: outcome.spanId,
      parent_span_id: outcome.parentSpanId ?? trace.parentSpanId ?? null,
      ...(outcome.replay ? { replay: outcome.replay } : {}),
    };
    const stored = Promise.resolve(sink.record(record)).then(() => undefined);
    const attributes: SpanAttributes = {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": outcome.tool,
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": outcome.protocolVersion,
      "jsonrpc.request.id": String(outcome.jsonrpcId),
      "network.transport": "pipe",
      "switchyard.tool.source": outcome.source,
    };
    if (outcome.errorType) attributes["error.type"] = outcome.errorType;
    if (outcome.replay) attributes["switchyard.replay"] = outcome.replay;
    sink.span({
      name: `tools/call ${outcome.tool}`,
      trace_id: trace.traceId,
      span_id: outcome.spanId,
      parent_span_id: outcome.parentSpanId ?? trace.parentSpanId ?? null,
      kind: "server",
      start_time_unix_nano: nanos(outcome.startedAtMs),
      end_time_unix_nano: nanos(outcome.startedAtMs + outcome.durationMs),
      attributes,
      status: outcome.isError ? "error" : "ok",
    });
    log?.({
      level: outcome.isError ? "warn" : "info",
      msg: "tools/call",
      tool: outcome.tool,
      source: outcome.source,
      is_error: outcome.isError,
      error_type: outcome.errorType,
      ...(outcome.replay ? { replay: outcome.replay } : {}),
      ...(outcome.resultCut ? { result_cut: outcome.resultCut } : {}),
      duration_ms: record.duration_ms,
      jsonrpc_id: outcome.jsonrpcId,
      trace_id: trace.traceId,
      span_id: outcome.spanId,
    });
    return stored;
  }
}
