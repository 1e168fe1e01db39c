import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildStepCatalog, catalogForConfig } from "../connectors/build-step-catalog";
import { McpConnectorHost } from "../connectors/mcp-connector-host";
import { createEventBus, type ChannelEvents } from "../events";
import type { SpanRecord, ToolCallRecord } from "./call-record";
import { StepChannelClient } from "./step-channel-client";
import {
  startStepChannel,
  type StepChannel,
  type StepChannelServerOptions,
} from "./step-channel-server";
import { loopbackEgressFetch } from "@switchyard/testing/egress";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../../../..");
const ENTRY = path.join(REPO, "packages/cli/src/mcp-serve-command-entry.ts");
const FIXTURE = path.join(REPO, "test/fixtures/fixture-mcp-server.mjs");
const CREDENTIAL = "connector-credential-7f3a9c";
const SHARED = "step-shared-secret-55e1";

let dir: string;
let host: McpConnectorHost;
let channel: StepChannel | undefined;
const clients: Client[] = [];
const text = (r: unknown) =>
  (r as { content: { text?: string }[] }).content.map((b) => b.text ?? "").join("");

let httpFixture: ChildProcess;
let httpUrl: string;
beforeAll(async () => {
  httpFixture = spawn(process.execPath, [FIXTURE, "--http"], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) =>
    httpFixture.stdout!.once("data", (c: Buffer) => resolve(c.toString().trim())),
  );
  httpUrl = `http://127.0.0.1:${port}/mcp`;
});
afterAll(() => {
  httpFixture.kill("SIGTERM");
});

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sy-chan-"));
  await mkdir(path.join(dir, "ws"));
  host = new McpConnectorHost({
    connectors: [
      {
        id: "fx",
        kind: "stdio",
        command: process.execPath,
        args: [FIXTURE],
        cwd: REPO,
        credentialEnv: "FIXTURE_TOKEN",
      },
      { id: "web", kind: "http", url: httpUrl },
    ],
    credentials: { resolve: async () => CREDENTIAL },
    httpFetch: loopbackEgressFetch("connector"),
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await channel?.close();
  channel = undefined;
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

/** Events whose `tool.recorded` goes to `store` alone. */
const storing = (store: (record: ToolCallRecord) => unknown) => {
  const events = createEventBus<ChannelEvents>();
  events.subscribe("tool.recorded", store);
  return events;
};

type Setup = {
  allow?: () => boolean;
  config?: Record<string, unknown>;
  server?: Partial<StepChannelServerOptions>;
  connectors?: string[];
};

const setup = async ({
  allow = () => true,
  config = {},
  server = {},
  connectors = ["fx"],
}: Setup = {}) => {
  const records: ToolCallRecord[] = [];
  const spans: SpanRecord[] = [];
  const gate = { allows: () => allow() };
  const { catalog } = await buildStepCatalog({ host, gate, lane: "default", connectors });
  const events = createEventBus<ChannelEvents>();
  events.subscribe("tool.recorded", (r) => records.push(r));
  events.subscribe("span.ended", (s) => spans.push(s));
  channel = await startStepChannel({
    host,
    gate,
    lane: "default",
    catalog,
    secrets: [CREDENTIAL],
    sharedSecrets: [SHARED],
    events,
    dir,
    ...server,
  });
  const file = path.join(dir, "config.json");
  await writeFile(
    file,
    JSON.stringify({
      root_dir: path.join(dir, "ws"),
      catalog: catalogForConfig(catalog),
      channel: { path: channel.path, token: channel.token },
      trace: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
      log_calls: false,
      ...config,
    }),
  );
  return { records, spans, file, channel };
};

const connect = async (file: string) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", ENTRY, "--config", file],
    cwd: REPO,
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1" });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
};

const waitFor = async <T>(fn: () => T | undefined, ms = 5000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("step channel: proxy ⇄ reference server ⇄ real connector", () => {
  it("says ready, routes connector calls through the channel, and streams records and spans", async () => {
    const { records, spans, file, channel: ch } = await setup();
    const { client } = await connect(file);
    const ready = await ch.ready;
    expect(ready.tools).toContain("fx_echo");
    await expect(stat(ch.path)).rejects.toThrow();
    expect(
      text(await client.callTool({ name: "fx_echo", arguments: { text: "through the channel" } })),
    ).toBe("through the channel");
    const weather = await client.callTool({ name: "fx_weather", arguments: { city: "Oslo" } });
    expect(weather.structuredContent).toEqual({ city: "Oslo", celsius: 21 });
    const rec = await waitFor(() => records.find((r) => r.tool === "fx_echo"));
    expect(rec).toMatchObject({
      source: "fx",
      fidelity: "proxy",
      is_error: false,
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      parent_span_id: "00f067aa0ba902b7",
    });
    const span = await waitFor(() => spans.find((s) => s.span_id === rec.span_id));
    expect(span).toMatchObject({
      name: "tools/call fx_echo",
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      parent_span_id: "00f067aa0ba902b7",
      status: "ok",
    });
    expect(span.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "fx_echo",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "pipe",
    });
    expect(typeof span.attributes["jsonrpc.request.id"]).toBe("string");
  });

  it("answers a call only once the worker has stored its record, so a worker that dies then loses no call the agent saw", async () => {
    let store!: () => void;
    const stored = new Promise<void>((resolve) => (store = resolve));
    const held: ToolCallRecord[] = [];
    const { file } = await setup({
      server: {
        events: storing(async (r) => {
          held.push(r);
          await stored;
        }),
      },
    });
    const { client } = await connect(file);
    let answered = false;
    const call = client
      .callTool({ name: "Write", arguments: { path: "a.txt", content: "x" } })
      .then((r) => ((answered = true), r));
    await waitFor(() => held[0]);
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    store();
    expect((await call).isError).toBeFalsy();
    expect(held.map((r) => r.tool)).toEqual(["Write"]);
  });

  it("answers anyway when the worker does not confirm a record in time", async () => {
    const held: ToolCallRecord[] = [];
    const { file } = await setup({
      server: {
        events: storing((r) => {
          held.push(r);
          return new Promise<void>(() => undefined);
        }),
      },
      config: { record_wait_ms: 500 },
    });
    const { client } = await connect(file);
    const started = Date.now();
    const result = await client.callTool({
      name: "Write",
      arguments: { path: "b.txt", content: "y" },
    });
    expect(result.isError).toBeFalsy();
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(held.map((r) => r.tool)).toEqual(["Write"]);
  });

  it("serves a streamable HTTP connector next to a stdio one, with the bearer scrubbed from what comes back", async () => {
    const { records, file } = await setup({ connectors: ["fx", "web"] });
    const { client } = await connect(file);
    expect(
      text(await client.callTool({ name: "web_echo", arguments: { text: "over http" } })),
    ).toBe("over http");
    expect(
      text(await client.callTool({ name: "fx_echo", arguments: { text: "over stdio" } })),
    ).toBe("over stdio");
    expect(text(await client.callTool({ name: "web_reveal", arguments: {} }))).toBe(
      "credential=Bearer [REDACTED]",
    );
    const rec = await waitFor(() => records.find((r) => r.tool === "web_echo"));
    expect(rec.source).toBe("web");
  });

  it("caps a connector result over the cap like a built-in's, the whole text kept in the workspace", async () => {
    const { records, file } = await setup();
    const { client } = await connect(file);
    const big = "a line from the connector\n".repeat(12_000);
    const r = await client.callTool({ name: "fx_echo", arguments: { text: big } });
    const shown = text(r);
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(64 * 1024);
    const kept =
      /the full text \(12,000 lines\) is in (\.switchyard\/results\/[0-9a-f]+\.txt);/.exec(shown);
    expect(kept, shown.slice(-300)).not.toBeNull();
    expect(big.startsWith(shown.slice(0, shown.lastIndexOf("\n[switchyard:")))).toBe(true);
    expect(await readFile(path.join(dir, "ws", kept![1]!), "utf8")).toBe(big);
    const rec = await waitFor(() => records.find((x) => x.tool === "fx_echo"));
    expect(rec.result_cut).toEqual({ bytes: big.length, file: kept![1] });
  });

  it("refuses a call when the lane gate closes after the catalog was built", async () => {
    let open = true;
    const { records, file } = await setup({ allow: () => open });
    const { client } = await connect(file);
    open = false;
    const r = await client.callTool({ name: "fx_echo", arguments: { text: "x" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/USER\.MCP_PROXY\.LANE_DENIED/);
    const rec = await waitFor(() => records.find((x) => x.tool === "fx_echo"));
    expect(rec.error_type).toBe("USER.MCP_PROXY.LANE_DENIED");
  });

  it("never lets a secret given to the channel appear in a result, record or span", async () => {
    const { records, spans, file } = await setup();
    const { client } = await connect(file);
    const revealed = await client.callTool({ name: "fx_reveal", arguments: {} });
    expect(text(revealed)).toBe("credential=[REDACTED]");
    const echoed = await client.callTool({
      name: "fx_echo",
      arguments: { text: `shared ${SHARED}` },
    });
    expect(text(echoed)).toBe("shared [REDACTED]");
    const bash = await client.callTool({ name: "Bash", arguments: { command: `echo ${SHARED}` } });
    expect(text(bash)).not.toContain(SHARED);
    await waitFor(() => (records.length >= 3 && spans.length >= 3 ? true : undefined));
    const everything = JSON.stringify({ records, spans });
    expect(everything).not.toContain(CREDENTIAL);
    expect(everything).not.toContain(SHARED);
    expect(everything).toContain("[REDACTED]");
  });

  it("reports fatal on a startup failure, and rejects a wrong token, which does not count as connected", async () => {
    const { file, channel: ch } = await setup({
      config: { initial_tools: ["missing"], tool_search: true },
    });
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY, "--config", file], {
      cwd: REPO,
      stdio: ["pipe", "ignore", "pipe"],
    });
    expect(ch.connected).toBe(false);
    await expect(ch.ready).rejects.toMatchObject({ code: "USER.MCP_PROXY.UNKNOWN_OPERATION" });
    expect(ch.connected).toBe(true);
    expect(await new Promise((resolve) => child.on("close", resolve))).toBe(1);

    const other = await startStepChannel({
      host,
      gate: { allows: () => true },
      lane: "l",
      catalog: [],
      dir,
      readyTimeoutMs: 300,
    });
    await expect(
      StepChannelClient.connect({ path: other.path, token: "x".repeat(32) }),
    ).rejects.toThrow(/refused/);
    await expect(other.ready).rejects.toMatchObject({ code: "EXECUTION.MCP_PROXY.NOT_READY" });
    expect(other.connected).toBe(false);
    await other.close();
  });

  it("the proxy exits, its children gone, when the channel closes", async () => {
    const { file, channel: ch } = await setup();
    const { client, transport } = await connect(file);
    await ch.ready;
    void client
      .callTool({ name: "Bash", arguments: { command: "echo $$ > pid; exec sleep 60" } })
      .catch(() => undefined);
    const pidFile = path.join(dir, "ws", "pid");
    let pid = 0;
    while (pid === 0) {
      pid = Number((await readFile(pidFile, "utf8").catch(() => "")).trim()) || 0;
      await new Promise((r) => setTimeout(r, 25));
    }
    const proxyPid = transport.pid!;
    await ch.close();
    const alive = (p: number) => {
      try {
        process.kill(p, 0);
        return true;
      } catch {
        return false;
      }
    };
    await waitFor(() => (alive(proxyPid) || alive(pid) ? undefined : true), 6000);
  });
});
