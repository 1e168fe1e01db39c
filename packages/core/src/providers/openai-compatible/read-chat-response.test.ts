import { describe, expect, it } from "vitest";
import { isAppError } from "../../errors/app-error";
import { readChatResponse } from "./read-chat-response";

const SSE = { "content-type": "text/event-stream; charset=utf-8" };
const options = (texts: string[] = []) => ({
  maxBytes: 1 << 20,
  scrub: (t: string) => t.replaceAll("sk-secret-value", "[REDACTED]"),
  onText: (t: string) => void texts.push(t),
});

/** A response whose body arrives in exactly these pieces. */
const streamed = (pieces: string[], headers: Record<string, string> = SSE) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const p of pieces) controller.enqueue(new TextEncoder().encode(p));
        controller.close();
      },
    }),
    { headers },
  );

const chunk = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const failure = async (response: Response) => {
  const error = await readChatResponse(response, options()).catch((e: unknown) => e);
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
};

describe("readChatResponse", () => {
  it("assembles text and tool calls from pieces split anywhere, CRLF and comments included", async () => {
    const body = [
      ": keep-alive\r\n\r\n",
      chunk({ role: "assistant", content: "Hel" }).replaceAll("\n", "\r\n"),
      chunk({ content: "lo" }),
      chunk({
        tool_calls: [{ index: 0, id: "c1", function: { name: "Read", arguments: '{"pa' } }],
      }),
      // Some servers repeat the name in every chunk.
      chunk({ tool_calls: [{ index: 0, function: { name: "Read", arguments: 'th":"a"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: "c2", function: { name: "Glob", arguments: "" } }] }),
      chunk({}, "tool_calls"),
      `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3 } })}\n\n`,
      "data: [DONE]\n\n",
    ].join("");
    const texts: string[] = [];
    const pieces = body.match(/[\s\S]{1,7}/g)!;
    const turn = await readChatResponse(streamed(pieces), options(texts));
    expect(turn).toEqual({
      text: "Hello",
      toolCalls: [
        { id: "c1", name: "Read", arguments: '{"path":"a"}' },
        { id: "c2", name: "Glob", arguments: "" },
      ],
      finishReason: "tool_calls",
      usage: { inputTokens: 7, outputTokens: 3 },
    });
    expect(texts.join("")).toBe("Hello");
  });

  it("accepts a stream that ends after its finish_reason without [DONE]", async () => {
    const turn = await readChatResponse(streamed([chunk({ content: "ok" }, "stop")]), options());
    expect(turn).toMatchObject({ text: "ok", finishReason: "stop" });
  });

  it("fails on a stream cut before the answer ended, and on an error chunk (scrubbed)", async () => {
    const cut = await failure(streamed([chunk({ content: "par" })]));
    expect(cut.code).toBe("EXECUTION.PROVIDER.UNAVAILABLE");
    const error = await failure(
      streamed([
        chunk({ content: "a" }),
        `data: {"error":{"message":"bad key sk-secret-value"}}\n\n`,
      ]),
    );
    expect(error.code).toBe("EXECUTION.PROVIDER.BAD_RESPONSE");
    expect(error.message).toBe("the model's stream reported an error: bad key [REDACTED]");
  });

  it("reads a JSON completion when the server does not stream", async () => {
    const texts: string[] = [];
    const json = {
      choices: [
        {
          message: { role: "assistant", content: [{ type: "text", text: "from JSON" }] },
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 2 },
    };
    const turn = await readChatResponse(
      streamed([JSON.stringify(json)], { "content-type": "application/json" }),
      options(texts),
    );
    expect(turn).toEqual({
      text: "from JSON",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: 2 },
    });
    expect(texts).toEqual(["from JSON"]);
    const bad = await failure(streamed(["<html>gateway</html>"], { "content-type": "text/html" }));
    expect(bad.code).toBe("EXECUTION.PROVIDER.BAD_RESPONSE");
    expect(bad.message).toMatch(/is not JSON: <html>gateway/);
  });

  it("abandons a body past the cap", async () => {
    const error = await readChatResponse(streamed([chunk({ content: "x".repeat(5000) })]), {
      ...options(),
      maxBytes: 1000,
    }).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("EXECUTION.PROVIDER.RESPONSE_TOO_LARGE");
  });
});
