/**
 * OpenTelemetry bootstrap: exports traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT
 * is set, and stays silent (no SDK started) otherwise.
 */
export const startTelemetry = async (endpoint: string | undefined, serviceName: string) => {
  if (!endpoint) return { shutdown: async () => undefined };
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` }),
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
};
