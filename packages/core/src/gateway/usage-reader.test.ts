/**
 * The usage reader finds each vendor's token counts whatever way the body is cut into
 * chunks (every split point of real-shaped responses, CRLF and LF, a multi-byte character
 * split in two), ignores look-alike keys inside content, reads past events of megabytes,
 * and the price table prices by exact name or longest prefix.
 */
import { describe, expect, it } from "vitest";
import { costOf, DEFAULT_PRICES, priceOf } from "./price-table";
import { UsageReader, type MeteredApi } from "./usage-reader";

const sse = (events: unknown[], eol = "\n") =>
  events
    .map((e) =>
      typeof e === "string"
        ? `data: ${e}${eol}${eol}`
        : `event: x${eol}data: ${JSON.stringify(e)}${eol}${eol}`,
    )
    .join("");

const read = (api: MeteredApi, format: "sse" | "json", chunks: Buffer[]) => {
  const reader = new UsageReader(api, format);
  for (const c of chunks) reader.write(c);
  return reader.end();
};

/** The reading for the body fed whole, and for it cut at every byte position in two. */
const everySplit = (api: MeteredApi, format: "sse" | "json", body: string) => {
  const bytes = Buffer.from(body);
  const whole = read(api, format, [bytes]);
  for (let i = 1; i < bytes.length; i++) {
    const r = read(api, format, [bytes.subarray(0, i), bytes.subarray(i)]);
    expect(r, `split at ${i}`).toEqual(whole);
  }
  // and one byte at a time
  expect(
    read(
      api,
      format,
      [...bytes].map((b) => Buffer.from([b])),
    ),
  ).toEqual(whole);
  return whole;
};

const ANTHROPIC_STREAM = [
  {
    type: "message_start",
    message: {
      id: "msg_1",
      model: "claude-sonnet-4-5-20250929",
      content: [],
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 100,
        cache_read_input_tokens: 1000,
        output_tokens: 1,
      },
    },
  },
  { type: "ping" },
  { type: "content_block_start", index: 0, content_block: { type: "tool_use", input: {} } },
  {
    type: "content_block_delta",
    index: 0,
    delta: { type: "input_json_delta", partial_json: '{"usage":{"input_tokens":999}}' },
  },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "héllo ✓ 🎉" } },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 42 } },
  { type: "message_stop" },
];

