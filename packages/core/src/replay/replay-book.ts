/**
 * The recorded tool calls a replay answers from. A recording answers a call with the same
 * tool and the same arguments in RFC 8785 canonical form, each recording once, in recorded
 * order per (tool, arguments). Nothing else is compared, so after a first divergence (a call
 * the recording does not have, or calls in another order) matching goes on the same way.
 */
import type { CatalogEntry } from "../tools";
import { canonicalJson } from "./canonical-json";

/** One call of the attempt a replay runs again, as its ToolCall row holds it (fidelity `proxy`). */
export type RecordedCall = { tool: string; arguments: unknown; result: unknown; isError: boolean };

/**
 * What a replayed attempt is answered from: its recordings in the order they started, and what
 * a call with no recording left gets: a tool error, or (`live_builtins`) a built-in run live in
 * the sandbox; a connector tool never runs live.
 */
export type ReplayPlan = {
  recordings: readonly RecordedCall[];
  unmatched: "error" | "live_builtins";
  /**
   * The connector tools the proxy lists (name, description, schemas), as the recorded attempt
   * had them: connectors are not opened in a replay, so their tools come from here.
   */
  catalog?: readonly CatalogEntry[];
};

export type ReplayBook = {
  /** The next unused recording of this tool with these arguments, taken; undefined when none is left. */
  take(tool: string, args: unknown): RecordedCall | undefined;
};

/** A key no two (tool, arguments) pairs share: the tool's name cannot hold a NUL. */
const keyOf = (tool: string, args: unknown) => `${tool}\u0000${canonicalJson(args ?? {})}`;

/** A book over `recordings` (in recorded order); each is taken once. */
export const createReplayBook = (recordings: readonly RecordedCall[]): ReplayBook => {
  const queues = new Map<string, RecordedCall[]>();
  for (const call of recordings) {
    let key: string;
    try {
      key = keyOf(call.tool, call.arguments);
    } catch {
      // A recording JSON cannot hold (it came from JSON, so never): no call can match it.
      continue;
    }
    const queue = queues.get(key);
    if (queue) queue.push(call);
    else queues.set(key, [call]);
  }
  return {
    take: (tool, args) => queues.get(keyOf(tool, args))?.shift(),
  };
};
