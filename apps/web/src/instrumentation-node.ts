/**
 * Server boot on Node: validate the environment (fail loudly, naming the variable) and
 * start OpenTelemetry when an OTLP endpoint is configured.
 */
import { env } from "./env";

let config;
try {
  config = env();
} catch (e) {
  console.error(`switchyard-web: ${(e as Error).message}`);
  process.exit(1);
}
const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
if (endpoint) {
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  new NodeSDK({
    serviceName: "switchyard-web",
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` }),
  }).start();
}

// Scheduled syncs of linked git repositories (docs/git-sync.md).
{
  const { startGitSchedule } = await import("./server/git/git-schedule");
  const services = await import("./server/services");
  startGitSchedule(() => ({
    db: services.db(),
    keyring: services.keyring,
    egress: services.egress(),
  }));
}
