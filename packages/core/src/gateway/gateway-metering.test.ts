/**
 * What the gateway meters and how it streams, through real HTTP on loopback with the
 * scripted model as the upstream: each of the four APIs, streamed and not, reaches the
 * client intact and gives one meter call with the model, the tokens and the cost;
 * cached tokens are priced as such; SSE events reach the client while the upstream is
 * still holding the rest back; revoking a registration mid-stream cuts it, meters what
 * was seen and returns only after that meter call.
 */
import { parseSse } from "@switchyard/scripted-model";
import { afterEach, describe, expect, it } from "vitest";
import type { MeterEvent } from "./gateway-types";
import { DEFAULT_PRICES } from "./price-table";
import {
  anthropicCall,
  cleanup,
  chatCall,
  geminiCall,
  REAL_KEY,
  responsesCall,
  scripted,
  startHarness,
  startUpstream,
  upstreamBase,
  within,
  type ApiCase,
  type Harness,
} from "@switchyard/testing/gateway";

const later = cleanup();
afterEach(() => later.run());
const harness = async (options: Parameters<typeof startHarness>[0] = {}) =>
  later.add(await startHarness(options));
const model = async (script: Parameters<typeof scripted>[0]) => later.add(await scripted(script));

const noSecretsLogged = (h: Harness, ...tokens: string[]) => {
  const text = h.logs.join("\n");
  expect(text).not.toContain(REAL_KEY);
  for (const token of tokens) expect(text).not.toContain(token);
};

/** Short enough that the scripted model sends it in one piece. */
const TEXT = "hello from the model";
const USAGE = { inputTokens: 1200, outputTokens: 345 };

const CASES: ApiCase[] = [
  anthropicCall("claude-sonnet-4-5-20250929", false),
  anthropicCall("claude-sonnet-4-5-20250929", true),
  chatCall("gpt-4.1-mini", false),
  chatCall("gpt-4.1-mini", true),
  responsesCall("gpt-5", false),
  responsesCall("gpt-5", true),
  geminiCall("gemini-2.5-flash", "json"),
  geminiCall("gemini-2.5-flash", "sse"),
  geminiCall("gemini-2.5-flash", "array"),
];

const PRICE_KEY: Record<string, string> = {
  "claude-sonnet-4-5-20250929": "claude-sonnet-4-5",
  "gpt-4.1-mini": "gpt-4.1-mini",
  "gpt-5": "gpt-5",
  "gemini-2.5-flash": "gemini-2.5-flash",
};

describe("metering each API", () => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    "%s: the reply reaches the client whole and is metered once with tokens and cost",
    async (_name, call) => {
      const m = await model({ turns: [{ text: TEXT, usage: USAGE }] });
      const h = await harness();
      const reg = h.register(call.vendor, upstreamBase(m, call.vendor));
      const res = await call.send(reg.baseUrl!, reg.token);
      const body = await res.text();
      expect(res.status, body).toBe(200);
      expect(m.failures).toEqual([]);
      const contentType = res.headers.get("content-type") ?? "";
      if (call.stream && !call.name.includes("(array)")) {
        expect(contentType).toContain("text/event-stream");
        expect(parseSse(body).length).toBeGreaterThan(0);
      } else {
        expect(contentType).toContain("application/json");
        expect(JSON.parse(body)).toBeTruthy();
      }
      expect(body).toContain(TEXT);
      const price = DEFAULT_PRICES[PRICE_KEY[call.model]!]!;
      expect(reg.events).toEqual([
        {
          requestId: expect.stringMatching(/^gw_/) as string,
          vendor: call.vendor,
          model: call.model,
          inputTokens: USAGE.inputTokens,
          outputTokens: USAGE.outputTokens,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: (USAGE.inputTokens * price.input + USAGE.outputTokens * price.output) / 1e6,
          status: 200,
          complete: true,
          startedAtMs: expect.any(Number) as number,
        } satisfies MeterEvent,
      ]);
      expect(res.headers.get("x-switchyard-request-id")).toBe(reg.events[0]!.requestId);
      noSecretsLogged(h, reg.token);
    },
  );

  it("prices cached input at the cache prices, and uses the table it is given over the defaults", async () => {
    const anthropicMessage = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-opus-4-1-20250805",
      content: [{ type: "text", text: "ok" }],
      usage: {
        input_tokens: 100,
        cache_creation_input_tokens: 2000,
        cache_read_input_tokens: 30000,
        output_tokens: 50,
      },
    };
    const chatCompletion = {
      id: "c1",
      object: "chat.completion",
      model: "team-model-x",
      choices: [{ index: 0, message: { role: "assistant", content: "ok" } }],
      usage: {
        prompt_tokens: 1000,
        completion_tokens: 10,
        prompt_tokens_details: { cached_tokens: 800 },
      },
    };
    const m = await model({
      turns: [],
      rules: [
        { match: { api: "anthropic" }, json: anthropicMessage },
        { match: { api: "openai-chat" }, json: chatCompletion },
      ],
    });
    const h = await harness({ prices: { "team-model": { input: 4, output: 8, cacheRead: 1 } } });
    const claude = h.register("anthropic", m.url);
    expect(
      (await anthropicCall("claude-opus-4-1", false).send(claude.baseUrl!, claude.token)).status,
    ).toBe(200);
    const opus = DEFAULT_PRICES["claude-opus-4-1"]!;
    expect(claude.events[0]).toMatchObject({
      model: "claude-opus-4-1-20250805",
      inputTokens: 32100,
      cacheReadTokens: 30000,
      cacheWriteTokens: 2000,
      outputTokens: 50,
    });
    expect(claude.events[0]!.costUsd).toBeCloseTo(
      (100 * opus.input + 30000 * opus.cacheRead! + 2000 * opus.cacheWrite! + 50 * opus.output) /
        1e6,
      12,
    );
    const team = h.register("openai", `${m.url}/v1`);
    expect((await chatCall("team-model-x", false).send(team.baseUrl!, team.token)).status).toBe(
      200,
    );
    expect(team.events[0]).toMatchObject({
      model: "team-model-x",
      inputTokens: 1000,
      cacheReadTokens: 800,
    });
    expect(team.events[0]!.costUsd).toBeCloseTo((200 * 4 + 800 * 1 + 10 * 8) / 1e6, 12);
  });

  it("meters a model it has no price for with a null cost, and a request without usage not at all", async () => {
    const m = await model({
      turns: [{ text: "ok", usage: USAGE }],
      rules: [{ match: { path: "/v1/messages/count_tokens" }, json: { input_tokens: 12 } }],
    });
    const h = await harness();
    const reg = h.register("anthropic", m.url);
    expect((await anthropicCall("local-llama", false).send(reg.baseUrl!, reg.token)).status).toBe(
      200,
    );
    const count = await fetch(`${reg.baseUrl}/v1/messages/count_tokens`, {
      method: "POST",
      headers: { "x-api-key": reg.token, "content-type": "application/json" },
      body: JSON.stringify({ model: "local-llama", messages: [] }),
    });
    expect(await count.json()).toEqual({ input_tokens: 12 });
    expect(reg.events).toHaveLength(1);
    expect(reg.events[0]).toMatchObject({ model: "local-llama", costUsd: null, inputTokens: 1200 });
  });
});