describe("reading usage from a response as it streams", () => {
  it("Anthropic SSE: message_start input and cache tokens, message_delta's final output count", () => {
    for (const eol of ["\n", "\r\n"]) {
      expect(everySplit("anthropic-messages", "sse", sse(ANTHROPIC_STREAM, eol))).toEqual({
        model: "claude-sonnet-4-5-20250929",
        usage: {
          inputTokens: 1110,
          outputTokens: 42,
          cacheReadTokens: 1000,
          cacheWriteTokens: 100,
        },
      });
    }
  });

  it("Anthropic JSON: the message's usage, not a look-alike inside a tool input", () => {
    const body = JSON.stringify({
      model: "claude-haiku-4-5",
      content: [{ type: "tool_use", input: { usage: { input_tokens: 999, output_tokens: 999 } } }],
      usage: { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 5 },
    });
    expect(everySplit("anthropic-messages", "json", body)).toEqual({
      model: "claude-haiku-4-5",
      usage: { inputTokens: 12, outputTokens: 3, cacheReadTokens: 5, cacheWriteTokens: 0 },
    });
  });

  it("OpenAI Chat SSE: the final usage chunk (cached tokens included), past `usage: null` and [DONE]", () => {
    const body = sse([
      { id: "c", model: "gpt-4.1-mini", choices: [{ delta: { content: "hi" } }], usage: null },
      {
        id: "c",
        model: "gpt-4.1-mini",
        choices: [],
        usage: {
          prompt_tokens: 300,
          completion_tokens: 20,
          prompt_tokens_details: { cached_tokens: 256 },
        },
      },
      "[DONE]",
    ]);
    expect(everySplit("openai-chat", "sse", body)).toEqual({
      model: "gpt-4.1-mini",
      usage: { inputTokens: 300, outputTokens: 20, cacheReadTokens: 256, cacheWriteTokens: 0 },
    });
  });

  it("OpenAI Responses SSE: response.completed's usage, through an event of megabytes", () => {
    const big = "x".repeat(3 * 1024 * 1024);
    const body = sse([
      { type: "response.created", response: { model: "gpt-5", usage: null } },
      { type: "response.output_text.delta", delta: big },
      {
        type: "response.completed",
        response: {
          model: "gpt-5",
          output: [{ content: [{ text: big }] }],
          usage: { input_tokens: 40, output_tokens: 9, input_tokens_details: { cached_tokens: 8 } },
        },
      },
    ]);
    const chunks = [];
    for (let i = 0; i < body.length; i += 65_536)
      chunks.push(Buffer.from(body.slice(i, i + 65_536)));
    expect(read("openai-responses", "sse", chunks)).toEqual({
      model: "gpt-5",
      usage: { inputTokens: 40, outputTokens: 9, cacheReadTokens: 8, cacheWriteTokens: 0 },
    });
  });

  it("Gemini: usageMetadata of the last chunk of a streamed JSON array, thoughts counted as output", () => {
    const body = JSON.stringify([
      { candidates: [{ content: { parts: [{ text: "a" }] } }], modelVersion: "gemini-2.5-flash" },
      {
        candidates: [{ content: { parts: [{ text: "b" }] }, finishReason: "STOP" }],
        usageMetadata: {
          promptTokenCount: 50,
          candidatesTokenCount: 5,
          thoughtsTokenCount: 30,
          cachedContentTokenCount: 20,
        },
        modelVersion: "gemini-2.5-flash",
      },
    ]);
    expect(everySplit("gemini", "json", body)).toEqual({
      model: "gemini-2.5-flash",
      usage: { inputTokens: 50, outputTokens: 35, cacheReadTokens: 20, cacheWriteTokens: 0 },
    });
  });

  it("reports no usage for a body without any, or one that is not JSON", () => {
    expect(read("openai-chat", "json", [Buffer.from('{"object":"list","data":[]}')])).toEqual({
      model: undefined,
      usage: undefined,
    });
    expect(
      read("gemini", "json", [Buffer.from("<html>usageMetadata</html>")]).usage,
    ).toBeUndefined();
    // a key spelled like a path is not that path
    expect(
      read("gemini", "json", [
        Buffer.from(
          '{"usageMetadata.promptTokenCount": 5, "a": {"usageMetadata": {"promptTokenCount": 6}}}',
        ),
      ]).usage,
    ).toBeUndefined();
  });
});

describe("pricing", () => {
  it("prices by exact name or the longest prefix, with a provider prefix dropped", () => {
    expect(priceOf("claude-sonnet-4-5-20250929", DEFAULT_PRICES)).toBe(
      DEFAULT_PRICES["claude-sonnet-4-5"],
    );
    expect(priceOf("o3-mini-2025-01-31", DEFAULT_PRICES)).toBe(DEFAULT_PRICES["o3-mini"]);
    expect(priceOf("o3", DEFAULT_PRICES)).toBe(DEFAULT_PRICES.o3);
    expect(priceOf("models/gemini-2.5-flash-lite", DEFAULT_PRICES)).toBe(
      DEFAULT_PRICES["gemini-2.5-flash-lite"],
    );
    expect(priceOf("gpt-4o30", DEFAULT_PRICES)).toBeUndefined();
    expect(priceOf("my-local-model", DEFAULT_PRICES)).toBeUndefined();
  });

  it("charges cached input at the cache prices", () => {
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
      cacheReadTokens: 500_000,
      cacheWriteTokens: 100_000,
    };
    // 400k fresh at 3, 500k read at 0.3, 100k written at 3.75, 1M out at 15
    expect(costOf(usage, DEFAULT_PRICES["claude-sonnet-4-5"]!)).toBeCloseTo(
      1.2 + 0.15 + 0.375 + 15,
      9,
    );
    expect(costOf(usage, { input: 1, output: 2 })).toBeCloseTo(1 + 2, 9);
  });
});
