/**
 * A step without network reaches the model gateway and nothing else of the host: the real
 * sandbox (bubblewrap with its own network namespace) runs the step's command behind the
 * loopback forwarder, with the gateway's unix socket and the forwarder script bound in.
 * A request to 127.0.0.1:<port> inside reaches the gateway and the scripted model behind
 * it, while the gateway's TCP port, the model's port and the host's own address do not
 * answer; the same probes do answer with the network on (the control). The forwarder
 * passes the command's exit status on and refuses bad arguments.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { fingerprint } from "@switchyard/scripted-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSandboxed } from "../sandbox/run-sandboxed";
import type { SandboxHost } from "../sandbox/sandbox-types";
import {
  detectForTest,
  makeStepDirs,
  removeStepDirs,
  spec,
  type StepDirs,
} from "@switchyard/testing/sandbox";
import { installLoopbackForwarder, loopbackCommand } from "./loopback-command";
import { createLoopbackForwarder } from "./loopback-forwarder.mjs";
import { cleanup, REAL_KEY, scripted, startHarness } from "@switchyard/testing/gateway";

const UID = 61500;
const INSIDE = {
  script: "/run/switchyard/loopback-forwarder.mjs",
  socket: "/run/switchyard/gateway.sock",
  port: 18080,
};

/** Runs in the sandbox: one model request through the forwarder, then connection probes. */
const CLIENT = `
const net = require("node:net");
const probe = (host, port) => new Promise((resolve) => {
  if (!host) return resolve("skipped");
  const s = net.connect(Number(port), host);
  const done = (r) => { s.destroy(); resolve(r); };
  s.on("connect", () => done("connected"));
  s.on("error", (e) => done(e.code));
  setTimeout(() => done("timeout"), 3000);
});
(async () => {
  const out = {};
  if (process.env.FWD_PORT) {
    const r = await fetch("http://127.0.0.1:" + process.env.FWD_PORT + "/v1/messages", {
      method: "POST",
      headers: { "x-api-key": process.env.GW_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ model: "claude-haiku-4-5", max_tokens: 5, messages: [{ role: "user", content: "hi" }] }),
    });
    out.status = r.status;
    out.body = await r.text();
  }
  out.gatewayTcp = await probe("127.0.0.1", process.env.GW_PORT);
  out.model = await probe("127.0.0.1", process.env.MODEL_PORT);
  out.hostAddress = await probe(process.env.HOST_ADDR, process.env.HOST_PORT);
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(String(e)); process.exit(1); });
`;

/** The host's first non-loopback IPv4 address, if it has one. */
const hostAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

let host: SandboxHost;
let dirs: StepDirs;
let wide: Server;
const later = cleanup();

beforeAll(async () => {
  host = await detectForTest(UID);
  dirs = await makeStepDirs();
  // a service on every host address, which a step with network can reach
  wide = createServer((s) => s.end());
  await new Promise<void>((resolve) => wide.listen(0, "0.0.0.0", resolve));
});
afterAll(async () => {
  await later.run();
  wide.close();
  await removeStepDirs(dirs);
});

const setUp = async () => {
  const model = later.add(
    await scripted({
      turns: [{ text: "hello through the socket", usage: { inputTokens: 11, outputTokens: 4 } }],
    }),
  );
  const folder = await mkdtemp(path.join(tmpdir(), "gw-fwd-"));
  await chmod(folder, 0o711); // the step uid must reach the socket
  later.defer(() => rm(folder, { recursive: true, force: true }));
  const h = later.add(await startHarness({ socketPath: path.join(folder, "gateway.sock") }));
  const reg = h.register("anthropic", model.url);
  const binds = [
    { path: await installLoopbackForwarder(folder), mode: "ro" as const, target: INSIDE.script },
    { path: h.gateway.socketPath!, mode: "ro" as const, target: INSIDE.socket },
  ];
  const env = {
    GW_TOKEN: reg.token,
    GW_PORT: String(h.gateway.port),
    MODEL_PORT: String(model.port),
    HOST_ADDR: hostAddress() ?? "",
    HOST_PORT: String((wide.address() as { port: number }).port),
  };
  return { model, h, reg, binds, env };
};