/** An upstream that sends message_start at once and the rest only when the test says so. */
const heldStream = async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const event = (data: unknown) => `event: x\ndata: ${JSON.stringify(data)}\n\n`;
  const upstream = await startUpstream((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream", "request-id": "req_upstream_1" });
    res.write(
      event({
        type: "message_start",
        message: { model: "claude-haiku-4-5", usage: { input_tokens: 70, output_tokens: 1 } },
      }),
    );
    void released.then(() => {
      if (res.destroyed) return;
      res.write(
        event({ type: "content_block_delta", delta: { type: "text_delta", text: "later" } }),
      );
      res.end(event({ type: "message_delta", usage: { output_tokens: 9 } }));
    });
  });
  later.defer(async () => {
    release();
    await upstream.close();
  });
  return { url: upstream.url, release };
};

const readUntil = async (reader: ReadableStreamDefaultReader<Uint8Array>, needle: string) => {
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
};

describe("streaming", () => {
  it("passes each SSE event on as it comes: the first arrives while the upstream holds the rest", async () => {
    const upstream = await heldStream();
    const h = await harness();
    const reg = h.register("anthropic", upstream.url);
    const res = await within(
      anthropicCall("claude-haiku-4-5", true).send(reg.baseUrl!, reg.token),
      10_000,
      "the response headers",
    );
    const reader = res.body!.getReader();
    const first = await within(readUntil(reader, "message_start"), 10_000, "the first event");
    expect(first).toContain('"input_tokens":70');
    expect(first).not.toContain("later");
    expect(reg.events).toEqual([]);
    upstream.release();
    const rest = await within(readUntil(reader, "message_delta"), 10_000, "the rest");
    expect(rest).toContain("later");
    await reader.read().catch(() => undefined);
    await within(
      (async () => {
        while (reg.events.length === 0) await new Promise((r) => setTimeout(r, 10));
      })(),
      10_000,
      "the meter call",
    );
    expect(reg.events[0]).toMatchObject({
      upstreamRequestId: "req_upstream_1",
      model: "claude-haiku-4-5",
      inputTokens: 70,
      outputTokens: 9,
      complete: true,
    });
  });

  it("revoke cuts a registration's open stream, meters what was seen, and resolves after that meter call", async () => {
    const upstream = await heldStream();
    const h = await harness();
    const reg = h.register("anthropic", upstream.url);
    const res = await anthropicCall("claude-haiku-4-5", true).send(reg.baseUrl!, reg.token);
    const reader = res.body!.getReader();
    await within(readUntil(reader, "message_start"), 10_000, "the first event");
    await within(reg.revoke(), 10_000, "revoke");
    expect(reg.events).toEqual([
      expect.objectContaining({ inputTokens: 70, outputTokens: 1, complete: false, status: 200 }),
    ]);
    await expect(within(readUntil(reader, "message_delta"), 10_000, "the cut")).rejects.toThrow();
    const again = await anthropicCall("claude-haiku-4-5", true).send(reg.baseUrl!, reg.token);
    expect(again.status).toBe(401);
    expect(reg.events).toHaveLength(1);
  });
});
