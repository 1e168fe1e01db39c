"use client";
/**
 * A `mode: conversation` step as a chat (docs/workflows.md, Conversation mode): its waits of
 * kind `message`, oldest first, give the first prompt, each agent reply and each person's
 * message; while the last one is open, those who may answer get a message box and "End
 * conversation" (which sends `exit`). Once the step ended, how it stopped (AWF's
 * `stopped_by`: user_exit or error). Shown on the run's page, one chat per run of the step,
 * across the attempt rows it went on in (chat-groups.ts).
 */
import { useMutation } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "~/server/trpc/root";
import { useTRPC } from "~/trpc/react";

type WaitView = inferRouterOutputs<AppRouter>["waits"]["list"]["waits"][number];

type MessageDetail = { state?: string; turn?: number; reply?: string; prompt?: string };

const detailOf = (wait: WaitView): MessageDetail =>
  wait.detail && typeof wait.detail === "object" ? wait.detail : {};

/** What the person said to a reply, or how the wait closed. */
const answerOf = (wait: WaitView) =>
  wait.status === "answered" ? (wait.answer?.message ?? "") : undefined;

const STOPPED: Record<string, string> = {
  user_exit: "ended by the person (exit, quit, an empty message or none in time)",
  error: "ended by an error in the agent's turn",
};

export function ConversationChat({
  waits,
  stoppedBy,
  onAnswered,
}: {
  /** one chat's message waits, in any order */
  waits: WaitView[];
  /** the step's state.conversation.stopped_by, once it ended */
  stoppedBy?: string | undefined;
  onAnswered: () => void;
}) {
  const trpc = useTRPC();
  const send = useMutation(trpc.waits.answer.mutationOptions({ onSettled: onAnswered }));
  const [text, setText] = useState("");
  const turns = [...waits].sort((a, b) => (detailOf(a).turn ?? 0) - (detailOf(b).turn ?? 0));
  const open = turns.find((w) => w.status === "open");
  const state = detailOf(turns[0]!).state ?? "the agent";
  const prompt = turns.map(detailOf).find((d) => d.prompt !== undefined)?.prompt;
  const titleId = `chat-${turns[0]!.id}-title`;
  const post = (message: string) => {
    if (!open) return;
    send.mutate({ id: open.id, message }, { onSuccess: () => setText("") });
  };
  return (
    <section
      className="card conversation"
      role="region"
      aria-labelledby={titleId}
      data-testid="conversation"
    >
      <h2 id={titleId}>Conversation: {state}</h2>
      <ol className="chat" aria-label="Messages">
        {prompt !== undefined ? (
          <li className="chat-person" data-testid="chat-prompt">
            <span className="muted small">Prompt</span>
            <pre className="output">{prompt}</pre>
          </li>
        ) : null}
        {turns.map((wait) => {
          const d = detailOf(wait);
          const said = answerOf(wait);
          return (
            <li key={wait.id} className="chat-turn">
              <div className="chat-agent" data-testid="chat-reply">
                <span className="muted small">{d.state ?? "Agent"}</span>
                <pre className="output">{d.reply ?? ""}</pre>
              </div>
              {said !== undefined ? (
                <div className="chat-person" data-testid="chat-message">
                  <span className="muted small">{wait.answeredBy?.name ?? "A person"}</span>
                  <pre className="output">{said === "" ? "(empty: ended)" : said}</pre>
                </div>
              ) : wait.status === "expired" ? (
                <p className="muted small">No message came in time: the conversation ended.</p>
              ) : null}
            </li>
          );
        })}
      </ol>
      {open && open.mayAnswer ? (
        <form
          className="chat-box"
          onSubmit={(e) => {
            e.preventDefault();
            post(text);
          }}
        >
          <label>
            Your message (exit, quit or an empty message ends the conversation)
            <textarea
              value={text}
              rows={3}
              maxLength={100_000}
              onChange={(e) => setText(e.target.value)}
              data-testid="chat-input"
            />
          </label>
          <button type="submit" className="primary" disabled={send.isPending}>
            Send
          </button>
          <button type="button" disabled={send.isPending} onClick={() => post("exit")}>
            End conversation
          </button>
        </form>
      ) : open ? (
        <p className="muted small" data-testid="chat-who">
          Waiting for a message from {open.answerers}
          {open.refusal ? `: ${open.refusal}` : ""}.
        </p>
      ) : null}
      {stoppedBy ? (
        <p className="muted small" data-testid="chat-stopped-by">
          Stopped by <code>{stoppedBy}</code>: {STOPPED[stoppedBy] ?? "the conversation ended"}.
        </p>
      ) : null}
      {send.isError ? (
        <p className="error" role="alert">
          {send.error.message}
        </p>
      ) : null}
    </section>
  );
}
