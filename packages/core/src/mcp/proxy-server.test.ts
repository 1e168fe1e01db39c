import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { CatalogTools, ToolRouter, ToolSearch } from "../tools";
import type { RecordSink, ToolCallRecord } from "./call-record";
import { CallReporter } from "./call-reporter";
import { ProxyServer } from "./proxy-server";
import { capValue, Redactor } from "./redact";
import { parseTraceparent } from "./trace-context";

/** A proxy over `router` that keeps its records, in the trace `traceparent` names. */
const proxyOver = (router: ToolRouter, traceparent?: string, pageSize?: number) => {
  const records: ToolCallRecord[] = [];
  const sink: RecordSink = {
    record: (r) => records.push(r),
    span: () => undefined,
    close: async () => undefined,
  };
  const redactor = new Redactor();
  const proxy = new ProxyServer({
    router,
    search: new ToolSearch(router, false, undefined),
    redactor,
    reporter: new CallReporter({ sink, redactor, trace: parseTraceparent(traceparent) }),
    name: "t",
    version: "1",
    ...(pageSize ? { pageSize } : {}),
  });
  return { proxy, records };
};

const makeProxy = async (pageSize?: number) => {
  const catalog = new CatalogTools(
    [
      {
        name: "fx_weather",
        description: "weather",
        connector: "fx",
        tool: "weather",
        outputSchema: { type: "object", properties: { c: { type: "number" } } },
      },
      { name: "fx_link", description: "link", connector: "fx", tool: "link" },
    ],
    async (name) =>
      name === "fx_weather"
        ? { content: [], structuredContent: { c: 21 } }
        : { content: [{ type: "resource_link", uri: "file:///r.txt", name: "r" }] },
  );
  const { proxy, records } = proxyOver(ToolRouter.build([catalog]), undefined, pageSize);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(serverSide);
  const replies = new Map<number, JSONRPCMessage>();
  clientSide.onmessage = (m) => {
    if ("id" in m && typeof m.id === "number") replies.set(m.id, m);
  };
  await clientSide.start();
  let id = 0;
  const request = async (method: string, params: Record<string, unknown> = {}) => {
    const myId = ++id;
    await clientSide.send({ jsonrpc: "2.0", id: myId, method, params });
    for (let i = 0; i < 200 && !replies.has(myId); i++) await new Promise((r) => setTimeout(r, 5));
    return replies.get(myId) as {
      result?: Record<string, unknown>;
      error?: { code: number; message: string };
    };
  };
  return { request, records, clientSide };
};

const init = (version: string) => ({
  protocolVersion: version,
  capabilities: {},
  clientInfo: { name: "old", version: "0" },
});

describe("ProxyServer protocol adaptation", () => {
  it("gives a 2024-11-05 client text instead of structured content and resource links, and no outputSchema", async () => {
    const { request, clientSide } = await makeProxy();
    expect((await request("initialize", init("2024-11-05"))).result!.protocolVersion).toBe(
      "2024-11-05",
    );
    await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const list = (await request("tools/list")).result as { tools: Record<string, unknown>[] };
    expect(list.tools[0]).not.toHaveProperty("outputSchema");
    const weather = (await request("tools/call", { name: "fx_weather", arguments: {} })).result!;
    expect(weather).not.toHaveProperty("structuredContent");
    expect(weather.content).toEqual([{ type: "text", text: '{"c":21}' }]);
    const link = (await request("tools/call", { name: "fx_link", arguments: {} })).result!;
    expect(link.content).toEqual([{ type: "text", text: "Resource: file:///r.txt (r)" }]);
  });

  it("keeps structured content (and adds its text) for a 2025-06-18 client", async () => {
    const { request } = await makeProxy();
    await request("initialize", init("2025-06-18"));
    const list = (await request("tools/list")).result as { tools: Record<string, unknown>[] };
    expect(list.tools[0]).toHaveProperty("outputSchema");
    const weather = (await request("tools/call", { name: "fx_weather", arguments: {} })).result!;
    expect(weather.structuredContent).toEqual({ c: 21 });
    expect(weather.content).toEqual([{ type: "text", text: '{"c":21}' }]);
  });

  it("pages tools/list and rejects a bad cursor with a JSON-RPC error", async () => {
    const { request } = await makeProxy(1);
    await request("initialize", init("2025-11-25"));
    const first = (await request("tools/list")).result as {
      tools: { name: string }[];
      nextCursor: string;
    };
    expect(first.tools.map((t) => t.name)).toEqual(["fx_weather"]);
    const second = (await request("tools/list", { cursor: first.nextCursor })).result as {
      tools: { name: string }[];
      nextCursor?: string;
    };
    expect(second.tools.map((t) => t.name)).toEqual(["fx_link"]);
    expect(second.nextCursor).toBeUndefined();
    expect((await request("tools/list", { cursor: "zzz" })).error!.code).toBe(-32602);
  });
});

describe("redaction and trace context", () => {
  it("scrubs secret values and token shapes in keys and values, and caps big values", () => {
    const r = new Redactor().addSecrets(["hunter2-secret"]);
    const out = r.value({
      "hunter2-secret": [
        "Bearer abcdefghijklmnopqrstuvwxyz",
        "sk-ant-abcdefghijklmnopqrstuvwx",
        "ok",
      ],
    });
    expect(out).toEqual({ "[REDACTED]": ["Bearer [REDACTED]", "[REDACTED]", "ok"] });
    expect(r.secrets("sk-ant-abcdefghijklmnopqrstuvwx and hunter2-secret")).toBe(
      "sk-ant-abcdefghijklmnopqrstuvwx and [REDACTED]",
    );
    expect(capValue({ a: "x".repeat(100) }, 50)).toMatchObject({ truncated: true, size: 108 });
  });

  it("parses a W3C traceparent and starts a fresh trace for a missing or invalid one", () => {
    expect(parseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).toEqual({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      parentSpanId: "b7ad6b7169203331",
      sampled: true,
    });
    const fresh = parseTraceparent("00-00000000000000000000000000000000-b7ad6b7169203331-01");
    expect(fresh.parentSpanId).toBeUndefined();
    expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("ProxyServer trace context", () => {
  const STEP = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  const CALLER = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
  const OTHER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  it("parents a call's span to the traceparent in its _meta when it is of the step's trace, and hands the connector call the span", async () => {
    const seen: { traceId: string; spanId: string }[] = [];
    const router = ToolRouter.build([
      new CatalogTools(
        [{ name: "fx_echo", description: "e", connector: "fx", tool: "echo" }],
        (_n, _a, ctx) => {
          if (ctx.trace) seen.push(ctx.trace);
          return Promise.resolve({ content: [{ type: "text", text: "ok" }] });
        },
      ),
    ]);
    const { proxy, records } = proxyOver(router, STEP);
    const client = new Client({ name: "c", version: "1" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await proxy.connect(serverSide);
    await client.connect(clientSide);
    for (const meta of [CALLER, OTHER, undefined])
      await client.callTool({
        name: "fx_echo",
        arguments: {},
        ...(meta ? { _meta: { traceparent: meta } } : {}),
      });
    expect(records.map((r) => [r.trace_id, r.parent_span_id])).toEqual([
      ["0af7651916cd43dd8448eb211c80319c", "00f067aa0ba902b7"],
      ["0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"],
      ["0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"],
    ]);
    expect(seen).toEqual(records.map((r) => ({ traceId: r.trace_id, spanId: r.span_id })));
    await client.close();
  });
});
