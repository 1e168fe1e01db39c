/**
 * A stand-in worker for the crash tests: starts one sandboxed step that leaves a detached
 * child and keeps running, relays its output, and waits to be SIGKILLed by the test.
 * Usage: node --import tsx hold-step.ts '<json {host, spec}>'
 */
import { runSandboxed, type SandboxHost, type SandboxSpec } from "@switchyard/core/sandbox";

const { host, spec } = JSON.parse(process.argv[2] ?? "{}") as {
  host: SandboxHost;
  spec: SandboxSpec;
};
await runSandboxed(host, spec, { onStdout: (chunk) => process.stdout.write(chunk) });
