/**
 * What the openai_compatible driver needs from the step's MCP proxy (`switchyard mcp-serve`):
 * the tool list, calls, and word when the list changes (tool_search activates tools). The
 * worker connects an SDK `Client` to the sandboxed proxy and wraps it with
 * `toolProxyFromClient`; nothing else of MCP leaks into the driver.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

export type ProxyTool = {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
};

export type ProxyToolResult = { content?: unknown; structuredContent?: unknown; isError?: boolean };

export type ToolProxy = {
  /** Every active tool (all pages). */
  listTools(signal?: AbortSignal): Promise<ProxyTool[]>;
  /** Aborting the signal cancels the call on the proxy (`notifications/cancelled`). */
  callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    /** Sent as the request's `params._meta` (a `traceparent` makes the proxy's span a child of the caller's). */
    meta?: Record<string, string>,
  ): Promise<ProxyToolResult>;
  /** Called on `notifications/tools/list_changed`; returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void;
};

/** Longer than the proxy's own cap on a Bash command (600 s), so the proxy decides. */
const DEFAULT_CALL_TIMEOUT_MS = 11 * 60_000;
/** A proxy serves pages of 100; a list that never ends is the proxy's bug, not a reason to hang. */
const MAX_PAGES = 100;

/**
 * Runs `fn` with a signal of its own that follows `signal`: the SDK never removes the abort
 * listener it adds per request, so a step-long signal would collect one per call (and, once
 * aborted, cancel every request it ever made).
 */
const withOwnSignal = async <T>(
  signal: AbortSignal | undefined,
  fn: (own: AbortSignal) => Promise<T>,
): Promise<T> => {
  const own = new AbortController();
  const forward = () => own.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener("abort", forward, { once: true });
  try {
    return await fn(own.signal);
  } finally {
    signal?.removeEventListener("abort", forward);
  }
};

/**
 * Wraps a connected SDK client. It takes over the client's `tools/list_changed` handler
 * (do not also configure the client's own `listChanged.tools`).
 */
export const toolProxyFromClient = (
  client: Client,
  options: { callTimeoutMs?: number } = {},
): ToolProxy => {
  const listeners = new Set<() => void>();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    for (const listener of [...listeners]) listener();
  });
  return {
    async listTools(signal) {
      const tools: ProxyTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const params = cursor === undefined ? {} : { cursor };
        const result = await withOwnSignal(signal, (own) =>
          client.listTools(params, { signal: own }),
        );
        for (const t of result.tools)
          tools.push({
            name: t.name,
            ...(t.description === undefined ? {} : { description: t.description }),
            inputSchema: t.inputSchema,
          });
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
      return tools;
    },
    async callTool(name, args, signal, meta) {
      const result = await withOwnSignal(signal, (own) =>
        client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }, undefined, {
          signal: own,
          timeout: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
        }),
      );
      return result as ProxyToolResult;
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const str = (v: unknown) => (typeof v === "string" ? v : "");

const blockText = (block: unknown): string => {
  if (!isObject(block)) return "";
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "resource": {
      const resource = isObject(block.resource) ? block.resource : {};
      if (typeof resource.text === "string") return resource.text;
      return `[resource ${str(resource.uri)} omitted]`;
    }
    case "resource_link":
      return `[resource ${str(block.uri)}]`;
    default:
      return `[${str(block.type) || "content"}${typeof block.mimeType === "string" ? ` ${block.mimeType}` : ""} omitted]`;
  }
};

/** A tool result as the text a `role: tool` message carries: text blocks joined, else the structured content's JSON. */
export const toolResultText = (result: ProxyToolResult): string => {
  const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const text = blocks
    .map(blockText)
    .filter((t) => t !== "")
    .join("\n");
  if (text !== "") return text;
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return "(no output)";
};
