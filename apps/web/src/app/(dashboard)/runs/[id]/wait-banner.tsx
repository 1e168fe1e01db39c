"use client";
/**
 * An open wait of a run, as a banner the person cannot miss: the question, the tool and
 * where it comes from, its arguments (scrubbed, as pretty JSON), the agent's text so far,
 * the rule that held it and who may answer; Approve and Deny (with an optional message the
 * agent receives) for those who may, and for the others who may instead. An `input` wait
 * shows its form instead (input-wait-banner.tsx), and so does a connector server's form
 * (elicitation-wait-banner.tsx). Used on the run's page and on the "Waiting
 * for you" list.
 */
import { useMutation } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { LocalTime } from "~/components/local-time";
import type { AppRouter } from "~/server/trpc/root";
import { useTRPC } from "~/trpc/react";
import { ConversationChat } from "./conversation-chat";
import { ElicitationWaitBanner } from "./elicitation-wait-banner";
import { InputWaitBanner } from "./input-wait-banner";
import { JsonBlock } from "./json-block";
import { WaitCard, WaitFrom, WaitRunLink, WaitWho } from "./wait-card";

export type WaitView = inferRouterOutputs<AppRouter>["waits"]["list"]["waits"][number];

type ToolCallDetail = {
  tool?: string;
  source?: string;
  arguments?: unknown;
  argumentsHash?: string;
  rule?: string;
  ruleOrigin?: string;
  agentText?: string;
  state?: string;
  provider?: string;
};

const detailOf = (wait: WaitView): ToolCallDetail =>
  wait.detail && typeof wait.detail === "object" ? wait.detail : {};

export function WaitBanner(props: {
  wait: WaitView;
  onAnswered: () => void;
  /** the list page: name the run and link to it */
  showRun?: boolean;
}) {
  return props.wait.kind === "input" ? (
    <InputWaitBanner {...props} />
  ) : props.wait.kind === "elicitation" ? (
    <ElicitationWaitBanner {...props} />
  ) : (
    <ToolCallBanner {...props} />
  );
}

function ToolCallBanner({
  wait,
  onAnswered,
  showRun = false,
}: {
  wait: WaitView;
  onAnswered: () => void;
  showRun?: boolean;
}) {
  const trpc = useTRPC();
  const answer = useMutation(trpc.waits.answer.mutationOptions({ onSettled: onAnswered }));
  const [denying, setDenying] = useState(false);
  const [message, setMessage] = useState("");
  const detail = detailOf(wait);
  // A conversation's turn: the reply, and its message box.
  if (wait.kind === "message")
    return (
      <>
        {showRun ? (
          <p className="small">
            <WaitRunLink wait={wait} />
          </p>
        ) : null}
        <ConversationChat waits={[wait]} onAnswered={onAnswered} />
      </>
    );
  return (
    <WaitCard wait={wait}>
      <p className="small">
        <WaitFrom wait={wait} show={showRun} />
        The agent
        {detail.state ? (
          <>
            {" "}
            in step <strong>{detail.state}</strong>
          </>
        ) : null}{" "}
        wants to call <code data-testid="wait-tool">{detail.tool ?? "a tool"}</code>
        {detail.source ? <span className="muted"> ({detail.source})</span> : null}. Waiting since{" "}
        <LocalTime value={wait.createdAt} />
        {wait.expiresAt ? (
          <>
            ; expires <LocalTime value={wait.expiresAt} /> (
            {wait.onExpiry === "fail"
              ? "the step fails"
              : wait.onExpiry === "default"
                ? "the default answer is taken"
                : "denied"}
            )
          </>
        ) : null}
        .
      </p>
      {detail.rule ? (
        <p className="small">
          Held by the rule <code>{detail.rule}</code>
          {detail.ruleOrigin ? (
            <span className="muted"> set on the {detail.ruleOrigin}</span>
          ) : null}
          .
        </p>
      ) : null}
      <JsonBlock label="Arguments" value={detail.arguments ?? {}} />
      {detail.argumentsHash ? (
        <p className="muted small">
          An approval holds for exactly these arguments (SHA-256{" "}
          <code>{detail.argumentsHash.slice(0, 16)}…</code>).
        </p>
      ) : null}
      {detail.agentText ? (
        <details open>
          <summary className="small">The agent&apos;s text so far</summary>
          <pre className="output" data-testid="wait-agent-text">
            {detail.agentText}
          </pre>
        </details>
      ) : null}
      {wait.mayAnswer ? (
        <div className="wait-actions">
          <button
            type="button"
            className="primary"
            disabled={answer.isPending}
            onClick={() => answer.mutate({ id: wait.id, decision: "approve" })}
          >
            Approve
          </button>
          {denying ? (
            <form
              className="wait-deny"
              onSubmit={(e) => {
                e.preventDefault();
                answer.mutate({
                  id: wait.id,
                  decision: "deny",
                  ...(message.trim() ? { message: message.trim() } : {}),
                });
              }}
            >
              <label>
                Message to the agent (optional)
                <textarea
                  value={message}
                  maxLength={4000}
                  rows={2}
                  onChange={(e) => setMessage(e.target.value)}
                />
              </label>
              <button type="submit" disabled={answer.isPending}>
                Deny
              </button>
              <button type="button" className="link" onClick={() => setDenying(false)}>
                Back
              </button>
            </form>
          ) : (
            <button type="button" disabled={answer.isPending} onClick={() => setDenying(true)}>
              Deny…
            </button>
          )}
        </div>
      ) : (
        <WaitWho wait={wait} />
      )}
      {answer.isError ? (
        <p className="error" role="alert">
          {answer.error.message}
        </p>
      ) : null}
    </WaitCard>
  );
}
