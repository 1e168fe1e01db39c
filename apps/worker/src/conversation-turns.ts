/**
 * AWF's `mode: conversation` in the worker: a chat on the run page instead of a terminal.
 * Each turn is one run of the step's agent; its reply opens a `message` wait (the reply as
 * its detail, the run's starter to answer) and the run parks on it, holding no worker, with
 * the agent's session stored sealed (AgentSession, as a suspension keeps it) and the
 * workspace kept as a snapshot. The person's message queues the run again; the step's
 * attempt goes on in the same row: the session resumes with the message as the next turn
 * (a CLI's own resume, openai_compatible's message history). The session a turn begins from
 * stays stored until the next one replaces it with its wait, in one transaction: a worker
 * killed during a turn leaves the turn to run again on another. `exit`, `quit` or an empty
 * message, or no message within the step's timeout (300 s unless set, per turn), end it: the
 * step succeeds with the last reply as its output, stopped by `user_exit`; the turns, tokens
 * and how it stopped are its state's `conversation`. The session goes in the statement that
 * stores that end (step-run-recorder.ts), so a worker killed before it leaves the end to the
 * next worker, which reads the same exit.
 */
import {
  DEFAULT_CONVERSATION_TURN_MS,
  endsConversation,
  RunParked,
  type MessageWaitDetail,
} from "@switchyard/core/governance";
import {
  spentOf,
  withSpentBefore,
  type SpentBefore,
  type SuspendedState,
} from "@switchyard/core/providers";
import type {
  AgentRequest,
  AgentResult,
  ConversationTurn as Said,
} from "@switchyard/core/workflow";
import {
  chatSessionUnder,
  countMessageWaits,
  openConversationTurn,
  resumableSessionOf,
  unparkedSessionWaitOf,
} from "@switchyard/db";
import { keepWorkspace, openSession, sealSession, type GovernanceDeps } from "./attempt-governance";

export type ConversationDeps = Pick<
  GovernanceDeps,
  | "db"
  | "log"
  | "keyring"
  | "teamId"
  | "runId"
  | "lane"
  | "scrubber"
  | "workspace"
  | "snapshotLimits"
  | "onWaitOpened"
>;

/** What a conversation keeps between its turns, sealed with the run. */
type Between = {
  session: SuspendedState;
  reply: string;
  /** what the turns so far spent (a CLI's turn counts only its own) */
  spent?: SpentBefore;
  /** what the whole conversation spent so far, for its end */
  total?: SpentBefore;
  /** the turns so far, scrubbed (AWF's state.conversation.turns) */
  turns?: Said[];
};

/** How a conversation's attempt begins: it ended (the person said exit), goes on, or starts. */
export type ConversationTurn =
  | { kind: "ended"; result: AgentResult }
  | {
      kind: "turn";
      next?: { state: SuspendedState; message: string };
      spent?: Between["spent"];
      /** the turns before this one's reply: the prompt or the person's message last */
      turns?: Said[];
    };

