/**
 * Reads `codex exec --json` stdout as it arrives (one JSON event per line; chunks split
 * lines and characters anywhere; lines that are not JSON are counted and skipped) and turns
 * it into step events: the thread as the session, each agent message as text, each MCP tool
 * call and its result (calls of servers other than the proxy's, and Codex's own commands,
 * file changes and web searches, are `native`, which the worker records as
 * `agent_reported`), the "Reconnecting… n/m" notices as retries, and at the end of the turn
 * the usage and the answer (the last agent message), or the turn's error. Codex's non-fatal
 * notices (`error` items, such as a model it has no metadata for) are kept in the summary,
 * not reported as step errors.
 */
import { CODES, type ErrorCode } from "../../errors/error-codes";
import type { AgentStepEvent } from "../agent-events";
import { jsonEventLines, keepLast, type JsonEvent } from "../json-event-lines";
import { CODEX_MCP_SERVER } from "./build-codex-launch";

export type CodexTurnResult = { isError: boolean; text: string };

export type CodexUsage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
};

export type CodexStreamSummary = {
  sessionId?: string;
  result?: CodexTurnResult;
  usage?: CodexUsage;
  /** The last agent message (the answer). */
  text: string;
  /** Codex's non-fatal notices, the last few. */
  notices: string[];
  /** Stdout lines that were not events, the last few. */
  lastNoise: string[];
};

export type CodexStreamParser = {
  push: (chunk: Buffer | string) => void;
  end: () => void;
  readonly summary: CodexStreamSummary;
};

type Json = Record<string, unknown>;

const RETRY = /^Reconnecting\.\.\.\s*(\d+)\/(\d+)/;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** The code a failed turn stands for, from its message (Codex reports no status of its own). */
export const codexErrorCode = (message: string): ErrorCode => {
  if (
    /exceeded retry limit|last status: (429|5\d\d)|stream disconnected|\b(429|5\d\d)\b/i.test(
      message,
    )
  )
    return CODES.MODEL_UNAVAILABLE;
  if (/"error"\s*:|invalid_request_error|\b4\d\d\b/.test(message))
    return CODES.MODEL_REQUEST_REJECTED;
  return CODES.AGENT_FAILED;
};

/** A failed turn's message: the API error's own message when Codex passes its body on. */
export const codexErrorMessage = (message: string): string => {
  try {
    const body = JSON.parse(message) as unknown;
    if (isObject(body) && isObject(body.error) && typeof body.error.message === "string")
      return `the model request was rejected: ${body.error.message}`;
  } catch {
    // not a JSON body
  }
  return message.trim() || "Codex ended its turn with an error";
};

/** The text of an MCP result's content blocks. */
const contentText = (result: unknown): string => {
  if (!isObject(result)) return "";
  const content = Array.isArray(result.content) ? result.content : [];
  return content
    .map((block) =>
      isObject(block) && block.type === "text"
        ? (str(block.text) ?? "")
        : `[${isObject(block) ? (str(block.type) ?? "content") : "content"}]`,
    )
    .join("\n");
};

type ToolView = {
  name: string;
  args: unknown;
  native: boolean;
  done?: { isError: boolean; text: string };
};

/** What a tool-like item stands for, or undefined for items that are not tools. */
const toolOf = (item: Json, completed: boolean): ToolView | undefined => {
  switch (item.type) {
    case "mcp_tool_call": {
      const server = str(item.server) ?? "";
      const tool = str(item.tool) ?? "";
      const error = isObject(item.error)
        ? (str(item.error.message) ?? "tool call failed")
        : undefined;
      return {
        name: server === CODEX_MCP_SERVER ? tool : `mcp__${server}__${tool}`,
        args: item.arguments,
        native: server !== CODEX_MCP_SERVER,
        ...(completed
          ? {
              done: {
                isError: error !== undefined || item.status === "failed",
                text: error ?? contentText(item.result),
              },
            }
          : {}),
      };
    }
    case "command_execution":
      return {
        name: "shell",
        args: { command: item.command },
        native: true,
        ...(completed
          ? {
              done: {
                isError:
                  item.status === "failed" ||
                  (typeof item.exit_code === "number" && item.exit_code !== 0),
                text: str(item.aggregated_output) ?? "",
              },
            }
          : {}),
      };
    case "file_change":
      return {
        name: "apply_patch",
        args: { changes: item.changes },
        native: true,
        ...(completed
          ? { done: { isError: item.status === "failed", text: str(item.status) ?? "" } }
          : {}),
      };
    case "web_search":
      return {
        name: "web_search",
        args: { query: item.query },
        native: true,
        ...(completed ? { done: { isError: false, text: "" } } : {}),
      };
    default:
      return undefined;
  }
};

