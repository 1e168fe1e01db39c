/**
 * Spans for runs and steps. The run span continues the trace of the request that started
 * the run (its W3C traceparent travels in the job data); step spans are its children.
 * Without a configured exporter the API is a no-op and costs nothing.
 */
import { context, propagation, SpanStatusCode, trace, type Span } from "@opentelemetry/api";

const tracer = () => trace.getTracer("switchyard-worker");

/** Starts a run's span as a child of `traceparent` when given; answers it and its context. */
export const startRunSpan = (
  name: string,
  traceparent: string | undefined,
  attributes: Record<string, string>,
) => {
  const parent = traceparent
    ? propagation.extract(context.active(), { traceparent })
    : context.active();
  const span = tracer().startSpan(`run ${name}`, { attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
};

/** Runs `fn` in a child span of `parent`, which ends (marked an error if `fn` throws) when it does. */
export const withChildSpan = async <T>(
  parent: ReturnType<typeof startRunSpan>["context"],
  name: string,
  attributes: Record<string, string | number>,
  fn: (span: Span) => Promise<T>,
): Promise<T> => {
  const span = tracer().startSpan(name, { attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  } finally {
    span.end();
  }
};

/** Ends `span` with an OK or error status. */
export const endSpan = (span: Span, ok: boolean, message?: string) => {
  span.setStatus(ok ? { code: SpanStatusCode.OK } : { code: SpanStatusCode.ERROR, message });
  span.end();
};

/** The trace id to store on the run row, or undefined when tracing is off. */
export const traceIdOf = (span: Span) => {
  const id = span.spanContext().traceId;
  return /^0+$/.test(id) ? undefined : id;
};
