import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { buildStepCatalog } from "./build-step-catalog";
import { McpConnectorHost, type ConnectorSpec } from "./mcp-connector-host";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.join(HERE, "../../../../test/fixtures/fixture-mcp-server.mjs");
const REPO = path.resolve(HERE, "../../../..");

const stdio = (
  id: string,
  extra: Partial<Extract<ConnectorSpec, { kind: "stdio" }>> = {},
): ConnectorSpec => ({
  id,
  kind: "stdio",
  command: process.execPath,
  args: [FIXTURE],
  cwd: REPO,
  ...extra,
});

let httpServer: ChildProcess;
let httpUrl: string;
const hosts: McpConnectorHost[] = [];
const track = (h: McpConnectorHost) => (hosts.push(h), h);
const text = (r: { content: unknown }) =>
  (r.content as { text?: string }[]).map((b) => b.text ?? "").join("");

beforeAll(async () => {
  httpServer = spawn(process.execPath, [FIXTURE, "--http"], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) =>
    httpServer.stdout!.once("data", (c: Buffer) => resolve(c.toString().trim())),
  );
  httpUrl = `http://127.0.0.1:${port}/mcp`;
});
afterAll(() => {
  httpServer.kill("SIGTERM");
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

describe("McpConnectorHost", () => {
  it("calls a stdio connector with its credential in the environment, and an HTTP one with a bearer per request", async () => {
    let httpToken = "first-token-aaaa";
    const host = track(
      new McpConnectorHost({
        connectors: [
          stdio("local", { credentialEnv: "FIXTURE_TOKEN" }),
          { id: "remote", kind: "http", url: httpUrl },
        ],
        credentials: { resolve: async (id) => (id === "local" ? "stdio-secret-1234" : httpToken) },
      }),
    );
    expect(text(await host.callTool("local", "echo", { text: "hi" }))).toBe("hi");
    expect(text(await host.callTool("local", "reveal", {}))).toBe("credential=stdio-secret-1234");
    expect(text(await host.callTool("remote", "reveal", {}))).toBe(
      "credential=Bearer first-token-aaaa",
    );
    httpToken = "refreshed-token-bbbb";
    expect(text(await host.callTool("remote", "reveal", {}))).toBe(
      "credential=Bearer refreshed-token-bbbb",
    );
    const weather = await host.callTool("remote", "weather", { city: "Oslo" });
    expect(weather.structuredContent).toEqual({ city: "Oslo", celsius: 21 });
  });

  it("refuses plain http to anything but loopback", async () => {
    const host = track(
      new McpConnectorHost({
        connectors: [{ id: "far", kind: "http", url: "http://example.com/mcp" }],
      }),
    );
    await expect(host.callTool("far", "echo", {})).rejects.toThrow(
      /must be https, or http on loopback/,
    );
  });

  it("lists every page of a connector's tools (the proxy itself, which pages at 100)", async () => {
    const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const dir = await mkdtemp(path.join(tmpdir(), "sy-host-"));
    const config = path.join(dir, "c.json");
    const catalog = Array.from({ length: 130 }, (_, i) => ({
      name: `x_t${i}`,
      connector: "x",
      tool: `t${i}`,
    }));
    await writeFile(config, JSON.stringify({ root_dir: dir, catalog, log_calls: false }));
    const host = track(
      new McpConnectorHost({
        connectors: [
          stdio("proxy", {
            args: [
              "--import",
              "tsx",
              path.join(REPO, "packages/cli/src/mcp-serve-command-entry.ts"),
              "--config",
              config,
            ],
          }),
        ],
      }),
    );
    const tools = await host.listTools("proxy");
    expect(tools).toHaveLength(136);
    expect(tools.at(-1)!.name).toBe("x_t129");
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("cools a failing connector down without affecting the others, then retries after the cooldown", async () => {
    let now = 1_000_000;
    const host = track(
      new McpConnectorHost({
        connectors: [
          stdio("good"),
          { id: "broken", kind: "stdio", command: "/nonexistent/server" },
        ],
        cooldownMs: 60_000,
        now: () => now,
      }),
    );
    await expect(host.callTool("broken", "echo", { text: "x" })).rejects.toMatchObject({
      code: "EXECUTION.CONNECTOR_UNAVAILABLE",
    });
    await expect(host.callTool("broken", "echo", { text: "x" })).rejects.toThrow(
      /retrying in 60 s/,
    );
    expect(text(await host.callTool("good", "echo", { text: "still fine" }))).toBe("still fine");
    now += 61_000;
    await expect(host.callTool("broken", "echo", { text: "x" })).rejects.not.toThrow(/retrying in/);
  });

  it("cools down a connector that crashes mid-call or times out, and reconnects afterwards", async () => {
    let now = 0;
    const host = track(
      new McpConnectorHost({
        connectors: [stdio("c")],
        callTimeoutMs: 300,
        cooldownMs: 1000,
        now: () => now,
      }),
    );
    await expect(host.callTool("c", "sleep", { ms: 3000 })).rejects.toMatchObject({
      code: "EXECUTION.CONNECTOR_UNAVAILABLE",
    });
    await expect(host.callTool("c", "echo", { text: "x" })).rejects.toThrow(/retrying in/);
    now += 1001;
    expect(text(await host.callTool("c", "echo", { text: "back" }))).toBe("back");
    await expect(host.callTool("c", "crash", {})).rejects.toBeInstanceOf(AppError);
    await expect(host.callTool("c", "echo", { text: "x" })).rejects.toThrow(/retrying in/);
  });
});

describe("buildStepCatalog", () => {
  it("names tools <connector>_<tool>, checks the lane, and fails on collisions", async () => {
    const host = track(new McpConnectorHost({ connectors: [stdio("fx"), stdio("fx.")] }));
    const gate = { allows: (id: string, lane: string) => lane === "operator" || id === "fx" };
    const { catalog } = await buildStepCatalog({ host, gate, lane: "default", connectors: ["fx"] });
    expect(catalog.map((e) => e.name)).toEqual([
      "fx_echo",
      "fx_reveal",
      "fx_weather",
      "fx_sleep",
      "fx_crash",
    ]);
    expect(catalog[0]).toMatchObject({
      connector: "fx",
      tool: "echo",
      description: "Echo the text back",
    });
    await expect(
      buildStepCatalog({ host, gate, lane: "default", connectors: ["fx."] }),
    ).rejects.toMatchObject({ code: "USER.MCP_PROXY.LANE_DENIED" });
    await expect(
      buildStepCatalog({ host, gate, lane: "operator", connectors: ["fx", "fx."] }),
    ).rejects.toMatchObject({
      code: "USER.MCP_PROXY.NAME_COLLISION",
    });
  });
});