export const parseCodexStream = (
  onEvent: (event: AgentStepEvent) => void,
  options: { maxLineChars?: number } = {},
): CodexStreamParser => {
  const started = new Set<string>();

  const onItem = (item: Json, completed: boolean) => {
    const id = str(item.id) ?? "";
    if (item.type === "agent_message") {
      const text = str(item.text) ?? "";
      if (!completed || text === "") return;
      summary.text = text;
      onEvent({ type: "text", text });
      return;
    }
    if (item.type === "error") {
      if (completed) keepLast(summary.notices, str(item.message) ?? "");
      return;
    }
    const tool = toolOf(item, completed);
    if (!tool) return; // reasoning, todo_list and what later versions add
    if (!started.has(id)) {
      started.add(id);
      onEvent({
        type: "tool_use",
        id,
        name: tool.name,
        arguments: tool.args,
        ...(tool.native ? { native: true } : {}),
      });
    }
    if (tool.done)
      onEvent({ type: "tool_result", id, ...tool.done, ...(tool.native ? { native: true } : {}) });
  };

  const onTurnCompleted = (event: Json) => {
    const usage = isObject(event.usage) ? event.usage : {};
    summary.usage = {
      inputTokens: num(usage.input_tokens),
      outputTokens: num(usage.output_tokens),
      cacheReadInputTokens: num(usage.cached_input_tokens),
      cacheCreationInputTokens: num(usage.cache_write_input_tokens),
    };
    onEvent({ type: "usage", ...summary.usage, estimated: false });
    summary.result = { isError: false, text: summary.text };
    onEvent({ type: "final", text: summary.text });
  };

  const onTurnFailed = (event: Json) => {
    const raw = (isObject(event.error) ? str(event.error.message) : undefined) ?? "";
    const result = { isError: true, text: raw };
    summary.result = result;
    onEvent({ type: "error", code: codexErrorCode(raw), message: codexErrorMessage(raw) });
  };

  const onError = (event: Json) => {
    const message = str(event.message) ?? "";
    const retry = RETRY.exec(message);
    if (retry) {
      const status = /status:? (\d{3})/.exec(message)?.[1];
      onEvent({
        type: "retry",
        attempt: Number(retry[1]),
        delayMs: 0,
        ...(status === undefined ? {} : { status: Number(status) }),
        message,
      });
    } else keepLast(summary.notices, message);
  };

  const lines = jsonEventLines(
    (event: JsonEvent) => {
      switch (event.type) {
        case "thread.started": {
          const id = str(event.thread_id);
          if (id && id !== summary.sessionId) {
            summary.sessionId = id;
            onEvent({ type: "session", sessionId: id });
          }
          return;
        }
        case "item.started":
        case "item.updated":
        case "item.completed":
          if (isObject(event.item)) onItem(event.item, event.type === "item.completed");
          return;
        case "turn.completed":
          return onTurnCompleted(event);
        case "turn.failed":
          return onTurnFailed(event);
        case "error":
          return onError(event);
        default:
          return; // turn.started and what later versions add
      }
    },
    options.maxLineChars === undefined ? {} : { maxLineChars: options.maxLineChars },
  );
  const summary: CodexStreamSummary = { text: "", notices: [], lastNoise: lines.noise.lastNoise };
  return { push: lines.push, end: lines.end, summary };
};
