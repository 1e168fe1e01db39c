/**
 * A stand-in worker for the crash tests: starts one sandboxed step that leaves a detached
 * child and keeps running, relays its output, and waits to be SIGKILLed by the test.
 * Usage: node --import tsx hold-step.ts '<json {host, spec, spawnServer?}>' (`spawnServer`:
 * its sandbox is started by a spawn server, as the worker's are).
 */
import {
  runSandboxed,
  useSpawnServer,
  type SandboxHost,
  type SandboxSpec,
} from "@switchyard/core/sandbox";

const { host, spec, spawnServer } = JSON.parse(process.argv[2] ?? "{}") as {
  host: SandboxHost;
  spec: SandboxSpec;
  spawnServer?: boolean;
};
if (spawnServer) useSpawnServer();
await runSandboxed(host, spec, { onStdout: (chunk) => process.stdout.write(chunk) });
