/**
 * Reads Gemini CLI's `--output-format stream-json` stdout as it arrives (one JSON object per
 * line, read by jsonEventLines; other lines are counted as noise) and turns it into step
 * events: `init` gives the session, the assistant's streamed `message` deltas become one
 * text event per stretch of text, `tool_use`/`tool_result` pair by `tool_id` (tools not the
 * proxy's are `native`), `error` events are kept as warnings, and the closing `result`
 * gives the usage and success or the error. The answer is the text after the last tool
 * result. The summary keeps what the runner needs to decide the outcome.
 */
import { CODES, type ErrorCode } from "../../errors/error-codes";
import type { AgentStepEvent } from "../agent-events";
import { jsonEventLines, type JsonEvent } from "../json-event-lines";
import type { LineSplitter } from "../split-lines";
import { GEMINI_TOOL_PREFIX } from "./build-gemini-launch";

export type GeminiResult = { ok: boolean; errorType?: string; message: string };

export type GeminiUsage = { inputTokens: number; outputTokens: number; cachedTokens: number };

export type GeminiStreamSummary = {
  sessionId?: string;
  model?: string;
  result?: GeminiResult;
  usage?: GeminiUsage;
  /** The text of the last stretch without tool calls: the answer. */
  answer: string;
  /** Tool calls the CLI reported. */
  toolCalls: number;
  /** `error` events (warnings and errors the CLI carried on after). */
  warnings: string[];
  noiseLines: number;
  lastNoise: string[];
};

export type GeminiStreamParser = LineSplitter & { readonly summary: GeminiStreamSummary };

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const text = (v: unknown) => (typeof v === "string" ? v : "");
const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);

/** The proxy's own words in a failed MCP call: Gemini CLI wraps them in `... with response: [functionResponse...]`. */
const mcpErrorText = (message: string): string => {
  const at = message.indexOf("with response: ");
  if (at < 0) return message;
  try {
    const parts = JSON.parse(message.slice(at + "with response: ".length)) as unknown[];
    const said = parts.flatMap((part) => {
      const content = asObject(asObject(asObject(part)?.functionResponse)?.response)?.content;
      return Array.isArray(content) ? content.map((c) => text(asObject(c)?.text)) : [];
    });
    return said.filter(Boolean).join("\n") || message;
  } catch {
    return message;
  }
};

/** The HTTP status of a failed model request, from the CLI's `[API Error: {...}]` text. */
const apiStatus = (message: string): number | undefined => {
  const found =
    /"code"\s*:\s*(\d{3})\b/.exec(message) ??
    /\bstatus(?:\s+code)?\s*:?\s*(\d{3})\b/i.exec(message);
  return found ? Number(found[1]) : undefined;
};

/** The code a failed `result` stands for. */
export const geminiResultCode = (result: GeminiResult): ErrorCode => {
  if (result.errorType === "FatalTurnLimitedError") return CODES.INFINITE_LOOP_GUARD;
  const status = apiStatus(result.message);
  if (status === undefined) return CODES.AGENT_FAILED;
  if (status === 429 || status >= 500) return CODES.MODEL_UNAVAILABLE;
  return status >= 400 ? CODES.MODEL_REQUEST_REJECTED : CODES.AGENT_FAILED;
};

/**
 * A failed `result`'s message: the model endpoint's own words, with its status, when the CLI
 * quotes the error body (`[API Error: {"error":{"code":400,"message":...}}]`); else as it is.
 */
export const geminiResultMessage = (result: GeminiResult): string => {
  const quoted = /^\[API Error: (\{.*\})\]$/s.exec(result.message.trim())?.[1];
  if (quoted === undefined) return result.message;
  try {
    const error = asObject(asObject(JSON.parse(quoted))?.error);
    const said = text(error?.message);
    const status = count(error?.code);
    if (said)
      return status
        ? `the model endpoint answered HTTP ${status}: ${said}`
        : `the model endpoint said: ${said}`;
  } catch {
    // not a JSON body
  }
  return result.message;
};

export const parseGeminiStream = (onEvent: (event: AgentStepEvent) => void): GeminiStreamParser => {
  const summary: GeminiStreamSummary = {
    answer: "",
    toolCalls: 0,
    warnings: [],
    noiseLines: 0,
    lastNoise: [],
  };
  const native = new Set<string>();
  let pending = "";

  const flushText = () => {
    if (pending.trim()) onEvent({ type: "text", text: pending });
    pending = "";
  };

  const onToolUse = (event: Json) => {
    flushText();
    summary.answer = "";
    summary.toolCalls++;
    const id = text(event.tool_id);
    const full = text(event.tool_name);
    const bare = full.startsWith(GEMINI_TOOL_PREFIX)
      ? full.slice(GEMINI_TOOL_PREFIX.length)
      : undefined;
    if (bare === undefined) native.add(id);
    const nativeFlag = bare === undefined ? { native: true } : {};
    onEvent({
      type: "tool_use",
      id,
      name: bare ?? full,
      arguments: event.parameters ?? {},
      ...nativeFlag,
    });
  };

  const onToolResult = (event: Json) => {
    flushText();
    summary.answer = "";
    const id = text(event.tool_id);
    const failed = event.status !== "success";
    const error = asObject(event.error);
    const said = failed && error ? mcpErrorText(text(error.message)) : text(event.output);
    onEvent({
      type: "tool_result",
      id,
      isError: failed,
      text: said || text(event.output),
      ...(native.has(id) ? { native: true } : {}),
    });
  };

  const onResult = (event: Json) => {
    flushText();
    const stats = asObject(event.stats);
    if (stats) {
      summary.usage = {
        inputTokens: count(stats.input_tokens),
        outputTokens: count(stats.output_tokens),
        cachedTokens: count(stats.cached),
      };
      if (summary.usage.inputTokens + summary.usage.outputTokens > 0)
        onEvent({
          type: "usage",
          inputTokens: summary.usage.inputTokens,
          outputTokens: summary.usage.outputTokens,
          estimated: false,
          cacheReadInputTokens: summary.usage.cachedTokens,
        });
    }
    const error = asObject(event.error);
    summary.result =
      event.status === "success"
        ? { ok: true, message: "" }
        : {
            ok: false,
            errorType: text(error?.type) || undefined,
            message: text(error?.message) || "Gemini CLI reported an error",
          };
    if (summary.result.ok) onEvent({ type: "final", text: summary.answer });
  };

  const onLine = (event: JsonEvent) => {
    switch (event.type) {
      case "init":
        summary.sessionId = text(event.session_id) || undefined;
        summary.model = text(event.model) || undefined;
        if (summary.sessionId) onEvent({ type: "session", sessionId: summary.sessionId });
        return;
      case "message":
        if (event.role === "assistant") {
          pending += text(event.content);
          summary.answer += text(event.content);
        }
        return;
      case "tool_use":
        return onToolUse(event);
      case "tool_result":
        return onToolResult(event);
      case "error":
        summary.warnings.push(`${text(event.severity) || "error"}: ${text(event.message)}`);
        return;
      case "result":
        return onResult(event);
      default:
        return;
    }
  };

  const lines = jsonEventLines(onLine, { noise: summary });
  return {
    push: (chunk) => lines.push(chunk),
    end: () => {
      lines.end();
      flushText();
    },
    summary,
  };
};
