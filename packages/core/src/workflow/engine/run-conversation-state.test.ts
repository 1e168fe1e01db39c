/**
 * A `mode: conversation` step's `state.conversation` (AWF's session_id, turns, total_turns,
 * total_tokens, stopped_by): recorded in the state and its attempt's end, and read by later
 * steps with AWF's spellings (`Conversation.StoppedBy` or `conversation.stopped_by`).
 */
import { describe, expect, it } from "vitest";
import { runYaml } from "@switchyard/testing/workflow";
import type { AgentResult, AttemptFinished, StepRecorder } from "../model/engine-ports";

const chat = (next: string) => `
name: chat
states:
  initial: chat
  chat:
    mode: conversation
    prompt: tell me
    type: agent
    on_failure: failed
    provider: openai_compatible
    on_success: ${next}
  report:
    type: step
    command: "echo {{.states.chat.Conversation.StoppedBy}} {{.states.chat.conversation.total_turns}} {{.states.chat.conversation.turns.2.content}} {{.states.chat.Conversation.session_id}}"
    on_success: done
  failed:
    type: step
    command: "echo {{.states.chat.conversation.stopped_by}}"
    on_success: done
  done: { type: terminal }
`;

const recorder = (ends: AttemptFinished[]): StepRecorder => ({
  attemptStarted: async () => ({ id: `a${ends.length}` }),
  attemptFinished: async (_h, end) => {
    ends.push(end);
  },
});

describe("a conversation step's state", () => {
  it("keeps the chat's turns, tokens and stopped_by for later steps and the attempt's record", async () => {
    const ends: AttemptFinished[] = [];
    const result: AgentResult = {
      output: "reply two",
      sessionId: "sess-1",
      tokensUsed: 42,
      stoppedBy: "user_exit",
      chatTurns: [
        { role: "user", content: "tell me" },
        { role: "assistant", content: "reply one" },
        { role: "user", content: "more" },
        { role: "assistant", content: "reply two" },
      ],
    };
    const { outcome } = await runYaml(chat("report"), {
      agents: { execute: async () => result },
      recorder: recorder(ends),
    });
    expect(outcome.status).toBe("succeeded");
    const state = {
      session_id: "sess-1",
      turns: result.chatTurns,
      total_turns: 4,
      total_tokens: 42,
      stopped_by: "user_exit",
      provider: "openai_compatible",
    };
    expect(outcome.checkpoint.results.chat?.conversation).toEqual(state);
    expect(outcome.checkpoint.results.report?.output).toBe("user_exit 4 more sess-1");
    expect(ends[0]?.conversation).toEqual(state);
  });

  it("says error when the conversation's turn failed", async () => {
    const { outcome } = await runYaml(chat("report"), {
      agents: {
        execute: async () => ({ output: "", error: "the model failed", stoppedBy: "error" }),
      },
    });
    expect(outcome.checkpoint.results.chat?.conversation).toMatchObject({
      stopped_by: "error",
      turns: [{ role: "user", content: "tell me" }],
      total_turns: 1,
    });
    expect(outcome.checkpoint.results.failed?.output).toBe("error");
  });

  it("takes the recorded state of an attempt that ended before a resume", async () => {
    const recorded = {
      session_id: "",
      turns: [{ role: "user" as const, content: "tell me" }],
      total_turns: 1,
      total_tokens: 3,
      stopped_by: "user_exit" as const,
      provider: "openai_compatible",
    };
    const { outcome } = await runYaml(chat("report"), {
      agents: {
        execute: () => {
          throw new Error("an attempt that ended is not run again");
        },
      },
      recorder: {
        ...recorder([]),
        earlier: () => ({
          status: "succeeded",
          exitCode: 0,
          stdout: "r",
          stderr: "",
          output: "r",
          conversation: recorded,
        }),
      },
    });
    expect(outcome.checkpoint.results.chat?.conversation).toEqual(recorded);
  });

  it("gives a session-tracked step that succeeded no stopped_by, as AWF records it", async () => {
    const { outcome } = await runYaml(
      `
name: seed
states:
  initial: seed
  seed:
    type: agent
    provider: openai_compatible
    prompt: remember
    conversation: {}
    on_success: done
  done: { type: terminal }
`,
      { agents: { execute: async () => ({ output: "stored", sessionId: "s-1" }) } },
    );
    expect(outcome.status).toBe("succeeded");
    const state = outcome.checkpoint.results.seed?.conversation;
    expect(state).toMatchObject({ session_id: "s-1", total_turns: 2 });
    expect(state).not.toHaveProperty("stopped_by");
  });
});