export const createConversations = (deps: ConversationDeps) => {
  const at = (request: AgentRequest) => ({
    teamId: deps.teamId,
    runId: deps.runId,
    stepKey: request.path.key,
  });

  /** Before a conversation's attempt runs: where it stands. */
  const begin = async (request: AgentRequest): Promise<ConversationTurn> => {
    const stepKey = request.path.key;
    // Its turn ended, but the worker stopped before the run was parked: it parks now.
    const unparked = await unparkedSessionWaitOf(deps.db, deps.teamId, deps.runId, stepKey);
    if (unparked) throw new RunParked(unparked);
    const found = await resumableSessionOf(deps.db, deps.teamId, deps.runId, stepKey);
    // None: the first turn. A held call's (tool_call): governance resumes the turn it stopped,
    // which goes on from the chat's session before it (none in the first turn).
    const held = found?.wait.kind === "tool_call";
    const chat = held
      ? await chatSessionUnder(deps.db, deps.teamId, deps.runId, stepKey)
      : found?.wait.kind === "message"
        ? found
        : undefined;
    if (!chat) return { kind: "turn" };
    const { session, wait } = chat;
    const between = openSession(deps.keyring, at(request), session.sealed) as Between;
    const message =
      wait.status === "answered"
        ? ((wait.answer as { message?: string } | null)?.message ?? "")
        : "";
    const turns = between.turns ?? [];
    // Its session goes with the step's end, in the statement that stores it
    // (step-run-recorder.ts): a worker stopped before then leaves the end to the next one.
    if (!held && (wait.status !== "answered" || endsConversation(message))) {
      deps.log.info("a conversation ended", {
        runId: deps.runId,
        state: request.stateName,
        by: wait.status === "answered" ? "message" : wait.status,
      });
      return {
        kind: "ended",
        result: withSpentBefore(
          {
            output: between.reply,
            exitCode: 0,
            stoppedBy: "user_exit",
            chatTurns: turns,
            ...(between.session.sessionId ? { sessionId: between.session.sessionId } : {}),
          },
          between.total ?? between.spent,
        ),
      };
    }
    return {
      kind: "turn",
      ...(held ? {} : { next: { state: between.session, message } }),
      ...(between.spent ? { spent: between.spent } : {}),
      turns: [...turns, { role: "user", content: deps.scrubber.scrub(message) }],
    };
  };

  /**
   * After a turn: a reply opens the wait for the next message and parks the run on it
   * (throws RunParked); a failed turn ends the conversation, stopped by `error`.
   */
  const afterTurn = async (
    request: AgentRequest,
    turn: Extract<ConversationTurn, { kind: "turn" }>,
    result: AgentResult,
  ): Promise<AgentResult> => {
    const { chatSession: conversation, ...whole } = result;
    const total = withSpentBefore(whole, turn.spent);
    const asked = turn.turns ?? [{ role: "user", content: deps.scrubber.scrub(request.prompt) }];
    // A failed turn's end (stopped by `error`) takes the kept session along in the statement
    // that stores it (step-run-recorder.ts), as an ended chat's does: a worker killed before
    // then leaves the chat to the next one, not a chat restarted from its prompt.
    if (!conversation || whole.error !== undefined || request.signal.aborted) {
      return { ...total, stoppedBy: "error", chatTurns: asked };
    }
    // The kept turns count a turn run again on another worker (its first one killed, so under
    // a new attempt); the attempt's waits count a turn that went on from a held call's session.
    const turnNo =
      Math.max(
        asked.filter((t) => t.role === "assistant").length,
        await countMessageWaits(deps.db, deps.teamId, request.attemptId),
      ) + 1;
    const reply = deps.scrubber.scrub(whole.output);
    const snapshot = await keepWorkspace(deps, "the conversation cannot wait for its next message");
    const detail: MessageWaitDetail = {
      state: request.stateName,
      provider: request.provider,
      turn: turnNo,
      reply,
      ...(turnNo === 1 ? { prompt: deps.scrubber.scrub(request.prompt) } : {}),
    };
    // openai_compatible's history counts its tokens itself; a CLI's turn counts only its own.
    const spent = conversation.kind === "cli" ? spentOf(total) : undefined;
    const between: Between = {
      session: conversation,
      reply,
      ...(spent ? { spent } : {}),
      total: spentOf(total),
      turns: [...asked, { role: "assistant", content: reply }],
    };
    // The wait, and the session replacing the one this turn began from, are stored at once.
    const waitId = await openConversationTurn(deps.db, {
      wait: {
        teamId: deps.teamId,
        runId: deps.runId,
        stepRunId: request.attemptId,
        question: `Conversation: ${request.stateName}`,
        detail,
        lane: deps.lane,
        expiresAt: new Date(Date.now() + (request.timeoutMs ?? DEFAULT_CONVERSATION_TURN_MS)),
      },
      session: {
        teamId: deps.teamId,
        runId: deps.runId,
        stepKey: request.path.key,
        stepRunId: request.attemptId,
        provider: request.provider,
        ...(conversation.sessionId ? { sessionId: conversation.sessionId } : {}),
        sealed: sealSession(deps.keyring, at(request), between),
        ...(snapshot?.kept ? { snapshotId: snapshot.snapshotId } : {}),
      },
    });
    deps.onWaitOpened(waitId);
    throw new RunParked(waitId);
  };

  return { begin, afterTurn };
};
