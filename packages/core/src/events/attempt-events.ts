/**
 * What happens during one agent attempt, by event name, on the attempt's event bus (made by
 * the agent executor). Subscribers: the worker's ToolCall and Span rows and the run's live
 * view (apps/worker/src/tool-call-rows.ts), `switchyard run`'s stderr
 * (packages/cli/src/local-agents.ts), and the step's own meter (runCliStep).
 */
import type { MeterEvent } from "../gateway/gateway-types";
import type { SpanRecord, ToolCallRecord } from "../mcp/call-record";
import type { AgentStepEvent } from "../providers/agent-events";
import type { EventBus, EventEmitter } from "./event-bus";

export type AttemptEvents = {
  /** The step's proxy recorded a tool call; the proxy answers the call once the subscribers' promises settle. */
  "tool.recorded": ToolCallRecord;
  /** The step's proxy ended a span of its trace. */
  "span.ended": SpanRecord;
  /** The agent reported something: text, a tool it ran itself, a retry, its final answer, an error. */
  "agent.reported": AgentStepEvent;
  /** The model gateway metered one of the CLI's model requests. */
  "model.metered": MeterEvent;
};

export type AttemptEventBus = EventBus<AttemptEvents>;

/** What a step channel sends on: the proxy's records and spans. */
export type ChannelEvents = Pick<AttemptEvents, "tool.recorded" | "span.ended">;
export type ChannelEventEmitter = EventEmitter<ChannelEvents>;
