/**
 * What the worker's governance asks of one agent attempt (docs/governance.md): which calls it
 * allows first (a held call waits for a person's approval, a budget may refuse a call), when
 * the attempt must stop and keep its session because a held call outlasted its hold limit,
 * and, for the attempt that resumes a suspended one, where that one stood.
 */
import type { StepProxyOptions } from "./step-proxy";

export type AttemptGovernance = {
  /** Every connector call, and the built-ins listed, are allowed first by the worker. */
  gate?: NonNullable<StepProxyOptions["gate"]>;
  /** Aborted when the attempt must stop and keep its session (a held call past its hold limit). */
  suspend?: AbortSignal;
  /** How long a held call stays open before the attempt is suspended: each CLI's tool timeout goes above it. */
  holdMs?: number;
  /** The suspended attempt this one goes on from (AgentResult.suspended, as stored). */
  resume?: SuspendedState;
  /**
   * A `mode: conversation` turn: its session is kept when it ends (AgentResult.conversation);
   * `next` is the session the turn goes on from, with the person's message as its prompt.
   */
  conversation?: { next?: { state: SuspendedState; message: string } };
};

/**
 * Where a suspended attempt stood, stored sealed with the run: openai_compatible's
 * conversation (OpenAiSession), or a CLI's session id and session files with the prompt
 * that resumes it.
 */
export type SuspendedState = { kind: string; sessionId?: string; state: unknown };
