/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`): chunks with `delta.content` and
 * `delta.tool_calls` (name first, arguments in pieces), a usage chunk when the request asks
 * for `stream_options.include_usage`, then `[DONE]`; or one JSON completion.
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

const SYSTEM_ROLES = new Set(["system", "developer"]);

const usageOf = (reply: ModelReply) => ({
  prompt_tokens: reply.usage.inputTokens,
  completion_tokens: reply.usage.outputTokens,
  total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
});

const finishReason = (reply: ModelReply) => (reply.toolCalls.length ? "tool_calls" : "stop");

const writeStream = (
  res: Parameters<ApiAdapter["reply"]>[0],
  view: RequestView,
  reply: ModelReply,
) => {
  const sse = sseStream(res);
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse.send({
      id: reply.id,
      object: "chat.completion.chunk",
      created,
      model: view.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  chunk({ role: "assistant", content: "" });
  if (reply.text !== undefined) for (const piece of pieces(reply.text)) chunk({ content: piece });
  reply.toolCalls.forEach((call, index) => {
    chunk({
      tool_calls: [
        { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
      ],
    });
    for (const piece of pieces(JSON.stringify(call.arguments)))
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  chunk({}, finishReason(reply));
  if (view.includeUsage)
    sse.send({
      id: reply.id,
      object: "chat.completion.chunk",
      created,
      model: view.model,
      choices: [],
      usage: usageOf(reply),
    });
  sse.send("[DONE]");
  sse.end();
};

export const openaiChatApi: ApiAdapter = {
  name: "openai-chat",
  callIdPrefix: "call_",
  route: (method, url) =>
    method === "POST" && /\/chat\/completions$/.test(url.pathname) ? {} : undefined,
  view(body) {
    const b = isObj(body) ? body : {};
    const messages = asArray(b.messages).filter(isObj);
    const lastTool = [...messages].reverse().find((m) => m.role === "tool");
    return {
      api: "openai-chat",
      model: str(b.model),
      stream: b.stream === true,
      tools: asArray(b.tools).flatMap((t) => {
        const name = isObj(t) && isObj(t.function) ? t.function.name : undefined;
        return typeof name === "string" ? [{ name }] : [];
      }),
      system: messages
        .filter((m) => SYSTEM_ROLES.has(str(m.role)))
        .map((m) => contentText(m.content))
        .join("\n"),
      messagesText: stringLeaves(messages).join("\n"),
      lastToolResult: lastTool ? contentText(lastTool.content) : undefined,
      includeUsage: isObj(b.stream_options) && b.stream_options.include_usage === true,
    };
  },
  reply(res, view, reply) {
    if (view.stream) return writeStream(res, view, reply);
    sendJson(res, 200, {
      id: reply.id,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: view.model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: reply.text ?? null,
            ...(reply.toolCalls.length
              ? {
                  tool_calls: reply.toolCalls.map((c) => ({
                    id: c.id,
                    type: "function",
                    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                  })),
                }
              : {}),
          },
          finish_reason: finishReason(reply),
        },
      ],
      usage: usageOf(reply),
    });
  },
  errorBody: (status, type, message) => ({
    error: { message, type, code: type, param: null, status },
  }),
};
