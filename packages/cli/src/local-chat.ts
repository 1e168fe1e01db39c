/**
 * AWF's `mode: conversation` for `switchyard run`: a chat in the terminal. The step's prompt is
 * the first turn; each reply is printed on stdout, then the person's next message is read
 * after a `> ` prompt (chat-input.ts) and the agent's kept session goes on with it (a CLI's
 * own resume, openai_compatible's message history), as a turn on the server goes on from
 * the person's message on the run page. `exit`, `quit`, an empty line, the end of input or
 * no message within the step's timeout (300 s unless set, for each turn) end it: the step
 * succeeds with the last reply as its output, stopped by `user_exit`. A turn that fails or
 * runs past the timeout ends it stopped by `error`.
 */
import { DEFAULT_CONVERSATION_TURN_MS, endsConversation } from "@switchyard/core/governance";
import {
  spentOf,
  withSpentBefore,
  type SpentBefore,
  type SuspendedState,
} from "@switchyard/core/providers";
import type { Scrubber } from "@switchyard/core/secrets";
import type { AgentRequest, AgentResult, ConversationTurn } from "@switchyard/core/workflow";
import type { ChatInput } from "./chat-input";
import type { Io } from "./validate-command";

/** The session a turn goes on from, with the person's message as its prompt. */
export type ChatNext = { state: SuspendedState; message: string };

export type LocalChatDeps = {
  /** Runs one turn of the agent: the first when `next` is unset. */
  turn: (request: AgentRequest, next: ChatNext | undefined) => Promise<AgentResult>;
  input: ChatInput;
  io: Io;
  scrubber: Scrubber;
};

const timedOut = (signal: AbortSignal) =>
  (signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError";

export const runLocalChat = async (
  request: AgentRequest,
  deps: LocalChatDeps,
): Promise<AgentResult> => {
  const { io, scrubber } = deps;
  const perTurnMs = request.timeoutMs ?? DEFAULT_CONVERSATION_TURN_MS;
  let turns: ConversationTurn[] = [{ role: "user", content: scrubber.scrub(request.prompt) }];
  let next: ChatNext | undefined;
  let spent: SpentBefore | undefined;
  for (;;) {
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(perTurnMs)]);
    const { chatSession, ...result } = await deps.turn({ ...request, signal }, next);
    const total = withSpentBefore(result, spent);
    if (!request.signal.aborted && signal.aborted && timedOut(signal))
      return {
        ...total,
        error: `the conversation's turn ${turns.filter((t) => t.role === "assistant").length + 1} timed out after ${perTurnMs} ms`,
        errorCode: "EXECUTION.TIMEOUT",
        stoppedBy: "error",
        chatTurns: turns,
      };
    if (!chatSession || result.error !== undefined || request.signal.aborted)
      return { ...total, stoppedBy: "error", chatTurns: turns };
    const reply = scrubber.scrub(result.output);
    io.out(reply.endsWith("\n") ? reply : `${reply}\n`);
    turns = [...turns, { role: "assistant", content: reply }];
    const message = await deps.input.read(
      "> ",
      AbortSignal.any([request.signal, AbortSignal.timeout(perTurnMs)]),
    );
    if (message === undefined || endsConversation(message))
      return {
        ...total,
        exitCode: 0,
        stoppedBy: "user_exit",
        chatTurns: turns,
        ...(chatSession.sessionId ? { sessionId: chatSession.sessionId } : {}),
      };
    turns = [...turns, { role: "user", content: scrubber.scrub(message) }];
    next = { state: chatSession, message };
    // openai_compatible's history counts its tokens itself; a CLI's turn counts only its own.
    spent = chatSession.kind === "cli" ? spentOf(total) : undefined;
  }
};
