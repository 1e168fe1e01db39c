/**
 * Gemini (`POST /v1beta/models/<model>:generateContent` and `:streamGenerateContent`, SSE with
 * `?alt=sse`, else a JSON array of chunks): text and functionCall parts, usageMetadata on the
 * last chunk.
 */
import {
  asArray,
  contentText,
  isObj,
  pieces,
  sendJson,
  sseStream,
  stringLeaves,
  type ApiAdapter,
  type ModelReply,
} from "./api-adapter";

const ROUTE = /\/models\/([^/]+):(generateContent|streamGenerateContent)$/;

const partsOf = (value: unknown) => (isObj(value) ? asArray(value.parts).filter(isObj) : []);

const candidate = (parts: unknown[], finishReason?: string) => ({
  content: { role: "model", parts },
  index: 0,
  ...(finishReason ? { finishReason } : {}),
});

const usageOf = (reply: ModelReply) => ({
  promptTokenCount: reply.usage.inputTokens,
  candidatesTokenCount: reply.usage.outputTokens,
  totalTokenCount: reply.usage.inputTokens + reply.usage.outputTokens,
});

const callParts = (reply: ModelReply) =>
  reply.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.arguments } }));

/** The chunks of a streamed reply: text pieces, then the calls with the finish reason and usage. */
const chunks = (view: { model: string }, reply: ModelReply) => {
  const textChunks = reply.text === undefined ? [] : pieces(reply.text).map((text) => [{ text }]);
  const last = [...(textChunks.pop() ?? []), ...callParts(reply)];
  return [
    ...textChunks.map((parts) => ({ candidates: [candidate(parts)], modelVersion: view.model })),
    {
      candidates: [candidate(last, "STOP")],
      usageMetadata: usageOf(reply),
      modelVersion: view.model,
      responseId: reply.id,
    },
  ];
};

export const geminiApi: ApiAdapter = {
  name: "gemini",
  callIdPrefix: "call_",
  route(method, url) {
    const m = method === "POST" ? ROUTE.exec(url.pathname) : null;
    if (!m) return undefined;
    return { model: decodeURIComponent(m[1] ?? ""), stream: m[2] === "streamGenerateContent" };
  },
  view(body, route) {
    const b = isObj(body) ? body : {};
    const contents = asArray(b.contents);
    const parts = contents.flatMap(partsOf);
    const lastResponse = [...parts].reverse().find((p) => isObj(p.functionResponse));
    const declarations = asArray(b.tools).flatMap((t) =>
      isObj(t) ? asArray(t.functionDeclarations ?? t.function_declarations) : [],
    );
    return {
      api: "gemini",
      model: route.model ?? "",
      stream: route.stream === true,
      tools: declarations.flatMap((d) =>
        isObj(d) && typeof d.name === "string" ? [{ name: d.name }] : [],
      ),
      system: partsOf(b.systemInstruction ?? b.system_instruction)
        .map((p) => contentText(p.text))
        .join("\n"),
      messagesText: stringLeaves(contents).join("\n"),
      lastToolResult:
        lastResponse && isObj(lastResponse.functionResponse)
          ? contentText(lastResponse.functionResponse.response)
          : undefined,
      includeUsage: true,
    };
  },
  reply(res, view, reply) {
    if (!view.stream) {
      const text = reply.text === undefined ? [] : [{ text: reply.text }];
      return sendJson(res, 200, {
        candidates: [candidate([...text, ...callParts(reply)], "STOP")],
        usageMetadata: usageOf(reply),
        modelVersion: view.model,
        responseId: reply.id,
      });
    }
    const all = chunks(view, reply);
    if (res.req.url?.includes("alt=sse")) {
      const sse = sseStream(res);
      for (const chunk of all) sse.send(chunk);
      return sse.end();
    }
    sendJson(res, 200, all);
  },
  errorBody: (status, type, message) => ({
    error: { code: status, message, status: status === 429 ? "RESOURCE_EXHAUSTED" : type },
  }),
};
