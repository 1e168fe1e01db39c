/**
 * What an openai_compatible step reports while it runs, for the worker to stream and store:
 * text as it arrives, each tool call and its result, usage per model turn, retries, the
 * final answer. Events leave the driver through `scrubEvent`, so no key ever rides along.
 */
import type { RetryNotice } from "./post-chat-completion";

export type AgentStepEvent =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; arguments: unknown }
  | { type: "tool_result"; id: string; isError: boolean; text: string }
  | { type: "usage"; inputTokens: number; outputTokens: number; estimated: boolean }
  | ({ type: "retry" } & RetryNotice)
  | { type: "final"; text: string };

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
      return { ...event, message: scrub(event.message) };
    case "tool_use":
      return {
        ...event,
        arguments:
          event.arguments === undefined
            ? undefined
            : (JSON.parse(scrub(JSON.stringify(event.arguments))) as unknown),
      };
    case "usage":
      return event;
    default: {
      const never: never = event;
      return never;
    }
  }
};
