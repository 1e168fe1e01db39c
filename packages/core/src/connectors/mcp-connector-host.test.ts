import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { buildStepCatalog } from "./build-step-catalog";
import type { ConnectorSpec } from "./connector-host";
import { McpConnectorHost } from "./mcp-connector-host";
import { loopbackEgressFetch } from "@switchyard/testing/egress";
import { createEgressFetch, EGRESS_PROFILES, NO_EGRESS_EXCEPTIONS } from "../egress";

/** The fixture servers listen on loopback, which the operator's allow-list names here. */
const egress = loopbackEgressFetch("connector");

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../../../..");
/** Servers of the 2025 revisions (v1 SDK) and of 2026-07-28 (v2 SDK), and one that takes nothing before initialize. */
const FIXTURE = path.join(REPO, "test/fixtures/fixture-mcp-server.mjs");
const FIXTURE_2026 = path.join(REPO, "test/fixtures/fixture-mcp-server-2026.mjs");
const FIXTURE_STRICT = path.join(REPO, "test/fixtures/fixture-mcp-server-strict.mjs");

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

const httpServers: ChildProcess[] = [];
let httpUrl: string;
let httpUrl2026: string;
const hosts: McpConnectorHost[] = [];
const track = (h: McpConnectorHost) => (hosts.push(h), h);
const text = (r: { content: unknown }) =>
  (r.content as { text?: string }[]).map((b) => b.text ?? "").join("");

/** Starts a fixture over streamable HTTP; its URL. */
const startHttp = async (fixture: string) => {
  const server = spawn(process.execPath, [fixture, "--http"], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "inherit"],
  });
  httpServers.push(server);
  const port = await new Promise<string>((resolve) =>
    server.stdout.once("data", (c: Buffer) => resolve(c.toString().trim())),
  );
  return `http://127.0.0.1:${port}/mcp`;
};

