/**
 * OpenTelemetry bootstrap: exports traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT
 * is set, and stays silent (no SDK started) otherwise. One batch span processor takes the
 * worker's spans and those its agent steps' proxies report (proxy-spans.ts); shutting down
 * flushes both.
 */
import { PROXY_SERVICE_NAME, setProxySpanTarget } from "./proxy-spans";

export const startTelemetry = async (endpoint: string | undefined, serviceName: string) => {
  if (!endpoint) return { shutdown: async () => undefined };
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const { BatchSpanProcessor } = await import("@opentelemetry/sdk-trace");
  const { resourceFromAttributes } = await import("@opentelemetry/resources");
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  const processor = new BatchSpanProcessor({
    exporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` }),
  });
  const sdk = new NodeSDK({ serviceName, spanProcessors: [processor] });
  sdk.start();
  setProxySpanTarget({
    processor,
    resource: resourceFromAttributes({ "service.name": PROXY_SERVICE_NAME }),
  });
  return {
    shutdown: () => {
      setProxySpanTarget(undefined);
      return sdk.shutdown();
    },
  };
};
