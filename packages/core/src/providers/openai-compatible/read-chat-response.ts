/**
 * Reads one Chat Completions answer into a turn: a `text/event-stream` of chunks (text
 * handed out as it arrives, tool calls assembled from their pieces, the usage chunk), or, when
 * the server ignores `stream: true`, one JSON completion. The body is counted as it is read
 * and abandoned past the cap, so a runaway server cannot fill the worker's memory.
 */
import { AppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";

export type ChatToolCall = { id: string; name: string; arguments: string };
export type ChatUsage = { inputTokens: number; outputTokens: number };
export type ChatTurn = {
  text: string;
  toolCalls: ChatToolCall[];
  finishReason?: string;
  usage?: ChatUsage;
};

export type ReadChatOptions = {
  maxBytes: number;
  /** Makes text from the server safe to show (the key scrubbed). */
  scrub: (text: string) => string;
  onText?: (text: string) => void;
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

const badResponse = (message: string) => new AppError(CODES.MODEL_BAD_RESPONSE, message);

/** Yields the body's bytes as text; throws MODEL_RESPONSE_TOO_LARGE past `maxBytes`. */
async function* cappedText(body: ReadableStream<Uint8Array>, maxBytes: number) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes)
        throw new AppError(
          CODES.MODEL_RESPONSE_TOO_LARGE,
          `the model's response is larger than ${maxBytes} bytes; it was abandoned`,
        );
      yield decoder.decode(value, { stream: true });
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The error a payload carries (`{error: {message}}` or `{error: "..."}`), if any. */
export const errorMessageOf = (payload: unknown): string | undefined => {
  if (!isObj(payload)) return undefined;
  const error = payload.error;
  if (typeof error === "string") return error;
  if (isObj(error) && typeof error.message === "string") return error.message;
  if (typeof payload.message === "string") return payload.message;
  if (typeof payload.detail === "string") return payload.detail;
  return undefined;
};

const usageOf = (payload: Obj): ChatUsage | undefined =>
  isObj(payload.usage)
    ? {
        inputTokens: num(payload.usage.prompt_tokens),
        outputTokens: num(payload.usage.completion_tokens),
      }
    : undefined;

const contentText = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) => (isObj(part) && typeof part.text === "string" ? part.text : ""))
      .join("");
  return "";
};

const parseJson = (text: string, scrub: (t: string) => string, what: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw badResponse(`${what} is not JSON: ${scrub(text.slice(0, 200))}`);
  }
};

/** Tool call pieces of a stream, merged by `index` as they arrive. */
class ToolCallPieces {
  private readonly calls = new Map<number, ChatToolCall>();

  add(delta: unknown, position: number) {
    if (!isObj(delta)) return;
    const index = typeof delta.index === "number" ? delta.index : position;
    let call = this.calls.get(index);
    if (!call) this.calls.set(index, (call = { id: "", name: "", arguments: "" }));
    if (typeof delta.id === "string" && delta.id) call.id = delta.id;
    const fn = isObj(delta.function) ? delta.function : {};
    // Some servers repeat the whole name in every chunk, others send it once.
    if (typeof fn.name === "string" && fn.name && call.name !== fn.name) call.name += fn.name;
    if (typeof fn.arguments === "string") call.arguments += fn.arguments;
  }

  list(): ChatToolCall[] {
    return [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  }
}

/** Splits an event stream into its events' data (lines joined), as the SSE format defines. */
class SseData {
  private partial = "";
  private data: string[] = [];

  push(text: string): string[] {
    const lines = (this.partial + text).split("\n");
    this.partial = lines.pop() ?? "";
    return this.take(lines);
  }

  end(): string[] {
    return this.take([this.partial, ""]);
  }

  private take(lines: string[]): string[] {
    const events: string[] = [];
    for (const raw of lines) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (line === "") {
        if (this.data.length) events.push(this.data.join("\n"));
        this.data = [];
      } else if (line.startsWith("data:")) {
        this.data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
      }
    }
    return events;
  }
}