const run = (argv: string[], extra: Parameters<typeof spec>[3]) =>
  runSandboxed(host, spec(dirs, UID, argv, extra), { timeoutMs: 60_000 });

describe("a step without network", () => {
  it("reaches the gateway through the forwarder and the bound socket, and nothing else of the host", async (ctx) => {
    if (host.level === "none") ctx.skip(); // no network namespace without bubblewrap
    const { model, h, reg, binds, env } = await setUp();
    const argv = loopbackCommand({
      script: INSIDE.script,
      socketPath: INSIDE.socket,
      listenPort: INSIDE.port,
      command: ["node", "-e", CLIENT],
    });
    const r = await run(argv, {
      network: false,
      binds,
      env: { ...env, FWD_PORT: String(INSIDE.port) },
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, string | number>;
    expect(out.status, String(out.body)).toBe(200);
    expect(out.body).toContain("hello through the socket");
    expect(out.body).not.toContain(REAL_KEY);
    expect(out.gatewayTcp).toBe("ECONNREFUSED"); // the step's own loopback: nothing listens there
    expect(out.model).toBe("ECONNREFUSED");
    if (env.HOST_ADDR) expect(out.hostAddress).toBe("ENETUNREACH");
    expect(model.requests[0]!.auth).toEqual([
      { header: "x-api-key", fingerprint: fingerprint(REAL_KEY) },
    ]);
    expect(reg.events).toEqual([
      expect.objectContaining({
        model: "claude-haiku-4-5",
        inputTokens: 11,
        outputTokens: 4,
        complete: true,
      }),
    ]);
    expect(h.logs.join("\n")).not.toContain(REAL_KEY);
  });

  it("(control) with the network on, the same probes do connect", async () => {
    const { env } = await setUp();
    const r = await run(["node", "-e", CLIENT], { network: true, env });
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, string>;
    expect(out.gatewayTcp).toBe("connected");
    expect(out.model).toBe("connected");
    if (env.HOST_ADDR) expect(out.hostAddress).toBe("connected");
  });

  it("passes the command's exit status on, and refuses bad arguments with status 2", async () => {
    const { binds } = await setUp();
    const exits = await run(
      loopbackCommand({
        script: INSIDE.script,
        socketPath: INSIDE.socket,
        listenPort: INSIDE.port,
        command: ["sh", "-c", "echo out; echo err >&2; exit 3"],
      }),
      { network: false, binds },
    );
    expect([exits.exitCode, exits.stdout, exits.stderr]).toEqual([3, "out\n", "err\n"]);
    const bad = await run(["node", INSIDE.script, "not-a-port", INSIDE.socket, "--", "true"], {
      network: false,
      binds,
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("usage: loopback-forwarder <port> <socket-path>");
  });
});

describe("createLoopbackForwarder", () => {
  it("pipes a loopback port to a unix socket, both ways, until closed", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "gw-fwd-unit-"));
    later.defer(() => rm(folder, { recursive: true, force: true }));
    const socketPath = path.join(folder, "echo.sock");
    const echo = createServer((s) => s.pipe(s));
    await new Promise<void>((resolve) => echo.listen(socketPath, resolve));
    later.defer(() => new Promise((resolve) => echo.close(resolve)));
    const forwarder = await createLoopbackForwarder({ listenPort: 0, socketPath });
    const { connect } = await import("node:net");
    const reply = await new Promise<string>((resolve, reject) => {
      const s = connect(forwarder.port, "127.0.0.1");
      let got = "";
      s.on("data", (d: Buffer) => {
        got += d.toString();
        if (got === "ping") s.end();
      });
      s.on("close", () => resolve(got));
      s.on("error", reject);
      s.write("ping");
    });
    expect(reply).toBe("ping");
    await forwarder.close();
    const refused = await new Promise<string>((resolve) => {
      const s = connect(forwarder.port, "127.0.0.1");
      s.on("connect", () => resolve("connected"));
      s.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
    });
    expect(refused).toBe("ECONNREFUSED");
  });
});
