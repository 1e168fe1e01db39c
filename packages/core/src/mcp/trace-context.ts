/**
 * W3C trace context without an OpenTelemetry SDK: parses the step's `traceparent` and
 * makes span ids for each call, so the worker can export spans with the ids chosen here.
 */
import { randomBytes } from "node:crypto";

export type TraceContext = { traceId: string; parentSpanId: string | undefined; sampled: boolean };

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

const newTraceId = (): string => randomBytes(16).toString("hex");
/** A new random 8-byte span id in hex. */
export const newSpanId = (): string => randomBytes(8).toString("hex");

/** The parent context, or a fresh trace when `traceparent` is absent or invalid. */
export const parseTraceparent = (header: string | undefined): TraceContext => {
  const m = header ? TRACEPARENT.exec(header.trim().toLowerCase()) : null;
  if (!m || m[1] === "ff" || /^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) {
    return { traceId: newTraceId(), parentSpanId: undefined, sampled: true };
  }
  return { traceId: m[2]!, parentSpanId: m[3]!, sampled: (parseInt(m[4]!, 16) & 1) === 1 };
};

/**
 * The parent of one call's span: the span a `traceparent` in the request's `params._meta`
 * names when it belongs to the step's trace (context propagation as the MCP semantic
 * conventions put it), else the step's own parent. A traceparent of another trace is
 * ignored: the worker exports only spans of the run's trace.
 */
export const callParentOf = (step: TraceContext, meta: unknown): string | undefined => {
  const given = typeof meta === "string" ? parseTraceparent(meta) : undefined;
  return given?.parentSpanId && given.traceId === step.traceId
    ? given.parentSpanId
    : step.parentSpanId;
};
