/**
 * Reads Claude Code's `--output-format stream-json` stdout as it arrives (one JSON object per
 * line; chunks split lines and characters anywhere; lines that are not JSON are counted and
 * skipped) and turns it into step events: the session, the main thread's text, each tool
 * call and result (calls of tools that are not the proxy's are `native`, which the worker
 * records as `agent_reported`), retries, and from the final `result` event the usage, the
 * CLI's cost estimate, permission denials (the CLI exits 0 even when it refused tools) and
 * the answer or the error. The summary keeps what the runner needs to decide the outcome.
 */
import { CODES, type ErrorCode } from "../../errors/error-codes";
import type { AgentStepEvent } from "../agent-events";
import { jsonEventLines, type JsonEvent } from "../json-event-lines";
import { CLAUDE_MCP_SERVER, CLAUDE_TOOL_PREFIX } from "./build-claude-launch";

export type ClaudeResultEvent = {
  text: string;
  isError: boolean;
  subtype: string;
  turns?: number;
  /** Why the CLI stopped (`completed`, `api_error`, `max_turns`, ...). */
  terminalReason?: string;
  /** The HTTP status of the model request that failed, when one did. */
  apiErrorStatus?: number;
  errors: string[];
};

export type ClaudeUsage = {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
};

export type ClaudeStreamSummary = {
  sessionId?: string;
  result?: ClaudeResultEvent;
  usage?: ClaudeUsage;
  /** `total_cost_usd`: the CLI's estimate at list prices. */
  costUsd?: number;
  /** The main thread's text, in order (the answer when no result came). */
  text: string;
  /** Lines that were not JSON objects, and the last few of them. */
  noiseLines: number;
  lastNoise: string[];
};

export type ClaudeStreamParser = {
  push: (chunk: Buffer | string) => void;
  /** Parses what is left after the last newline. */
  end: () => void;
  readonly summary: ClaudeStreamSummary;
};

export type ParseClaudeStreamOptions = {
  /** A longer line is skipped (counted as noise); 16 MiB unless told. */
  maxLineChars?: number;
};

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isFinite(v) ? v : undefined;

/** The text of a tool_result's content: a string, or blocks whose text is joined. */
const resultText = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined ? "" : JSON.stringify(content);
  return content
    .map((block) =>
      isObject(block) && block.type === "text"
        ? (str(block.text) ?? "")
        : `[${isObject(block) ? (str(block.type) ?? "content") : "content"}]`,
    )
    .join("\n");
};

const readUsage = (usage: unknown): ClaudeUsage | undefined => {
  if (!isObject(usage)) return undefined;
  const input = num(usage.input_tokens) ?? 0;
  const cacheCreation = num(usage.cache_creation_input_tokens) ?? 0;
  const cacheRead = num(usage.cache_read_input_tokens) ?? 0;
  return {
    inputTokens: input + cacheCreation + cacheRead,
    outputTokens: num(usage.output_tokens) ?? 0,
    cacheCreationInputTokens: cacheCreation,
    cacheReadInputTokens: cacheRead,
  };
};

/** The code a failed `result` stands for. */
export const claudeResultCode = (result: ClaudeResultEvent): ErrorCode => {
  if (result.subtype === "error_max_turns") return CODES.INFINITE_LOOP_GUARD;
  const status = result.apiErrorStatus;
  if (status === 429 || (status !== undefined && status >= 500)) return CODES.MODEL_UNAVAILABLE;
  if (status !== undefined && status >= 400) return CODES.MODEL_REQUEST_REJECTED;
  if (result.terminalReason === "api_error") return CODES.MODEL_UNAVAILABLE;
  return CODES.AGENT_FAILED;
};

/** One line for a failed `result`: its text, else its errors, else its subtype. */
export const claudeResultMessage = (result: ClaudeResultEvent): string =>
  result.text.trim() || result.errors.join("; ") || `Claude Code ended with ${result.subtype}`;

