/**
 * Exports the spans an agent step's MCP proxy reports, under the proxy's own ids, through the
 * worker's batch span processor, so a trace viewer shows run → agent span → tool calls as
 * one tree. The proxy is a process of its own in the step sandbox: its spans carry a
 * resource of their own. Until telemetry starts with an endpoint there is no processor and
 * nothing is exported.
 */
import {
  isSpanContextValid,
  isValidSpanId,
  isValidTraceId,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type HrTime,
  type SpanContext,
  type SpanStatus,
} from "@opentelemetry/api";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace";
import type { SpanRecord } from "@switchyard/core/mcp";

/** The service name the spans the proxies report are exported under. */
export const PROXY_SERVICE_NAME = "switchyard-mcp-proxy";

export type ProxySpanTarget = { processor: SpanProcessor; resource: ReadableSpan["resource"] };

let target: ProxySpanTarget | undefined;

/** Set by telemetry while its processor runs; `undefined` stops the export. */
export const setProxySpanTarget = (next: ProxySpanTarget | undefined) => {
  target = next;
};

const NANOS = 1_000_000_000n;

const nanosOf = (value: unknown) =>
  typeof value === "string" && /^\d{1,20}$/.test(value) ? BigInt(value) : undefined;

const hrTime = (nanos: bigint): HrTime => [Number(nanos / NANOS), Number(nanos % NANOS)];

const attributesOf = (value: unknown): Attributes => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const kept = Object.entries(value as Record<string, unknown>).filter(
    ([, v]) =>
      typeof v === "string" ||
      typeof v === "boolean" ||
      (typeof v === "number" && Number.isFinite(v)),
  );
  return Object.fromEntries(kept) as Attributes;
};

const statusOf = (record: SpanRecord, attributes: Attributes): SpanStatus => {
  if (record.status !== "error") return { code: SpanStatusCode.OK };
  const type = attributes["error.type"];
  return typeof type === "string"
    ? { code: SpanStatusCode.ERROR, message: type }
    : { code: SpanStatusCode.ERROR };
};

/**
 * The span as the SDK's exporters take it, or undefined when the record is not a span (it
 * crossed the step channel as JSON, so each field is checked before it is used).
 */
export const readableProxySpan = (
  record: SpanRecord,
  resource: ReadableSpan["resource"],
): ReadableSpan | undefined => {
  const { trace_id: traceId, span_id: spanId, parent_span_id: parentId } = record;
  const start = nanosOf(record.start_time_unix_nano);
  const end = nanosOf(record.end_time_unix_nano);
  if (
    typeof record.name !== "string" ||
    !isValidTraceId(traceId) ||
    !isValidSpanId(spanId) ||
    start === undefined ||
    end === undefined
  )
    return undefined;
  const context: SpanContext = { traceId, spanId, traceFlags: TraceFlags.SAMPLED };
  const parent: SpanContext | undefined =
    typeof parentId === "string" && isValidSpanId(parentId)
      ? { traceId, spanId: parentId, traceFlags: TraceFlags.SAMPLED, isRemote: true }
      : undefined;
  const attributes = attributesOf(record.attributes);
  return {
    name: record.name,
    kind: record.kind === "server" ? SpanKind.SERVER : SpanKind.INTERNAL,
    spanContext: () => context,
    ...(parent ? { parentSpanContext: parent } : {}),
    startTime: hrTime(start),
    endTime: hrTime(end > start ? end : start),
    duration: hrTime(end > start ? end - start : 0n),
    status: statusOf(record, attributes),
    attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: { name: PROXY_SERVICE_NAME },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
};

/**
 * Hands a proxy span to the processor when telemetry runs and the span belongs to the
 * sampled trace of `within` (the run's context): a step cannot add spans to other traces.
 */
export const exportProxySpan = (record: SpanRecord, within: Context | undefined) => {
  if (!target || !within) return;
  const run = trace.getSpanContext(within);
  if (
    !run ||
    !isSpanContextValid(run) ||
    (run.traceFlags & TraceFlags.SAMPLED) === 0 ||
    record.trace_id !== run.traceId
  )
    return;
  const span = readableProxySpan(record, target.resource);
  if (span) target.processor.onEnd(span);
};
