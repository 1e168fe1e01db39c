import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import type { SpanRecord } from "@switchyard/core/mcp";
import { afterEach, describe, expect, it } from "vitest";
import { exportProxySpan, readableProxySpan, setProxySpanTarget } from "./proxy-spans";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const AGENT_SPAN = "00f067aa0ba902b7";
const resource = resourceFromAttributes({ "service.name": "switchyard-mcp-proxy" });

const record = (over: Partial<SpanRecord> = {}): SpanRecord => ({
  name: "tools/call Write",
  trace_id: TRACE,
  span_id: "b7ad6b7169203331",
  parent_span_id: AGENT_SPAN,
  kind: "server",
  start_time_unix_nano: "1700000000123456789",
  end_time_unix_nano: "1700000001000000000",
  attributes: { "gen_ai.tool.name": "Write", "jsonrpc.request.id": "3" },
  status: "ok",
  ...over,
});

const runContext = (traceFlags: number, traceId = TRACE) =>
  trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: "a3ce929d0e0e4736", traceFlags });

describe("readableProxySpan", () => {
  it("keeps the proxy's ids, parent, times and attributes", () => {
    const span = readableProxySpan(record(), resource)!;
    expect(span.spanContext()).toMatchObject({
      traceId: TRACE,
      spanId: "b7ad6b7169203331",
      traceFlags: TraceFlags.SAMPLED,
    });
    expect(span.parentSpanContext).toMatchObject({
      traceId: TRACE,
      spanId: AGENT_SPAN,
      isRemote: true,
    });
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.startTime).toEqual([1_700_000_000, 123_456_789]);
    expect(span.endTime).toEqual([1_700_000_001, 0]);
    expect(span.duration).toEqual([0, 876_543_211]);
    expect(span.status).toEqual({ code: SpanStatusCode.OK });
    expect(span.attributes).toEqual({ "gen_ai.tool.name": "Write", "jsonrpc.request.id": "3" });
    expect(span.resource).toBe(resource);
  });

  it("marks a failed call as an error with its error type, and has no parent without one", () => {
    const span = readableProxySpan(
      record({ status: "error", parent_span_id: null, attributes: { "error.type": "tool_error" } }),
      resource,
    )!;
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "tool_error" });
    expect(span.parentSpanContext).toBeUndefined();
  });

  it("refuses records that are not spans and drops attribute values that are not scalars", () => {
    expect(readableProxySpan(record({ trace_id: "0".repeat(32) }), resource)).toBeUndefined();
    expect(readableProxySpan(record({ span_id: "not-hex" }), resource)).toBeUndefined();
    expect(readableProxySpan(record({ start_time_unix_nano: "soon" }), resource)).toBeUndefined();
    const odd = {
      ...record(),
      attributes: { kept: 1, nested: { a: 1 }, list: [1] },
    } as unknown as SpanRecord;
    expect(readableProxySpan(odd, resource)!.attributes).toEqual({ kept: 1 });
  });
});

describe("exportProxySpan", () => {
  const exporter = new InMemorySpanExporter();
  afterEach(() => {
    setProxySpanTarget(undefined);
    exporter.reset();
  });

  it("exports only spans of the run's sampled trace, and nothing without telemetry", async () => {
    exportProxySpan(record(), runContext(TraceFlags.SAMPLED));
    const processor = new SimpleSpanProcessor({ exporter });
    setProxySpanTarget({ processor, resource });
    exportProxySpan(record(), runContext(TraceFlags.SAMPLED));
    exportProxySpan(record({ span_id: "c7ad6b7169203331" }), runContext(TraceFlags.NONE));
    exportProxySpan(
      record({ span_id: "d7ad6b7169203331" }),
      runContext(TraceFlags.SAMPLED, "5bf92f3577b34da6a3ce929d0e0e4736"),
    );
    exportProxySpan(record({ span_id: "e7ad6b7169203331" }), undefined);
    await processor.forceFlush();
    expect(exporter.getFinishedSpans().map((s) => s.spanContext().spanId)).toEqual([
      "b7ad6b7169203331",
    ]);
  });
});
