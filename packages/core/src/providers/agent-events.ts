/**
 * What an agent step reports while it runs, whichever provider drives it, for the worker to
 * stream and store: the CLI's session, text as it arrives, each tool call and its result
 * (`native` when the CLI ran a tool of its own, which the worker records with fidelity
 * `agent_reported`), usage, the CLI's cost estimate, retries, the final answer and errors.
 * Events leave a provider through `scrubEvent`, so no key ever rides along.
 */
import type { ErrorCode } from "../errors/error-codes";

/** A model request the provider (or the CLI) is about to try again. */
export type RetryNotice = { attempt: number; delayMs: number; status?: number; message: string };

export type AgentStepEvent =
  | { type: "session"; sessionId: string }
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; arguments: unknown; native?: boolean }
  | { type: "tool_result"; id: string; isError: boolean; text: string; native?: boolean }
  | {
      type: "usage";
      /** Every input token, cache writes and reads included. */
      inputTokens: number;
      outputTokens: number;
      estimated: boolean;
      cacheCreationInputTokens?: number;
      cacheReadInputTokens?: number;
    }
  /** What the CLI says the step cost at list prices: an estimate, never the metered amount. */
  | { type: "cost"; usd: number; source: "cli_estimate" }
  | ({ type: "retry" } & RetryNotice)
  | { type: "final"; text: string; turns?: number; subtype?: string }
  | { type: "error"; code: ErrorCode; message: string };

const scrubDeep = (value: unknown, scrub: (text: string) => string): unknown =>
  value === undefined ? undefined : (JSON.parse(scrub(JSON.stringify(value))) as unknown);

/** The event with every string it carries passed through `scrub`. */
export const scrubEvent = (
  event: AgentStepEvent,
  scrub: (text: string) => string,
): AgentStepEvent => {
  switch (event.type) {
    case "text":
    case "final":
    case "tool_result":
      return { ...event, text: scrub(event.text) };
    case "retry":
    case "error":
      return { ...event, message: scrub(event.message) };
    case "tool_use":
      return { ...event, name: scrub(event.name), arguments: scrubDeep(event.arguments, scrub) };
    case "session":
      return { ...event, sessionId: scrub(event.sessionId) };
    case "usage":
    case "cost":
      return event;
    default: {
      const never: never = event;
      return never;
    }
  }
};
