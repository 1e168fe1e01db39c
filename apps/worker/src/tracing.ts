/**
 * Spans for runs and steps, named and attributed as the OpenTelemetry GenAI semantic
 * conventions say (docs/observability.md). The run's `invoke_workflow` span continues the
 * trace of the request or trigger that started the run (its W3C traceparent travels in the
 * job data); step spans are its children, an agent attempt's `invoke_agent` span a child of
 * its step's. Without a configured exporter the API is a no-op and costs nothing.
 */
import {
  context,
  isValidSpanId,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from "@opentelemetry/api";
import type { MeterEvent } from "@switchyard/core/gateway";
import { CLI_PROVIDERS, type StepTracer } from "@switchyard/core/providers";

const tracer = () => trace.getTracer("switchyard-worker");

/** The W3C traceparent of a span, its sampled flag as the trace has it; undefined when tracing is off. */
export const traceparentOf = (traceId: string, spanId: string, traceFlags: number) =>
  /^0+$/.test(traceId)
    ? undefined
    : `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}`;

/** The traceparent of `span`, for what runs under it. */
export const traceparentOfSpan = (span: Span) => {
  const c = span.spanContext();
  return traceparentOf(c.traceId, c.spanId, c.traceFlags);
};

/**
 * Starts a run's `invoke_workflow {workflow}` span as a child of `traceparent` when given;
 * answers it and its context.
 */
export const startRunSpan = (
  name: string,
  traceparent: string | undefined,
  attributes: Record<string, string>,
) => {
  const parent = traceparent
    ? propagation.extract(context.active(), { traceparent })
    : context.active();
  const span = tracer().startSpan(
    `invoke_workflow ${name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "invoke_workflow",
        "gen_ai.workflow.name": name,
        ...attributes,
      },
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
};

const failed = (span: Span, error: unknown) => {
  span.setAttribute(
    "error.type",
    error instanceof Error && "code" in error && typeof error.code === "string"
      ? error.code
      : "_OTHER",
  );
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
};

/** Runs `fn` in a child span of `parent`, which ends (marked an error if `fn` throws) when it does. */
export const withChildSpan = async <T>(
  parent: Context,
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> => {
  const span = tracer().startSpan(name, { kind, attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
};

/** Ends `span` with an OK or error status; a failure's `error.type` is its code when known. */
export const endSpan = (span: Span, ok: boolean, message?: string, errorType?: string) => {
  if (!ok) span.setAttribute("error.type", errorType ?? "_OTHER");
  span.setStatus(ok ? { code: SpanStatusCode.OK } : { code: SpanStatusCode.ERROR, message });
  span.end();
};

/** The trace id to store on the run row, or undefined when tracing is off. */
export const traceIdOf = (span: Span) => {
  const id = span.spanContext().traceId;
  return /^0+$/.test(id) ? undefined : id;
};

/**
 * Where a connector call runs: under the proxy's tools/call span it serves when that span is
 * of the step's trace (a step cannot put spans into another trace), else under the step.
 */
export const connectorCallContext = (
  step: Context,
  call: { traceId: string; spanId: string } | undefined,
): Context => {
  const own = trace.getSpanContext(step);
  if (!call || !own || call.traceId !== own.traceId || !isValidSpanId(call.spanId)) return step;
  return trace.setSpanContext(step, { ...own, spanId: call.spanId, isRemote: true });
};

/** Core's tracing port over the SDK: spans under the active context (the attempt's `invoke_agent`). */
export const stepTracer: StepTracer = (name, kind, attributes) => {
  const span = tracer().startSpan(name, {
    kind: kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
    attributes,
  });
  return {
    traceparent: traceparentOfSpan(span),
    set: (more) => void span.setAttributes(more),
    end: (errorType, message) => {
      if (errorType) {
        span.setAttribute("error.type", errorType);
        span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message } : {}) });
      }
      span.end();
    },
  };
};

/** The conventions' `gen_ai.provider.name` of each vendor the gateway forwards to. */
const PROVIDER_NAMES: Record<MeterEvent["vendor"], string> = {
  anthropic: "anthropic",
  openai: "openai",
  gemini: "gcp.gemini",
};

/** The conventions' `gen_ai.provider.name` of an agent step's provider: the vendor API its model speaks. */
export const agentProviderName = (provider: string) =>
  Object.hasOwn(CLI_PROVIDERS, provider)
    ? PROVIDER_NAMES[CLI_PROVIDERS[provider]!.cli.vendor]
    : "openai";

/**
 * A `chat {model}` span under `parent` for one model request the gateway metered for a CLI
 * step, from when the gateway took it to now.
 */
export const meteredChatSpan = (parent: Context, event: MeterEvent) => {
  const model = event.model ?? "unknown";
  const span = tracer().startSpan(
    `chat ${model}`,
    {
      kind: SpanKind.CLIENT,
      ...(event.startedAtMs ? { startTime: event.startedAtMs } : {}),
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": PROVIDER_NAMES[event.vendor],
        "gen_ai.request.model": model,
        "gen_ai.response.model": model,
        // The gateway's input count includes cached tokens, as the conventions count them.
        "gen_ai.usage.input_tokens": event.inputTokens,
        "gen_ai.usage.output_tokens": event.outputTokens,
        "gen_ai.usage.cache_read.input_tokens": event.cacheReadTokens,
        "gen_ai.usage.cache_creation.input_tokens": event.cacheWriteTokens,
        "switchyard.gateway.request_id": event.requestId,
        ...(event.costUsd === null ? {} : { "switchyard.cost.usd": event.costUsd }),
      },
    },
    parent,
  );
  if (event.status >= 400 || !event.complete) {
    span.setAttribute("error.type", event.status >= 400 ? String(event.status) : "incomplete");
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
};