export const parseClaudeStream = (
  onEvent: (event: AgentStepEvent) => void,
  options: ParseClaudeStreamOptions = {},
): ClaudeStreamParser => {
  const summary: ClaudeStreamSummary = { text: "", noiseLines: 0, lastNoise: [] };
  const nativeIds = new Set<string>();
  const deniedIds = new Set<string>();

  const session = (id: unknown) => {
    const sessionId = str(id);
    if (!sessionId || summary.sessionId === sessionId) return;
    summary.sessionId = sessionId;
    onEvent({ type: "session", sessionId });
  };

  const denied = (tool: string, id: string | undefined, message?: string) => {
    if (id !== undefined) {
      if (deniedIds.has(id)) return;
      deniedIds.add(id);
    }
    onEvent({
      type: "error",
      code: CODES.AGENT_PERMISSION_DENIED,
      message: `Claude Code refused to run ${tool}${message ? `: ${message}` : " (not allowed)"}`,
    });
  };

  const onSystem = (event: Json) => {
    session(event.session_id);
    switch (event.subtype) {
      case "init": {
        const servers = Array.isArray(event.mcp_servers) ? event.mcp_servers : [];
        for (const server of servers) {
          if (!isObject(server) || server.status === "connected") continue;
          const name = str(server.name) ?? "?";
          onEvent({
            type: "error",
            code: CODES.MCP_PROXY_UNAVAILABLE,
            message: `Claude Code's MCP server ${name}${name === CLAUDE_MCP_SERVER ? " (the step's proxy)" : ""} is ${str(server.status) ?? "not connected"}`,
          });
        }
        return;
      }
      case "api_retry":
        onEvent({
          type: "retry",
          attempt: num(event.attempt) ?? 0,
          delayMs: num(event.retry_delay_ms) ?? 0,
          ...(num(event.error_status) === undefined ? {} : { status: num(event.error_status)! }),
          message: str(event.error) ?? "model request failed",
        });
        return;
      case "permission_denied":
        denied(str(event.tool_name) ?? "a tool", str(event.tool_use_id), str(event.message));
        return;
      default:
        return;
    }
  };

  const onAssistant = (event: Json) => {
    session(event.session_id);
    const message = isObject(event.message) ? event.message : {};
    const content = Array.isArray(message.content) ? message.content : [];
    // API failures come as a synthetic message whose text the result repeats as its error.
    const synthetic = message.model === "<synthetic>";
    const mainThread = event.parent_tool_use_id === null || event.parent_tool_use_id === undefined;
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === "text" && mainThread && !synthetic) {
        const text = str(block.text) ?? "";
        if (text === "") continue;
        summary.text += text;
        onEvent({ type: "text", text });
      } else if (block.type === "tool_use") {
        const id = str(block.id) ?? "";
        const name = str(block.name) ?? "";
        const proxied = name.startsWith(CLAUDE_TOOL_PREFIX);
        if (!proxied) nativeIds.add(id);
        onEvent({
          type: "tool_use",
          id,
          name: proxied ? name.slice(CLAUDE_TOOL_PREFIX.length) : name,
          arguments: block.input,
          ...(proxied ? {} : { native: true }),
        });
      }
    }
  };

  const onUser = (event: Json) => {
    const message = isObject(event.message) ? event.message : {};
    const content = Array.isArray(message.content) ? message.content : [];
    for (const block of content) {
      if (!isObject(block) || block.type !== "tool_result") continue;
      const id = str(block.tool_use_id) ?? "";
      onEvent({
        type: "tool_result",
        id,
        isError: block.is_error === true,
        text: resultText(block.content),
        ...(nativeIds.has(id) ? { native: true } : {}),
      });
    }
  };

  const onResult = (event: Json) => {
    session(event.session_id);
    const result: ClaudeResultEvent = {
      text: typeof event.result === "string" ? event.result : "",
      isError: event.is_error === true,
      subtype: str(event.subtype) ?? "unknown",
      errors: Array.isArray(event.errors) ? event.errors.map(String) : [],
    };
    const turns = num(event.num_turns);
    if (turns !== undefined) result.turns = turns;
    const reason = str(event.terminal_reason);
    if (reason !== undefined) result.terminalReason = reason;
    const status = num(event.api_error_status);
    if (status !== undefined) result.apiErrorStatus = status;
    summary.result = result;

    const usage = readUsage(event.usage);
    if (usage) {
      summary.usage = usage;
      onEvent({ type: "usage", ...usage, estimated: false });
    }
    const cost = num(event.total_cost_usd);
    if (cost !== undefined) {
      summary.costUsd = cost;
      onEvent({ type: "cost", usd: cost, source: "cli_estimate" });
    }
    for (const denial of Array.isArray(event.permission_denials) ? event.permission_denials : [])
      if (isObject(denial)) denied(str(denial.tool_name) ?? "a tool", str(denial.tool_use_id));

    if (result.isError)
      onEvent({
        type: "error",
        code: claudeResultCode(result),
        message: claudeResultMessage(result),
      });
    else
      onEvent({
        type: "final",
        text: result.text,
        subtype: result.subtype,
        ...(turns === undefined ? {} : { turns }),
      });
  };

  const line = (event: JsonEvent) => {
    switch (event.type) {
      case "system":
        return onSystem(event);
      case "assistant":
        return onAssistant(event);
      case "user":
        return onUser(event);
      case "result":
        return onResult(event);
      default:
        return; // rate_limit_event, stream_event and what later versions add
    }
  };

  const lines = jsonEventLines(line, {
    ...(options.maxLineChars === undefined ? {} : { maxLineChars: options.maxLineChars }),
    noise: summary,
  });
  return { push: lines.push, end: lines.end, summary };
};
