import { Client as ModernClient } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { CALL_TOOL, CatalogTools, TOOL_SEARCH, ToolRouter, ToolSearch } from "../tools";
import type { ToolCallRecord } from "./call-record";
import { CallReporter } from "./call-reporter";
import { ProxyServer } from "./proxy-server";
import { Redactor } from "./redact";
import { parseTraceparent } from "./trace-context";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

const proxies: ProxyServer[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

/** A proxy over two connector tools (`fx_weather` structured), with tool search on request. */
const startProxy = async (toolSearch = false) => {
  const entry = (tool: string, extra: object = {}) => ({
    name: `fx_${tool}`,
    description: tool,
    connector: "fx",
    tool,
    ...extra,
  });
  const outputSchema = { type: "object", properties: { c: { type: "number" } } };
  const catalog = new CatalogTools(
    [entry("weather", { outputSchema }), entry("echo")],
    async (name, args) =>
      name === "fx_weather"
        ? { content: [], structuredContent: { c: 21 } }
        : { content: [{ type: "text", text: JSON.stringify(args) }] },
  );
  const router = ToolRouter.build([catalog], toolSearch ? [TOOL_SEARCH, CALL_TOOL] : []);
  const records: ToolCallRecord[] = [];
  const redactor = new Redactor();
  const proxy = new ProxyServer({
    router,
    search: new ToolSearch(router, toolSearch, toolSearch ? [] : undefined),
    redactor,
    reporter: new CallReporter({
      sink: { record: (r) => records.push(r), span: () => undefined, close: async () => undefined },
      redactor,
      trace: parseTraceparent(undefined),
    }),
    name: "proxy",
    version: "9",
  });
  proxies.push(proxy);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(serverSide);
  return { proxy, clientSide, records };
};

/** Raw JSON-RPC over the client side: what a client of either era puts on the wire. */
const wire = async (clientSide: InMemoryTransport) => {
  const seen: JSONRPCMessage[] = [];
  clientSide.onmessage = (m) => void seen.push(m);
  await clientSide.start();
  let id = 0;
  const request = async (method: string, params: Record<string, unknown> = {}) => {
    const myId = `r${++id}`;
    await clientSide.send({ jsonrpc: "2.0", id: myId, method, params });
    for (let i = 0; i < 200; i++) {
      const reply = seen.find((m) => "id" in m && m.id === myId && !("method" in m));
      if (reply)
        return reply as {
          result?: Record<string, unknown>;
          error?: { code: number; data?: unknown };
        };
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no reply to ${method}`);
  };
  return { request, seen };
};

describe("ProxyServer for 2026-07-28 clients", () => {
  it("negotiates 2026-07-28 with the v2 client, which lists and calls tools without an initialize session", async () => {
    const { clientSide, records } = await startProxy();
    const client = new ModernClient(
      { name: "modern", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(clientSide);
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerVersion()).toEqual({ name: "proxy", version: "9" });
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["fx_weather", "fx_echo"]);
    expect(tools[0]!.outputSchema).toBeDefined();
    const weather = await client.callTool({ name: "fx_weather", arguments: {} });
    expect(weather.structuredContent).toEqual({ c: 21 });
    const echo = await client.callTool({ name: "fx_echo", arguments: { a: 1 } });
    expect(echo.content).toEqual([{ type: "text", text: '{"a":1}' }]);
    await client.close();
    await new Promise((r) => setImmediate(r));
    expect(records.map((r) => [r.tool, r.protocol_version])).toEqual([
      ["fx_weather", "2026-07-28"],
      ["fx_echo", "2026-07-28"],
    ]);
  });

  it("answers the wire of the 2026-07-28 revision: server/discover, stamped results, -32022 for an unknown revision", async () => {
    const { clientSide } = await startProxy();
    const { request } = await wire(clientSide);
    const discover = (await request("server/discover", { _meta: ENVELOPE })).result!;
    expect(discover).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: { listChanged: true } },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "proxy", version: "9" } },
    });
    const list = (await request("tools/list", { _meta: ENVELOPE })).result!;
    expect(list).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    const call = (await request("tools/call", { name: "fx_echo", arguments: {}, _meta: ENVELOPE }))
      .result!;
    expect(call.resultType).toBe("complete");
    expect(call).not.toHaveProperty("ttlMs");

    const future = { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01" };
    expect((await request("tools/list", { _meta: future })).error).toEqual({
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported: ["2026-07-28"], requested: "2099-01-01" },
    });
    const unknownTool = await request("tools/call", {
      name: "nope",
      arguments: {},
      _meta: ENVELOPE,
    });
    expect(unknownTool.error!.code).toBe(-32602);
  });

  it("leaves 2025 traffic as it was: initialize, no resultType, list changes sent unsolicited", async () => {
    const { clientSide } = await startProxy(true);
    const client = new Client({ name: "old", version: "1" });
    await client.connect(clientSide);
    expect(client.getServerVersion()).toEqual({ name: "proxy", version: "9" });
    const raw: JSONRPCMessage[] = [];
    const inner = clientSide.onmessage;
    clientSide.onmessage = (m, extra) => {
      raw.push(m);
      inner?.(m, extra);
    };
    await client.listTools();
    await client.callTool({ name: TOOL_SEARCH, arguments: { query: "weather" } });
    await new Promise((r) => setTimeout(r, 50));
    expect(
      raw
        .filter((m) => "result" in m)
        .every((m) => !("resultType" in (m as { result: object }).result)),
    ).toBe(true);
    expect(raw.some((m) => "method" in m && m.method === "notifications/tools/list_changed")).toBe(
      true,
    );
    await client.close();
  });

  it("tells a 2026-07-28 client of list changes on its subscriptions/listen stream, and only there", async () => {
    const { clientSide } = await startProxy(true);
    let changed = 0;
    const client = new ModernClient(
      { name: "modern", version: "1" },
      {
        versionNegotiation: { mode: "auto" },
        listChanged: {
          tools: { autoRefresh: false, debounceMs: 0, onChanged: () => void changed++ },
        },
      },
    );
    await client.connect(clientSide);
    expect(client.autoOpenedSubscription?.honoredFilter).toEqual({ toolsListChanged: true });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([TOOL_SEARCH, CALL_TOOL]);
    await client.callTool({ name: TOOL_SEARCH, arguments: { query: "weather" } });
    for (let i = 0; i < 100 && changed === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(changed).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("fx_weather");
    await client.close();
  });
});
