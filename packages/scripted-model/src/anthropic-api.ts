/**
 * Anthropic Messages (`POST /v1/messages`, Claude Code adds `?beta=true`): streaming SSE with
 * text and tool_use blocks (input as input_json_delta pieces), or one JSON message.
 */
import {
  asArray,
  contentText,
  isObj,
  pieces,
  sendJson,
  sseStream,
  str,
  stringLeaves,
  type ApiAdapter,
  type ModelReply,
  type RequestView,
} from "./api-adapter";

const lastToolResult = (messages: unknown[]): string | undefined => {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!isObj(message)) continue;
    const results = asArray(message.content).filter((b) => isObj(b) && b.type === "tool_result");
    if (results.length)
      return results.map((b) => contentText((b as { content?: unknown }).content)).join("\n");
  }
  return undefined;
};

const blocks = (reply: ModelReply) => [
  ...(reply.text !== undefined ? [{ type: "text" as const, text: reply.text }] : []),
  ...reply.toolCalls.map((c) => ({
    type: "tool_use" as const,
    id: c.id,
    name: c.name,
    input: c.arguments,
  })),
];

const usageOf = (reply: ModelReply) => ({
  input_tokens: reply.usage.inputTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: reply.usage.outputTokens,
});

const writeStream = (
  res: Parameters<ApiAdapter["reply"]>[0],
  view: RequestView,
  reply: ModelReply,
) => {
  const sse = sseStream(res);
  const stopReason = reply.toolCalls.length ? "tool_use" : "end_turn";
  sse.send(
    {
      type: "message_start",
      message: {
        id: reply.id,
        type: "message",
        role: "assistant",
        model: view.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usageOf(reply), output_tokens: 1 },
      },
    },
    "message_start",
  );
  sse.send({ type: "ping" }, "ping");
  blocks(reply).forEach((block, index) => {
    const delta = (d: unknown) =>
      sse.send({ type: "content_block_delta", index, delta: d }, "content_block_delta");
    if (block.type === "text") {
      sse.send(
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
        "content_block_start",
      );
      for (const piece of pieces(block.text)) delta({ type: "text_delta", text: piece });
    } else {
      sse.send(
        {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        },
        "content_block_start",
      );
      for (const piece of pieces(JSON.stringify(block.input)))
        delta({ type: "input_json_delta", partial_json: piece });
    }
    sse.send({ type: "content_block_stop", index }, "content_block_stop");
  });
  sse.send(
    {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: usageOf(reply),
    },
    "message_delta",
  );
  sse.send({ type: "message_stop" }, "message_stop");
  sse.end();
};

export const anthropicApi: ApiAdapter = {
  name: "anthropic",
  callIdPrefix: "toolu_",
  route: (method, url) => (method === "POST" && /\/messages$/.test(url.pathname) ? {} : undefined),
  view(body) {
    const b = isObj(body) ? body : {};
    const messages = asArray(b.messages);
    return {
      api: "anthropic",
      model: str(b.model),
      stream: b.stream === true,
      tools: asArray(b.tools).flatMap((t) =>
        isObj(t) && typeof t.name === "string"
          ? [{ name: t.name, ...(t.defer_loading === true ? { deferred: true } : {}) }]
          : [],
      ),
      system: contentText(b.system),
      messagesText: stringLeaves(messages).join("\n"),
      lastToolResult: lastToolResult(messages),
      includeUsage: true,
    };
  },
  reply(res, view, reply) {
    if (view.stream) return writeStream(res, view, reply);
    sendJson(res, 200, {
      id: reply.id,
      type: "message",
      role: "assistant",
      model: view.model,
      content: blocks(reply),
      stop_reason: reply.toolCalls.length ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: usageOf(reply),
    });
  },
  errorBody: (_status, type, message) => ({ type: "error", error: { type, message } }),
};
