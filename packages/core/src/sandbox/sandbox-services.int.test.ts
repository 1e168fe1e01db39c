/**
 * With `network: false` a step cannot reach the project's PostgreSQL and Redis on the
 * host's loopback. Ports come from the environment (.env); a port that is unset is
 * replaced by a listener of the test's own.
 */
import { connect, createServer, type Server } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runSandboxed } from "./run-sandboxed";
import type { SandboxHost } from "./sandbox-types";
import {
  detectForTest,
  makeStepDirs,
  removeStepDirs,
  spec,
  type StepDirs,
} from "@switchyard/testing/sandbox";

const UID = 61400;
let host: SandboxHost;
let dirs: StepDirs;
const servers: Server[] = [];
const ports: Record<string, number> = {};

const listen = async () => {
  const server = createServer((s) => s.end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return (server.address() as { port: number }).port;
};

beforeAll(async () => {
  host = await detectForTest(UID);
  dirs = await makeStepDirs();
  for (const [name, variable] of [
    ["postgres", "SWITCHYARD_PG_PORT"],
    ["redis", "SWITCHYARD_REDIS_PORT"],
  ] as const) {
    const fromEnv = Number(process.env[variable]);
    ports[name] = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : await listen();
  }
});
afterAll(async () => {
  await removeStepDirs(dirs);
  for (const s of servers) s.close();
});

const probe = (port: number) =>
  `const s=require("net").connect(${port},"127.0.0.1");s.on("connect",()=>{console.log("connected");process.exit(0)});s.on("error",e=>{console.log("error:"+e.code);process.exit(1)})`;

it.each(["postgres", "redis"])(
  "cannot connect to %s on the host's loopback with network: false",
  async (name) => {
    const port = ports[name]!;
    const hostSide = await new Promise<string>((resolve) => {
      const s = connect(port, "127.0.0.1");
      s.on("connect", () => (s.destroy(), resolve("connected")));
      s.on("error", (e) => resolve(String(e)));
    });
    expect(hostSide).toBe("connected"); // the service is really there
    const r = await runSandboxed(host, spec(dirs, UID, ["node", "-e", probe(port)]), {
      timeoutMs: 20_000,
    });
    expect(r.stdout).not.toContain("connected");
    expect(r.stdout).toContain("error:ECONNREFUSED");
  },
);