const readStream = async (body: ReadableStream<Uint8Array>, options: ReadChatOptions) => {
  const sse = new SseData();
  const calls = new ToolCallPieces();
  const turn: ChatTurn = { text: "", toolCalls: [] };
  let done = false;
  const apply = (data: string) => {
    if (done) return;
    if (data.trim() === "[DONE]") {
      done = true;
      return;
    }
    const chunk = parseJson(data, options.scrub, "a chunk of the model's stream");
    if (!isObj(chunk)) return;
    if (chunk.error !== undefined && chunk.error !== null)
      throw badResponse(
        `the model's stream reported an error: ${options.scrub(errorMessageOf(chunk) ?? JSON.stringify(chunk.error))}`,
      );
    turn.usage = usageOf(chunk) ?? turn.usage;
    const choice = Array.isArray(chunk.choices) ? (chunk.choices[0] as unknown) : undefined;
    if (!isObj(choice)) return;
    if (typeof choice.finish_reason === "string") turn.finishReason = choice.finish_reason;
    const delta = isObj(choice.delta) ? choice.delta : {};
    const text = contentText(delta.content);
    if (text) {
      turn.text += text;
      options.onText?.(text);
    }
    if (Array.isArray(delta.tool_calls)) delta.tool_calls.forEach((d, i) => calls.add(d, i));
  };
  for await (const text of cappedText(body, options.maxBytes)) sse.push(text).forEach(apply);
  sse.end().forEach(apply);
  if (!done && turn.finishReason === undefined)
    throw new AppError(
      CODES.MODEL_UNAVAILABLE,
      "the model's stream ended before the answer was complete",
      { retryable: true },
    );
  turn.toolCalls = calls.list();
  return turn;
};

const readJson = async (body: ReadableStream<Uint8Array>, options: ReadChatOptions) => {
  let text = "";
  for await (const piece of cappedText(body, options.maxBytes)) text += piece;
  const payload = parseJson(text, options.scrub, "the model's response");
  const choice =
    isObj(payload) && Array.isArray(payload.choices) ? (payload.choices[0] as unknown) : undefined;
  if (!isObj(payload) || !isObj(choice)) {
    const error = errorMessageOf(payload);
    throw badResponse(
      error === undefined
        ? `the model's response has no choices: ${options.scrub(text.slice(0, 200))}`
        : `the model's response is an error: ${options.scrub(error)}`,
    );
  }
  const message = isObj(choice.message) ? choice.message : {};
  const calls = new ToolCallPieces();
  if (Array.isArray(message.tool_calls)) message.tool_calls.forEach((c, i) => calls.add(c, i));
  const turn: ChatTurn = { text: contentText(message.content), toolCalls: calls.list() };
  if (typeof choice.finish_reason === "string") turn.finishReason = choice.finish_reason;
  const usage = usageOf(payload);
  if (usage) turn.usage = usage;
  if (turn.text) options.onText?.(turn.text);
  return turn;
};

/** Reads a successful response, as a stream or as one JSON completion by its content type. */
export const readChatResponse = async (
  response: Response,
  options: ReadChatOptions,
): Promise<ChatTurn> => {
  if (!response.body) throw badResponse("the model's response has no body");
  const type = response.headers.get("content-type") ?? "";
  return type.includes("text/event-stream")
    ? readStream(response.body, options)
    : readJson(response.body, options);
};

/** At most `maxBytes` of an error response's body, as text; never throws. */
export const readErrorBody = async (response: Response, maxBytes: number): Promise<string> => {
  if (!response.body) return "";
  let text = "";
  try {
    for await (const piece of cappedText(response.body, Number.MAX_SAFE_INTEGER)) {
      text += piece;
      if (text.length >= maxBytes) break;
    }
  } catch {
    // What was read is enough to name the error.
  }
  return text.slice(0, maxBytes);
};
