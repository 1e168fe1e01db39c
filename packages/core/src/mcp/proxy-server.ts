/**
 * The MCP server side of the proxy: tools/list (paginated, only active tools), tools/call
 * routed through the ToolRouter, tool search, long results cut with their full text kept in
 * the workspace, and a record for every call, whatever its outcome. Protocol errors stay
 * McpError; tool failures are `isError` results. Clients of the 2025 revisions and of
 * 2026-07-28 (stateless, through the era bridge) are both served. In a replay every routed
 * call (a built-in or a connector tool, call_tool's target) is answered over the step
 * channel from the recording instead of run (replay-call.ts); tool_search stays here.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import {
  CALL_TOOL,
  META_TOOLS,
  TOOL_SEARCH,
  ToolFailure,
  toolError,
  toolText,
  type JsonObject,
  type RoutedTool,
  type ToolResult,
  type ToolRouter,
  type ToolSearch,
} from "../tools";
import { adaptResult, adaptTool } from "./adapt-result";
import type { ReplayMark } from "./call-record";
import type { CallReporter } from "./call-reporter";
import { bridgeEras, MODERN_PROTOCOL_VERSIONS } from "./era-bridge";
import type { Redactor } from "./redact";
import { failedTool, replayCall, type ProxyReplay } from "./replay-call";
import type { ResultCap, ResultCut } from "./result-cap";

const TOOLS_PAGE_SIZE = 100;
const CAPABILITIES = { tools: { listChanged: true } };

/** How long a call's answer waits for its record to be stored, when the worker does not confirm it. */
const RECORD_WAIT_MS = 5000;

type ProxyServerDeps = {
  /**
   * How long a call's answer waits for its record to be stored.
   * @default RECORD_WAIT_MS (5 s)
   */
  recordWaitMs?: number;
  router: ToolRouter;
  search: ToolSearch;
  reporter: CallReporter;
  redactor: Redactor;
  name: string;
  version: string;
  /**
   * Tools per page of a tools/list answer.
   * @default TOOLS_PAGE_SIZE (100)
   */
  pageSize?: number;
  /** Cuts long result text for the agent and keeps it whole in the workspace. */
  resultCap?: ResultCap;
  /** Set in a replay: routed calls are answered from the recording, over the step channel. */
  replay?: ProxyReplay;
  /**
   * Built-ins the worker allows first, call by call (held for approval, counted against a
   * budget): `ask` resolves when the call may run and throws a ToolFailure when it may not.
   */
  gate?: {
    tools: ReadonlySet<string>;
    ask: (tool: string, args: JsonObject, signal: AbortSignal) => Promise<void>;
  };
};

type Resolved = {
  result: ToolResult;
  tool: string;
  source: string;
  via?: "call_tool";
  /** What the tool was called with: call_tool's target arguments, not its own. */
  arguments?: JsonObject;
  errorType: string | null;
  replay?: ReplayMark;
};

const asObject = (value: unknown): JsonObject =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : {};

const toMcpTool = (
  t: Pick<RoutedTool, "name" | "description" | "inputSchema" | "outputSchema" | "annotations">,
): Tool =>
  ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    ...(t.annotations ? { annotations: t.annotations } : {}),
  }) as Tool;