beforeAll(async () => {
  [httpUrl, httpUrl2026] = await Promise.all([startHttp(FIXTURE), startHttp(FIXTURE_2026)]);
});
afterAll(() => {
  for (const server of httpServers) server.kill("SIGTERM");
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

describe("McpConnectorHost", () => {
  it.each([
    { era: "legacy", fixture: FIXTURE, url: () => httpUrl },
    { era: "modern", fixture: FIXTURE_2026, url: () => httpUrl2026 },
  ] as const)(
    "calls a stdio connector with its credential in the environment, and an HTTP one with a bearer per request ($era era)",
    async ({ era, fixture, url }) => {
      let httpToken = "first-token-aaaa";
      const host = track(
        new McpConnectorHost({
          connectors: [
            stdio("local", { args: [fixture], credentialEnv: "FIXTURE_TOKEN" }),
            { id: "remote", kind: "http", url: url() },
          ],
          httpFetch: egress,
          credentials: {
            resolve: async (id) => (id === "local" ? "stdio-secret-1234" : httpToken),
          },
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
      expect([host.eraOf("local"), host.eraOf("remote")]).toEqual([era, era]);
    },
  );

  it("reaches http connectors only through the egress fetch it was given, under its rule", async () => {
    const without = track(
      new McpConnectorHost({ connectors: [{ id: "remote", kind: "http", url: httpUrl }] }),
    );
    await expect(without.callTool("remote", "echo", {})).rejects.toThrow(/given no egress fetch/);
    const strict = track(
      new McpConnectorHost({
        connectors: [
          { id: "far", kind: "http", url: "http://example.com/mcp" },
          { id: "loop", kind: "http", url: httpUrl },
        ],
        httpFetch: createEgressFetch(NO_EGRESS_EXCEPTIONS, EGRESS_PROFILES.connector),
      }),
    );
    await expect(strict.callTool("far", "echo", {})).rejects.toThrow(
      /plain http is allowed only to hosts the operator lists/,
    );
    await expect(strict.callTool("loop", "echo", {})).rejects.toThrow(
      /resolves to a loopback address|it is a loopback address/,
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
    // A failed connector's era is found again at its next connect.
    expect(host.eraOf("c")).toBeUndefined();
  });

  it("leaves a connector up when its caller aborts a call", async () => {
    const host = track(new McpConnectorHost({ connectors: [stdio("c")] }));
    const controller = new AbortController();
    const call = host.callTool("c", "sleep", { ms: 5000 }, controller.signal);
    setTimeout(() => controller.abort(), 200);
    await expect(call).rejects.toThrow();
    expect(text(await host.callTool("c", "echo", { text: "still up" }))).toBe("still up");
    expect(host.liveCount).toBe(1);
  });
});

describe("McpConnectorHost as the worker's pool", () => {
  it("keeps a connector's tool list until the server says it changed", async () => {
    const host = track(new McpConnectorHost({ connectors: [stdio("g")] }));
    const names = async () => (await host.listTools("g")).map((t) => t.name);
    expect(await names()).not.toContain("grown_0");
    expect(text(await host.callTool("g", "grow", {}))).toBe("added grown_0");
    const until = Date.now() + 5000;
    while (!(await names()).includes("grown_0") && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    expect(await names()).toContain("grown_0");
  });

  it("restarts a connector whose definition or credential changed, and closes idle ones", async () => {
    let now = 0;
    let token = "first-secret-0000";
    const host = track(
      new McpConnectorHost({
        credentials: { resolve: async () => token },
        idleMs: 60_000,
        now: () => now,
      }),
    );
    host.define(stdio("v", { credentialEnv: "FIXTURE_TOKEN", version: "1" }));
    expect(text(await host.callTool("v", "reveal", {}))).toBe("credential=first-secret-0000");
    token = "second-secret-1111";
    // Same version: the running server keeps the credential it was started with.
    host.define(stdio("v", { credentialEnv: "FIXTURE_TOKEN", version: "1" }));
    expect(text(await host.callTool("v", "reveal", {}))).toBe("credential=first-secret-0000");
    host.define(stdio("v", { credentialEnv: "FIXTURE_TOKEN", version: "2" }));
    expect(text(await host.callTool("v", "reveal", {}))).toBe("credential=second-secret-1111");
    expect(host.liveCount).toBe(1);
    now += 59_000;
    host.closeIdle();
    expect(host.liveCount).toBe(1);
    now += 2_000;
    host.closeIdle();
    expect(host.liveCount).toBe(0);
  });

  it("never closes as idle a connector with a call running, and counts its end as a use", async () => {
    let now = 0;
    const host = track(
      new McpConnectorHost({ connectors: [stdio("slow")], idleMs: 60_000, now: () => now }),
    );
    expect(text(await host.callTool("slow", "echo", { text: "up" }))).toBe("up");
    const long = host.callTool("slow", "sleep", { ms: 1000 });
    await new Promise((r) => setTimeout(r, 200));
    now += 61_000;
    host.closeIdle();
    expect(text(await long)).toBe("slept 1000");
    host.closeIdle();
    expect(host.liveCount).toBe(1);
    now += 61_000;
    host.closeIdle();
    expect(host.liveCount).toBe(0);
  });

  it("never closes as idle a connector still being connected for a call", async () => {
    let now = 0;
    const host = track(
      new McpConnectorHost({ connectors: [stdio("starting")], idleMs: 1_000, now: () => now }),
    );
    const call = host.callTool("starting", "echo", { text: "up" });
    // The server is still starting when the sweep comes (a loaded machine, a slow server).
    now += 2_000;
    host.closeIdle();
    expect(text(await call)).toBe("up");
    expect(host.liveCount).toBe(1);
  });

  it("holds at most maxLive connectors, closing the least recently used", async () => {
    let now = 0;
    const host = track(
      new McpConnectorHost({
        connectors: [stdio("a"), stdio("b"), stdio("c")],
        maxLive: 2,
        now: () => (now += 1),
      }),
    );
    for (const id of ["a", "b", "a", "c"])
      expect(text(await host.callTool(id, "echo", { text: id }))).toBe(id);
    expect(host.liveCount).toBe(2);
    // b was the least recently used when c came; a and c are still up.
    expect(text(await host.callTool("a", "echo", { text: "a again" }))).toBe("a again");
    expect(host.liveCount).toBe(2);
  });

  it("does not close a connector with a call running to make room: the cap bends instead", async () => {
    let now = 0;
    const host = track(
      new McpConnectorHost({
        connectors: [stdio("a"), stdio("b")],
        maxLive: 1,
        now: () => (now += 1),
      }),
    );
    // The fixture counts the tools it added: a count that starts again is a new server process.
    expect(text(await host.callTool("a", "grow", {}))).toBe("added grown_0");
    const stop = new AbortController();
    const long = host.callTool("a", "sleep", { ms: 60_000 }, stop.signal);
    await new Promise((r) => setTimeout(r, 200));
    // a is the least recently used, but its call runs: b comes up beside it, and once b's
    // call is over b goes, bringing the pool back under its cap.
    expect(text(await host.callTool("b", "echo", { text: "b" }))).toBe("b");
    expect(host.liveCount).toBe(1);
    expect(text(await host.callTool("a", "grow", {}))).toBe("added grown_1");
    stop.abort();
    await expect(long).rejects.toThrow();
  });

  it("gives up a connection still being made when it closes, rather than waiting out the connect timeout", async () => {
    const host = track(
      new McpConnectorHost({
        // A server that never answers initialize.
        connectors: [{ id: "mute", kind: "stdio", command: "sh", args: ["-c", "sleep 60"] }],
        connectTimeoutMs: 120_000,
      }),
    );
    const call = host.callTool("mute", "echo", {}).then(
      () => "answered",
      (e: Error) => e.message,
    );
    await new Promise((r) => setTimeout(r, 300));
    await host.close();
    expect(await call).toMatch(/pool closed/);
    await expect(host.callTool("mute", "echo", {})).rejects.toThrow(/pool is closed/);
  });

  it("backs off longer at each failure in a row", async () => {
    let now = 0;
    const host = track(
      new McpConnectorHost({
        connectors: [{ id: "x", kind: "stdio", command: "/nonexistent/server" }],
        cooldownMs: 1000,
        now: () => now,
      }),
    );
    const retryIn = async () => {
      const message = await host.callTool("x", "echo", {}).then(
        () => "answered",
        (e: Error) => e.message,
      );
      return /retrying in (\d+) s/.exec(message)?.[1];
    };
    await host.callTool("x", "echo", {}).catch(() => undefined);
    expect(await retryIn()).toBe("1");
    now += 1001;
    await host.callTool("x", "echo", {}).catch(() => undefined);
    expect(await retryIn()).toBe("2");
    now += 2001;
    await host.callTool("x", "echo", {}).catch(() => undefined);
    expect(await retryIn()).toBe("4");
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
      "fx_fingerprint",
      "fx_weather",
      "fx_sleep",
      "fx_crash",
      "fx_grow",
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

  it("keeps only the exposed tools of a plugin connector, and refuses one it does not list", async () => {
    const host = track(new McpConnectorHost({ connectors: [stdio("fx"), stdio("fx.")] }));
    const gate = { allows: () => true };
    const connectors = ["fx", "fx."];
    const { catalog } = await buildStepCatalog({
      host,
      gate,
      lane: "default",
      connectors,
      expose: { fx: ["echo"], "fx.": ["reveal"] },
    });
    // Only what is exposed is named, so the two connectors no longer collide.
    expect(catalog.map((e) => [e.name, e.connector, e.tool])).toEqual([
      ["fx_echo", "fx", "echo"],
      ["fx_reveal", "fx.", "reveal"],
    ]);
    const refused = await buildStepCatalog({
      host,
      gate,
      lane: "default",
      connectors,
      expose: { fx: ["nope"] },
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("USER.MCP_PROXY.UNKNOWN_OPERATION");
    expect((refused as AppError).message).toContain("operation 'nope' not found in plugin 'fx'");
  });
});

/**
 * Emulates the worker's `openStdio`: the connector's own pipes under the v1 SDK's generic
 * stdio transport (which the client probes in place), noting every method the host sends.
 */
const ownPipes =
  (sent: string[]) =>
  async (spec: Extract<ConnectorSpec, { kind: "stdio" }>, env: Record<string, string>) => {
    const child = spawn(spec.command, spec.args ?? [], {
      cwd: spec.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      stdio: ["pipe", "pipe", "ignore"],
    });
    const transport = new StdioServerTransport(child.stdout, child.stdin);
    const send = transport.send.bind(transport);
    transport.send = (message) => {
      if ("method" in message) sent.push(message.method);
      return send(message);
    };
    const close = transport.close.bind(transport);
    transport.close = async () => {
      await close();
      child.kill();
    };
    child.once("exit", () => void transport.close());
    return transport;
  };

/** A 2026-07-28 server over stdio ("local") and over streamable HTTP ("remote"). */
const modernConnectors = (): ConnectorSpec[] => [
  stdio("local", { args: [FIXTURE_2026] }),
  { id: "remote", kind: "http", url: httpUrl2026 },
];

describe("McpConnectorHost across protocol eras", () => {
  it("speaks 2026-07-28 to the servers that offer it, over stdio and streamable HTTP, and 2025 to the others", async () => {
    const host = track(
      new McpConnectorHost({
        connectors: [
          ...modernConnectors(),
          stdio("old"),
          { id: "old-remote", kind: "http", url: httpUrl },
        ],
        httpFetch: egress,
      }),
    );
    for (const id of ["local", "remote"]) {
      // The server's own word: served in 2026-07-28, the revision in the request's _meta.
      expect(text(await host.callTool(id, "era", {}))).toBe("era=modern version=2026-07-28");
      expect((await host.listTools(id)).map((t) => t.name)).toEqual(
        expect.arrayContaining(["echo", "reveal", "era", "weather", "grow"]),
      );
    }
    for (const id of ["old", "old-remote"]) {
      expect(text(await host.callTool(id, "echo", { text: id }))).toBe(id);
      expect(host.eraOf(id)).toBe("legacy");
    }
  });

  it("keeps a 2026-07-28 connector's tool list until its subscriptions/listen stream says it changed", async () => {
    const host = track(new McpConnectorHost({ connectors: modernConnectors(), httpFetch: egress }));
    for (const id of ["local", "remote"]) {
      const names = async () => (await host.listTools(id)).map((t) => t.name);
      const before = await names();
      const added = /^added (grown_\d+)$/.exec(text(await host.callTool(id, "grow", {})))![1]!;
      expect(before).not.toContain(added);
      const until = Date.now() + 5000;
      while (!(await names()).includes(added) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 20));
      expect(await names()).toContain(added);
    }
  });

  it("probes each connector once: a reconnect goes straight to its era, on the worker's own stdio pipes too", async () => {
    let now = 0;
    const sent: string[] = [];
    const host = track(
      new McpConnectorHost({
        connectors: [stdio("old"), stdio("new", { args: [FIXTURE_2026] })],
        openStdio: ownPipes(sent),
        idleMs: 1000,
        now: () => now,
      }),
    );
    const connectOnce = async () => {
      sent.length = 0;
      expect(text(await host.callTool("old", "echo", { text: "a" }))).toBe("a");
      const legacy = [...sent];
      sent.length = 0;
      expect(text(await host.callTool("new", "era", {}))).toBe("era=modern version=2026-07-28");
      return { legacy, modern: [...sent] };
    };
    expect(await connectOnce()).toEqual({
      legacy: ["server/discover", "initialize", "notifications/initialized", "tools/call"],
      modern: ["server/discover", "subscriptions/listen", "tools/call"],
    });
    now += 2000;
    host.closeIdle();
    expect(host.liveCount).toBe(0);
    expect(await connectOnce()).toEqual({
      legacy: ["initialize", "notifications/initialized", "tools/call"],
      modern: ["subscriptions/listen", "tools/call"],
    });
    // The stream opened at the reconnect carries the list changes.
    expect((await host.listTools("new")).map((t) => t.name)).not.toContain("grown_0");
    expect(text(await host.callTool("new", "grow", {}))).toBe("added grown_0");
    const until = Date.now() + 5000;
    while (!(await host.listTools("new")).some((t) => t.name === "grown_0") && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    expect((await host.listTools("new")).map((t) => t.name)).toContain("grown_0");
  });

  it("takes a stdio server that exits on the probe or never answers it for a legacy one, and starts it again", async () => {
    const sent: string[] = [];
    const host = track(
      new McpConnectorHost({
        connectors: [
          stdio("exits", { args: [FIXTURE_STRICT] }),
          stdio("silent", { args: [FIXTURE_STRICT, "--silent"] }),
        ],
        openStdio: ownPipes(sent),
        probeTimeoutMs: 500,
      }),
    );
    for (const id of ["exits", "silent"]) {
      sent.length = 0;
      expect(text(await host.callTool(id, "echo", { text: id }))).toBe(id);
      expect(host.eraOf(id)).toBe("legacy");
      expect(sent).toEqual([
        "server/discover",
        "initialize",
        "notifications/initialized",
        "tools/call",
      ]);
    }
    // The SDK's own stdio transport probes on a process of its own.
    const plain = track(
      new McpConnectorHost({ connectors: [stdio("exits", { args: [FIXTURE_STRICT] })] }),
    );
    expect(text(await plain.callTool("exits", "echo", { text: "plain" }))).toBe("plain");
    expect(plain.eraOf("exits")).toBe("legacy");
  });
});
