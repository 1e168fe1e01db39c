/**
 * Reads `opencode run --format json` stdout as it arrives (one JSON event per line; chunks
 * split lines and characters anywhere; lines that are not JSON are counted and skipped) and
 * turns it into step events. OpenCode reports a tool call once, when it has finished, so a
 * `tool` part gives both the call and its result (tools that are not the proxy's are
 * `native`); `text` parts are the model's text; each `step_finish` closes one model request
 * with its tokens (one usage event each) and why it stopped: any reason but `tool-calls` ends
 * the run, its message's text being the answer. An `error` event (the model request failed)
 * ends it as a failure, coded from its HTTP status.
 */
import { CODES, type ErrorCode } from "../../errors/error-codes";
import type { AgentStepEvent } from "../agent-events";
import { jsonEventLines, type JsonEvent } from "../json-event-lines";
import { OPENCODE_TOOL_PREFIX } from "./build-opencode-launch";

export type OpencodeResult =
  | { isError: false; text: string; reason: string }
  | { isError: true; code: ErrorCode; message: string };

export type OpencodeStreamSummary = {
  sessionId?: string;
  result?: OpencodeResult;
  /** Summed over the model requests. */
  usage?: { inputTokens: number; outputTokens: number };
  /** The CLI's cost estimate (0 when it knows no prices, and then left out). */
  costUsd?: number;
  /** Model requests that finished. */
  turns: number;
  /** All the text, in order (the answer when no result came). */
  text: string;
  noiseLines: number;
  lastNoise: string[];
};

export type OpencodeStreamParser = {
  push: (chunk: Buffer | string) => void;
  end: () => void;
  readonly summary: OpencodeStreamSummary;
};

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** The code a failed model request stands for, from its HTTP status and whether OpenCode would retry it. */
export const opencodeErrorCode = (status: number | undefined, retryable: boolean): ErrorCode => {
  if (status === 429 || (status !== undefined && status >= 500) || retryable)
    return CODES.MODEL_UNAVAILABLE;
  if (status !== undefined && status >= 400) return CODES.MODEL_REQUEST_REJECTED;
  return CODES.AGENT_FAILED;
};

export const parseOpencodeStream = (
  onEvent: (event: AgentStepEvent) => void,
  options: { maxLineChars?: number } = {},
): OpencodeStreamParser => {
  const summary: OpencodeStreamSummary = { turns: 0, text: "", noiseLines: 0, lastNoise: [] };
  /** Text by message, for the answer: the text of the message that ended the run. */
  const messageText = new Map<string, string>();

  const onText = (part: Json) => {
    const text = str(part.text) ?? "";
    if (text === "") return;
    const id = str(part.messageID) ?? "";
    messageText.set(id, (messageText.get(id) ?? "") + text);
    summary.text += text;
    onEvent({ type: "text", text });
  };

  const onTool = (part: Json) => {
    const state = isObject(part.state) ? part.state : {};
    const tool = str(part.tool) ?? "";
    const id = str(part.callID) ?? str(part.id) ?? "";
    const proxied = tool.startsWith(OPENCODE_TOOL_PREFIX);
    const native = proxied ? {} : { native: true };
    onEvent({
      type: "tool_use",
      id,
      name: proxied ? tool.slice(OPENCODE_TOOL_PREFIX.length) : tool,
      arguments: state.input ?? {},
      ...native,
    });
    if (state.status !== "completed" && state.status !== "error") return;
    const isError = state.status === "error";
    const text = isError
      ? (str(state.error) ?? "")
      : (str(state.output) ?? JSON.stringify(state.output ?? ""));
    onEvent({ type: "tool_result", id, isError, text, ...native });
    if (isError && !proxied && /permission|denied|rejected/i.test(text))
      onEvent({
        type: "error",
        code: CODES.AGENT_PERMISSION_DENIED,
        message: `OpenCode refused to run ${tool}: ${text}`,
      });
  };

  const onStepFinish = (part: Json) => {
    summary.turns++;
    const tokens = isObject(part.tokens) ? part.tokens : {};
    const cache = isObject(tokens.cache) ? tokens.cache : {};
    const cacheRead = count(cache.read);
    const cacheWrite = count(cache.write);
    const input = count(tokens.input) + cacheRead + cacheWrite;
    const output = count(tokens.output) + count(tokens.reasoning);
    const sum = summary.usage ?? { inputTokens: 0, outputTokens: 0 };
    summary.usage = {
      inputTokens: sum.inputTokens + input,
      outputTokens: sum.outputTokens + output,
    };
    onEvent({
      type: "usage",
      inputTokens: input,
      outputTokens: output,
      estimated: false,
      ...(cacheWrite > 0 ? { cacheCreationInputTokens: cacheWrite } : {}),
      ...(cacheRead > 0 ? { cacheReadInputTokens: cacheRead } : {}),
    });
    const cost = count(part.cost);
    if (cost > 0) summary.costUsd = (summary.costUsd ?? 0) + cost;
    const reason = str(part.reason) ?? "stop";
    if (reason === "tool-calls") return;
    const text = messageText.get(str(part.messageID) ?? "") ?? "";
    summary.result = { isError: false, text, reason };
    if (summary.costUsd !== undefined)
      onEvent({ type: "cost", usd: summary.costUsd, source: "cli_estimate" });
    onEvent({ type: "final", text, turns: summary.turns, subtype: reason });
  };

  const onError = (event: Json) => {
    const error = isObject(event.error) ? event.error : {};
    const data = isObject(error.data) ? error.data : {};
    const status = typeof data.statusCode === "number" ? data.statusCode : undefined;
    const code = opencodeErrorCode(status, data.isRetryable === true);
    const message = str(data.message) ?? str(error.name) ?? "OpenCode reported an error";
    summary.result = { isError: true, code, message };
    onEvent({ type: "error", code, message });
  };

  const line = (event: JsonEvent) => {
    const sessionId = str(event.sessionID);
    if (sessionId && summary.sessionId !== sessionId) {
      summary.sessionId = sessionId;
      onEvent({ type: "session", sessionId });
    }
    const part = isObject(event.part) ? event.part : {};
    switch (event.type) {
      case "text":
        return onText(part);
      case "tool_use":
        return onTool(part);
      case "step_finish":
        return onStepFinish(part);
      case "error":
        return onError(event);
      default:
        return; // step_start, reasoning and what later versions add
    }
  };

  const lines = jsonEventLines(line, {
    ...(options.maxLineChars === undefined ? {} : { maxLineChars: options.maxLineChars }),
    noise: summary,
  });
  return { push: lines.push, end: lines.end, summary };
};
