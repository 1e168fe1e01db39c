/**
 * What every vendor API adapter provides: how it recognises its requests, what a request
 * carries (normalised, so turns assert on it the same way for every API), and how a reply
 * and an error are written in the vendor's own wire format.
 */
import type { ServerResponse } from "node:http";
import type { ApiName } from "./script";

export type OfferedTool = {
  /** The name as scripts match it: for a namespaced tool `<namespace>__<name>`. */
  name: string;
  /** Responses API namespaces (Codex groups MCP tools so): the bare name and its group. */
  namespace?: string;
  bareName?: string;
  /** Anthropic `defer_loading`: listed, but loaded only through tool search (Claude Code
   * adds such a `DeferredToolPlaceholder` to every request). */
  deferred?: boolean;
};

export type RequestView = {
  api: ApiName;
  model: string;
  stream: boolean;
  tools: OfferedTool[];
  system: string;
  /** Every string in the conversation, one per line. */
  messagesText: string;
  /** The text of the most recent tool result in the conversation, if any. */
  lastToolResult: string | undefined;
  /** OpenAI Chat: `stream_options.include_usage`. */
  includeUsage: boolean;
};

export type ReplyToolCall = {
  id: string;
  name: string;
  namespace?: string;
  arguments: Record<string, unknown>;
};

export type ModelReply = {
  text?: string;
  toolCalls: ReplyToolCall[];
  usage: { inputTokens: number; outputTokens: number };
  /** A stable id for the reply (message, completion, response). */
  id: string;
};

export type RouteMatch = { model?: string; stream?: boolean };

export type ApiAdapter = {
  name: ApiName;
  /** Whether a request to this method and path is one of this API's model calls. */
  route(method: string, url: URL): RouteMatch | undefined;
  view(body: unknown, route: RouteMatch, url: URL): RequestView;
  reply(res: ServerResponse, view: RequestView, reply: ModelReply): void;
  /** The API's error envelope. */
  errorBody(status: number, type: string, message: string): unknown;
  /** The prefix of generated tool call ids (`toolu_`, `call_`). */
  callIdPrefix: string;
};

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v);
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Every string value below `value` (object keys excluded), in order. */
export const stringLeaves = (value: unknown): string[] => {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (isObj(value)) return Object.values(value).flatMap(stringLeaves);
  return [];
};

/** The readable text of a content value: a string, text blocks, or anything else as JSON. */
export const contentText = (value: unknown): string => {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(contentText).join("\n");
  if (isObj(value)) {
    if (typeof value.text === "string") return value.text;
    if ("content" in value) return contentText(value.content);
    if ("output" in value) return contentText(value.output);
  }
  return value === undefined ? "" : JSON.stringify(value);
};

/** Splits a string into a few pieces so clients exercise their delta accumulation. */
export const pieces = (text: string, size = 24): string[] => {
  if (text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
};

export const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
};

/** A server-sent event stream: `send(data)` or `send(data, event)`; `end()` closes it. */
export const sseStream = (res: ServerResponse) => {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  return {
    send(data: unknown, event?: string) {
      const payload = typeof data === "string" ? data : JSON.stringify(data);
      res.write(`${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`);
    },
    end() {
      res.end();
    },
  };
};
