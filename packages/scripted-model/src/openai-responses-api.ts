/**
 * OpenAI Responses (`POST /v1/responses`, what Codex calls): streaming events from
 * `response.created` to `response.completed` (with usage), message items with output_text
 * deltas and function_call items with argument deltas; or the response object as JSON.
 */
import type { ServerResponse } from "node:http";
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
  type OfferedTool,
  type RequestView,
} from "./api-adapter";

const SYSTEM_ROLES = new Set(["system", "developer"]);
/** An input item that offers tools (Codex sends them so for models in code mode) instead of `tools`. */
const ADDITIONAL_TOOLS = "additional_tools";

/** Function tools, and tools grouped under a namespace (`{name, tools: [...]}`) flattened to `<ns>__<name>`. */
const offeredTools = (tools: unknown[]): OfferedTool[] =>
  tools.flatMap((t): OfferedTool[] => {
    if (!isObj(t)) return [];
    if (Array.isArray(t.tools) && typeof t.name === "string") {
      const namespace = t.name;
      return offeredTools(t.tools).map((child) => ({
        name: `${namespace}__${child.name}`,
        namespace,
        bareName: child.name,
      }));
    }
    const name = typeof t.name === "string" ? t.name : str(t.type);
    return name ? [{ name }] : [];
  });

const outputItems = (reply: ModelReply) => [
  ...(reply.text !== undefined
    ? [
        {
          id: `msg_${reply.id}`,
          type: "message" as const,
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: reply.text, annotations: [] }],
        },
      ]
    : []),
  ...reply.toolCalls.map((c, i) => ({
    id: `fc_${reply.id}_${i}`,
    type: "function_call" as const,
    status: "completed",
    call_id: c.id,
    name: c.name,
    ...(c.namespace ? { namespace: c.namespace } : {}),
    arguments: JSON.stringify(c.arguments),
  })),
];

const responseObject = (view: RequestView, reply: ModelReply, done: boolean) => ({
  id: reply.id,
  object: "response",
  created_at: Math.floor(Date.now() / 1000),
  status: done ? "completed" : "in_progress",
  model: view.model,
  output: done ? outputItems(reply) : [],
  usage: done
    ? {
        input_tokens: reply.usage.inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: reply.usage.outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
      }
    : null,
});

const writeStream = (res: ServerResponse, view: RequestView, reply: ModelReply) => {
  const sse = sseStream(res);
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    sse.send({ type, sequence_number: sequence++, ...fields }, type);
  event("response.created", { response: responseObject(view, reply, false) });
  event("response.in_progress", { response: responseObject(view, reply, false) });
  outputItems(reply).forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === "message") {
      const text = reply.text ?? "";
      event("response.output_item.added", {
        output_index,
        item: { ...item, status: "in_progress", content: [] },
      });
      const part = { type: "output_text", text: "", annotations: [] };
      event("response.content_part.added", { item_id, output_index, content_index: 0, part });
      for (const delta of pieces(text))
        event("response.output_text.delta", {
          item_id,
          output_index,
          content_index: 0,
          delta,
          logprobs: [],
        });
      event("response.output_text.done", {
        item_id,
        output_index,
        content_index: 0,
        text,
        logprobs: [],
      });
      event("response.content_part.done", {
        item_id,
        output_index,
        content_index: 0,
        part: { ...part, text },
      });
    } else {
      const args = item.arguments;
      event("response.output_item.added", {
        output_index,
        item: { ...item, status: "in_progress", arguments: "" },
      });
      for (const delta of pieces(args))
        event("response.function_call_arguments.delta", { item_id, output_index, delta });
      event("response.function_call_arguments.done", { item_id, output_index, arguments: args });
    }
    event("response.output_item.done", { output_index, item });
  });
  event("response.completed", { response: responseObject(view, reply, true) });
  sse.end();
};

export const openaiResponsesApi: ApiAdapter = {
  name: "openai-responses",
  callIdPrefix: "call_",
  route: (method, url) => (method === "POST" && /\/responses$/.test(url.pathname) ? {} : undefined),
  view(body) {
    const b = isObj(body) ? body : {};
    const input =
      typeof b.input === "string" ? [{ role: "user", content: b.input }] : asArray(b.input);
    const all = input.filter(isObj);
    const items = all.filter((i) => i.type !== ADDITIONAL_TOOLS);
    const added = all.flatMap((i) => (i.type === ADDITIONAL_TOOLS ? asArray(i.tools) : []));
    const lastOutput = [...items].reverse().find((i) => i.type === "function_call_output");
    return {
      api: "openai-responses",
      model: str(b.model),
      stream: b.stream === true,
      tools: offeredTools([...asArray(b.tools), ...added]),
      system: [
        str(b.instructions),
        ...items.filter((i) => SYSTEM_ROLES.has(str(i.role))).map((i) => contentText(i.content)),
      ]
        .filter(Boolean)
        .join("\n"),
      messagesText: stringLeaves(items).join("\n"),
      lastToolResult: lastOutput ? contentText(lastOutput.output) : undefined,
      includeUsage: true,
    };
  },
  reply(res, view, reply) {
    if (view.stream) return writeStream(res, view, reply);
    sendJson(res, 200, responseObject(view, reply, true));
  },
  errorBody: (_status, type, message) => ({ error: { message, type, code: type, param: null } }),
};
