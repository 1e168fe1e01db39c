/**
 * The port every source of tools implements: the built-ins, the channel-backed connector
 * catalog, and anything added later. The router only ever talks to this shape, so a new
 * source of tools never touches the MCP server or the agent providers.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export type JsonObject = Record<string, unknown>;

/** One tool as a provider declares it; `name` is the provider's own name for it. */
export type ToolDescriptor = {
  name: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
  /** Overrides the provider's source for this tool (a catalog spans several connectors). */
  source?: string;
};

export type ToolCallContext = {
  signal: AbortSignal;
  /** The span of the call (the proxy's tools/call span): a connector call continues its trace. */
  trace?: { traceId: string; spanId: string };
};

export type ToolResult = CallToolResult;

export interface ToolProvider {
  /** `builtin`, or the connector id the tools come from; shown in records and collisions. */
  readonly source: string;
  listTools(): ToolDescriptor[];
  callTool(name: string, args: JsonObject, ctx: ToolCallContext): Promise<ToolResult>;
}

/** A readable failure the model can act on (never a JSON-RPC error). */
export const toolError = (message: string): ToolResult => ({
  content: [{ type: "text", text: message }],
  isError: true,
});

export const toolText = (text: string): ToolResult => ({ content: [{ type: "text", text }] });

/**
 * Thrown by a provider when a call fails for a reason with a code (a lane refusal, a
 * connector outage); the proxy turns it into an `isError` result and records the code.
 */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}
