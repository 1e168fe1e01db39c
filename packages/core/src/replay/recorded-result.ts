/**
 * A recorded call's result as the replayed agent gets it: the stored tools/call result with
 * its `isError` as recorded. A result the record could not keep whole (capped to a preview,
 * or none, as for an unknown tool) comes back as its JSON text, so the agent still gets what
 * was stored.
 */
import type { ToolResult } from "../tools";
import type { RecordedCall } from "./replay-book";

const isToolResult = (value: unknown): value is ToolResult =>
  typeof value === "object" &&
  value !== null &&
  Array.isArray((value as { content?: unknown }).content);

export const recordedResult = (call: RecordedCall): ToolResult => {
  const { result } = call;
  const base: ToolResult = isToolResult(result)
    ? result
    : { content: [{ type: "text", text: JSON.stringify(result ?? null) }] };
  const { isError: _isError, ...rest } = base;
  return call.isError ? { ...rest, isError: true } : rest;
};
