/**
 * A wait for a person's answer, as the engine, the worker and the API share it. A wait is a
 * row (Wait); a run parked on it holds no worker. Kinds: `tool_call` (approve or deny one
held call, bound to its arguments' hash), `input` (the required inputs a triggered run
 * started without, filled in by a person) and `message` (a `mode: conversation` step's next
 * message from a person: `exit`, `quit` or an empty one ends the conversation) and
 * `elicitation` (a connector server's form during a tool call: accept, decline or cancel).
 */
import { z } from "zod";
import { elicitationAnswerSchema } from "./elicitation-form";

/** A tool call's answer: approve or deny. */
export const decisionAnswerSchema = z
  .object({
    decision: z.enum(["approve", "deny"]),
    /** a denial's message: the agent receives it as the tool's error */
    message: z.string().max(4000).optional(),
  })
  .strict();

/** An `input` wait's answer: a value for each input it asks for, checked as a run start's inputs are. */
export const inputsAnswerSchema = z
  .object({ inputs: z.record(z.string().max(200), z.unknown()) })
  .strict();

/** A person's next message in a conversation (a `message` wait). */
export const waitMessageSchema = z.object({ message: z.string().max(100_000) }).strict();

/** What answers a wait: a decision (tool_call), the inputs (input) or a message (message). */
export const waitAnswerSchema = z.union([
  decisionAnswerSchema,
  inputsAnswerSchema,
  waitMessageSchema,
  elicitationAnswerSchema,
]);
export type WaitAnswer = z.infer<typeof waitAnswerSchema>;
export type DecisionAnswer = z.infer<typeof decisionAnswerSchema>;

/** How long a triggered run waits for its missing inputs before it fails without them. */
export const DEFAULT_INPUT_WAIT_EXPIRY_MS = 24 * 3600_000;

/** The messages that end a conversation, as AWF reads them from a terminal: exit, quit, or nothing. */
export const endsConversation = (message: string) =>
  ["", "exit", "quit"].includes(message.trim().toLowerCase());

/** A conversation step waits this long for each next message unless its `timeout` says (AWF's 300 s per turn). */
export const DEFAULT_CONVERSATION_TURN_MS = 300_000;

/** What a conversation's `message` wait shows: the agent's reply the person answers. */
export type MessageWaitDetail = {
  state: string;
  provider: string;
  /** the turn that replied, from 1 */
  turn: number;
  /** the agent's reply, scrubbed */
  reply: string;
  /** the first user message (the step's prompt, scrubbed), on turn 1's wait */
  prompt?: string;
};

/** What expiry means: deny the call, fail the step, or take the wait's default answer. */
export type WaitExpiry = "deny" | "fail" | "default";

/** How long a held call stays open in place before its step is suspended. */
export const DEFAULT_HOLD_MS = 120_000;

/** How long a tool-call approval may wait before it expires (then `onExpiry`). */
export const DEFAULT_APPROVAL_EXPIRY_MS = 7 * 24 * 3600_000;

/** What a held tool call waits on, as the worker records it. */
export type ToolCallWaitDetail = {
  tool: string;
  /** builtin, or the connector's id */
  source: string;
  /** scrubbed, size-capped */
  arguments: unknown;
  argumentsHash: string;
  /** the rule that held it, in words, and where it was set */
  rule: string;
  ruleOrigin: "lane" | "workflow";
  /** the agent's text so far in this attempt (scrubbed, the end of it) */
  agentText: string;
  /** the step's state name and the attempt's provider */
  state: string;
  provider?: string;
};

/**
 * Thrown through the engine by a step that cannot go on until a person answers and must not
 * hold its worker meanwhile: the run is parked on the wait (its checkpoint says where it
 * resumes) and queued again when the wait is answered or expires.
 */
export class RunParked extends Error {
  constructor(
    readonly waitId: string,
    message = `waiting for a person's answer (wait ${waitId})`,
  ) {
    super(message);
    this.name = "RunParked";
  }
}

export const isRunParked = (error: unknown): error is RunParked =>
  error instanceof RunParked ||
  (error instanceof Error && error.name === "RunParked" && "waitId" in error);