export class ProxyServer {
  readonly server: Server;
  private protocolVersion: string = LATEST_PROTOCOL_VERSION;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: ProxyServerDeps) {
    this.server = new Server(
      { name: deps.name, version: deps.version },
      { capabilities: CAPABILITIES },
    );
    this.server.setRequestHandler(ListToolsRequestSchema, (request) =>
      this.listTools(request.params?.cursor),
    );
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const call = this.callTool(
        request.params.name,
        asObject(request.params.arguments),
        extra.signal,
        extra.requestId,
        request.params._meta?.traceparent,
      );
      this.inFlight.add(call);
      void call.finally(() => this.inFlight.delete(call)).catch(() => undefined);
      return call;
    });
  }

  /**
   * Lets in-flight calls finish for up to `graceMs` (their replies still go out), then closes
   * the server, which aborts the rest, and waits for them and their records.
   */
  async close(graceMs = 0): Promise<void> {
    if (graceMs > 0 && this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.inFlight]),
        new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    await this.server.close();
    await Promise.allSettled([...this.inFlight]);
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** Connects through the era bridge, which tells the protocol version each request is made in. */
  async connect(transport: Transport): Promise<void> {
    const bridged = bridgeEras(transport, {
      serverInfo: { name: this.deps.name, version: this.deps.version },
      capabilities: CAPABILITIES,
      onVersion: (requested) => {
        // As `initialize` answers: the version asked for when known, else the latest.
        const known = [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS];
        this.protocolVersion = known.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
      },
    });
    await this.server.connect(bridged);
  }

  get negotiatedVersion(): string {
    return this.protocolVersion;
  }

  private visibleTools(): Tool[] {
    const { search } = this.deps;
    const tools = search.visible().map(toMcpTool);
    if (search.enabled) tools.push(...META_TOOLS.map((m) => toMcpTool(m)));
    return tools.map((t) => adaptTool(t, this.protocolVersion));
  }

  private listTools(cursor: string | undefined): { tools: Tool[]; nextCursor?: string } {
    const all = this.visibleTools();
    const size = this.deps.pageSize ?? TOOLS_PAGE_SIZE;
    let start = 0;
    if (cursor !== undefined) {
      start = /^\d+$/.test(cursor) ? Number(cursor) : NaN;
      if (!Number.isSafeInteger(start) || start > all.length)
        throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
    }
    const page = all.slice(start, start + size);
    return start + size < all.length
      ? { tools: page, nextCursor: String(start + size) }
      : { tools: page };
  }

  private async callTool(
    name: string,
    args: JsonObject,
    signal: AbortSignal,
    requestId: string | number,
    metaTraceparent: unknown,
  ): Promise<ToolResult> {
    const startedAtMs = Date.now();
    const t0 = performance.now();
    const { traceId, spanId, parentSpanId } = this.deps.reporter.spanOf(metaTraceparent);
    let resolved: Resolved | undefined;
    let unknown: McpError | undefined;
    try {
      resolved = await this.resolveCall(name, args, signal, { traceId, spanId });
    } catch (error) {
      if (error instanceof McpError) unknown = error;
      else
        resolved = {
          result: toolError(`${name} failed: ${(error as Error).message}`),
          tool: name,
          source: "proxy",
          errorType: "exception",
        };
    }
    const durationMs = performance.now() - t0;
    const adapted = resolved
      ? adaptResult(this.deps.redactor.secrets(resolved.result), this.protocolVersion)
      : undefined;
    let result = adapted;
    let resultCut: ResultCut | undefined;
    if (adapted && this.deps.resultCap)
      ({ result, cut: resultCut } = await this.deps.resultCap.apply(adapted, spanId));
    const errorType = signal.aborted ? "cancelled" : resolved ? resolved.errorType : "unknown_tool";
    const outcome = {
      tool: resolved?.tool ?? name,
      source: resolved?.source ?? "proxy",
      ...(resolved?.via ? { via: resolved.via } : {}),
      arguments: resolved?.arguments ?? args,
      result,
      ...(resultCut ? { resultCut } : {}),
      isError: unknown !== undefined || result?.isError === true || signal.aborted,
      errorType,
      startedAtMs,
      durationMs,
      jsonrpcId: requestId,
      protocolVersion: this.protocolVersion,
      spanId,
      ...(parentSpanId ? { parentSpanId } : {}),
      ...(resolved?.replay ? { replay: resolved.replay } : {}),
    };
    // Answered once its record is stored (bounded by recordWaitMs): a worker that dies right
    // after can have lost no call the agent saw.
    const stored = this.deps.reporter.emit(outcome).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      stored,
      new Promise(
        (resolve) => (timer = setTimeout(resolve, this.deps.recordWaitMs ?? RECORD_WAIT_MS)),
      ),
    ]);
    clearTimeout(timer);
    if (unknown) throw unknown;
    return result!;
  }

  private async resolveCall(
    name: string,
    args: JsonObject,
    signal: AbortSignal,
    trace?: { traceId: string; spanId: string },
  ): Promise<Resolved> {
    const { search, router } = this.deps;
    if (search.enabled && name === TOOL_SEARCH) {
      const query = typeof args.query === "string" ? args.query : "";
      if (!query.trim())
        return {
          result: toolError("tool_search needs a non-empty query"),
          tool: name,
          source: "proxy",
          errorType: "tool_error",
        };
      const limit = typeof args.limit === "number" ? args.limit : 5;
      const { matches, changed } = search.search(query, limit);
      if (changed) await this.server.sendToolListChanged();
      const text =
        matches.length === 0
          ? `No tools match "${query}".`
          : JSON.stringify({ tools: matches }, null, 1);
      return {
        result: { ...toolText(text), structuredContent: { tools: matches } },
        tool: name,
        source: "proxy",
        errorType: null,
      };
    }
    let via: "call_tool" | undefined;
    let target = name;
    let targetArgs = args;
    if (search.enabled && name === CALL_TOOL) {
      via = "call_tool";
      target = typeof args.name === "string" ? args.name : "";
      targetArgs = asObject(args.arguments);
    }
    const tool = router.get(target);
    if (!tool || !search.isActive(target)) {
      const hint = search.enabled ? " (use tool_search to find and activate tools)" : "";
      if (via)
        return {
          result: toolError(`Unknown or inactive tool: ${target}${hint}`),
          tool: target || name,
          source: "proxy",
          via,
          arguments: targetArgs,
          errorType: "unknown_tool",
        };
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}${hint}`);
    }
    const called = {
      tool: target,
      source: tool.source,
      ...(via ? { via } : {}),
      arguments: targetArgs,
    };
    const run = () => router.call(tool, targetArgs, { signal, ...(trace ? { trace } : {}) });
    const { gate } = this.deps;
    const gated = gate !== undefined && tool.source === "builtin" && gate.tools.has(target);
    if (this.deps.replay)
      // A built-in run live in a replay is allowed first like any other.
      return {
        ...called,
        ...(await replayCall(this.deps.replay, tool, targetArgs, signal, async () => {
          if (gated) await gate.ask(target, targetArgs, signal);
          return run();
        })),
      };
    try {
      if (gated) await gate.ask(target, targetArgs, signal);
      const result = await run();
      return { ...called, result, errorType: result.isError ? "tool_error" : null };
    } catch (error) {
      if (error instanceof ToolFailure) return { ...called, ...failedTool(error) };
      throw error;
    }
  }
}
