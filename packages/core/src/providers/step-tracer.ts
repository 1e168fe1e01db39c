/**
 * The tracing port of agent steps. The openai_compatible loop opens a `chat` span per model
 * request and an `execute_tool` span per tool call through it, named and attributed as the
 * OpenTelemetry GenAI semantic conventions say (docs/observability.md). Core imports no
 * OpenTelemetry: the worker implements the port over its SDK, under the attempt's span;
 * without a tracer nothing is traced.
 */
export type SpanAttributeValue = string | number | boolean | string[];
export type SpanAttributes = Record<string, SpanAttributeValue>;

export type StepSpan = {
  /** This span's W3C traceparent, for what it calls; undefined when tracing is off. */
  readonly traceparent: string | undefined;
  set(attributes: SpanAttributes): void;
  /** Ends the span; an `errorType` (the conventions' `error.type`) marks it failed. */
  end(errorType?: string, message?: string): void;
};

export type StepTracer = (
  name: string,
  kind: "client" | "internal",
  attributes: SpanAttributes,
) => StepSpan;

const NO_SPAN: StepSpan = { traceparent: undefined, set: () => undefined, end: () => undefined };

/** The tracer given, or one whose spans do nothing. */
export const tracerOrNone = (tracer: StepTracer | undefined): StepTracer =>
  tracer ?? (() => NO_SPAN);
