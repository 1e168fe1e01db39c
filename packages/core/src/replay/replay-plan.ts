/**
 * The replay plan of a recorded attempt, from its ToolCall rows: the calls the proxy made
 * (fidelity `proxy`; a CLI's own tools and what the proxy answered itself, tool_search and
 * unknown tools, are not recordings) in the order given (startedAt), and the connector tools
 * to list, since a replay opens no connector to ask. A connector tool the stored catalog
 * (when the caller has one) does not describe is listed by name, with an open schema.
 */
import type { CatalogEntry } from "../tools";
import type { RecordedCall, ReplayPlan } from "./replay-book";

/** The fields of a ToolCall row a plan is made of. */
export type RecordedCallRow = {
  toolName: string;
  source: string;
  connectorId: string | null;
  fidelity: string;
  arguments: unknown;
  result: unknown;
  isError: boolean;
};

const NOT_RECORDINGS = new Set(["proxy", "agent"]);

/** The plan that replays the attempt whose proxy calls are `rows`, in the order they started. */
export const replayPlanOf = (
  rows: readonly RecordedCallRow[],
  unmatched: ReplayPlan["unmatched"],
  described: readonly CatalogEntry[] = [],
): ReplayPlan => {
  const calls = rows.filter((r) => r.fidelity === "proxy" && !NOT_RECORDINGS.has(r.source));
  const recordings: RecordedCall[] = calls.map((r) => ({
    tool: r.toolName,
    arguments: r.arguments,
    result: r.result,
    isError: r.isError,
  }));
  const catalog = new Map(described.map((e) => [e.name, e]));
  for (const r of calls)
    if (r.connectorId && !catalog.has(r.toolName))
      catalog.set(r.toolName, {
        name: r.toolName,
        description: "",
        connector: r.connectorId,
        tool: r.toolName,
      });
  return { recordings, unmatched, catalog: [...catalog.values()] };
};
