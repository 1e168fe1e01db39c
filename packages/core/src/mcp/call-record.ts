/**
 * The shape of what the proxy reports about each tools/call: the record the worker stores
 * and the span it exports. Field names are snake_case because they cross a process
 * boundary as JSON (the step channel or the record file).
 */
export type ToolCallRecord = {
  type: "tool_call";
  tool: string;
  /** `builtin`, `proxy` (tool_search, call_tool, unknown tools) or the connector id. */
  source: string;
  fidelity: "proxy";
  /** Set when the call arrived through call_tool; `arguments` are then the target's own. */
  via?: "call_tool";
  arguments: unknown;
  result: unknown;
  /**
   * Set when the result's text was over the proxy's cap: its full size in UTF-8 bytes and
   * the file, relative to root_dir, that keeps it (null when it could not be written).
   */
  result_cut?: { bytes: number; file: string | null };
  is_error: boolean;
  /** null on success; `tool_error`, `cancelled`, `unknown_tool`, `exception`, or a code such as USER.MCP_PROXY.LANE_DENIED. */
  error_type: string | null;
  started_at: string;
  duration_ms: number;
  jsonrpc_id: string | number;
  protocol_version: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  /**
   * In a replay, how the call was answered: from the recording, run live (a built-in with no
   * recording left, when the replay allows it) or with no recording left (a tool error).
   * Unset for what the proxy answers itself (tool_search, unknown tools).
   */
  replay?: ReplayMark;
};

export type ReplayMark = "recorded" | "live" | "unmatched";

export type SpanAttributes = Record<string, string | number | boolean>;

export type SpanRecord = {
  name: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  kind: "server";
  start_time_unix_nano: string;
  end_time_unix_nano: string;
  attributes: SpanAttributes;
  status: "ok" | "error";
};

/** Where records and spans go: the step channel, or a JSONL file when run by hand. */
export interface RecordSink {
  /** A promise of it settles once the record is stored, where the sink can tell (the step channel's worker). */
  record(record: ToolCallRecord): unknown;
  span(span: SpanRecord): void;
  close(): Promise<void>;
}
