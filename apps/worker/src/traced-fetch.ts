/**
 * The fetch http connectors are reached with, traced: each request made under a span (a
 * connector call the proxy's tools/call span led to) gets an HTTP client span as the
 * OpenTelemetry HTTP semantic conventions name it, and carries that span's W3C
 * `traceparent` header, so the connector's own server can continue the run's trace.
 * Requests made outside any span (a pool's background work) go out as they are.
 */
import {
  context,
  isSpanContextValid,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { FetchLike } from "@switchyard/core/egress";

const tracer = () => trace.getTracer("switchyard-worker");

/** The URL without its query, fragment or credentials: what a span may show of it. */
const shownUrl = (url: URL) => `${url.protocol}//${url.host}${url.pathname}`;

export const tracedFetch = (fetch: FetchLike): FetchLike => {
  return async (input, init) => {
    const parent = context.active();
    const under = trace.getSpanContext(parent);
    if (!under || !isSpanContextValid(under)) return fetch(input, init);
    const url = new URL(String(input));
    const method = (init?.method ?? "GET").toUpperCase();
    const span = tracer().startSpan(
      method,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          "http.request.method": method,
          "url.full": shownUrl(url),
          "server.address": url.hostname,
          "server.port": Number(url.port) || (url.protocol === "https:" ? 443 : 80),
        },
      },
      parent,
    );
    const headers = new Headers(init?.headers);
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(parent, span), carrier);
    for (const [name, value] of Object.entries(carrier)) headers.set(name, value);
    try {
      const response = await fetch(input, { ...init, headers });
      span.setAttribute("http.response.status_code", response.status);
      if (response.status >= 400) {
        span.setAttribute("error.type", String(response.status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      return response;
    } catch (error) {
      span.setAttribute("error.type", error instanceof Error ? error.name : "_OTHER");
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  };
};
