"use client";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTRPC } from "~/trpc/react";
import { foldAgentEvents, formatCost } from "./agent-transcript";
import { StepToolCalls } from "./tool-call-list";

/** The fields of a run's step entry this card reads. */
export type AgentStep = {
  id: string;
  status: string;
  provider: string | null;
  output: string;
  errorMessage: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  toolCallCount: number;
  /** The attempt's recorded request: its `options.model` names the model. */
  agentRequest?: unknown;
};

/** The worker's built-in demo model (apps/worker/src/demo-model.ts): a recorded session, labelled so. */
const DEMO_MODEL = "switchyard-demo";

const modelOf = (request: unknown): string | null => {
  const model = (request as { options?: { model?: unknown } } | null | undefined)?.options?.model;
  return typeof model === "string" ? model : null;
};

const STEP_ACTIVE = new Set(["pending", "running"]);

/**
 * What an agent step does, live: its text as it arrives, each tool call, then its answer,
 * tokens and cost. The run page invalidates the activity on every pushed update; when the
 * stream is down it polls while the step runs.
 */
export function AgentActivity({
  runId,
  step,
  live,
}: {
  runId: string;
  step: AgentStep;
  live: boolean;
}) {
  const trpc = useTRPC();
  const active = STEP_ACTIVE.has(step.status);
  const activity = useQuery({
    // The calls come a page at a time from StepToolCalls, not with the activity.
    ...trpc.runs.stepActivity.queryOptions({ runId, stepRunId: step.id, toolCallLimit: 0 }),
    refetchInterval: active && !live ? 1000 : false,
  });
  const { refetch } = activity;
  // What the step recorded as it ended may come with the update that ended it: read again then.
  const wasActive = useRef(active);
  useEffect(() => {
    if (wasActive.current && !active) void refetch();
    wasActive.current = active;
  }, [active, refetch]);

  if (activity.isPending) return <p className="muted small">Loading the agent's activity…</p>;
  if (activity.isError) return <p className="error small">{activity.error.message}</p>;
  const a = activity.data;
  const t = foldAgentEvents(a.events);
  const inputTokens = step.inputTokens ?? t.usage?.inputTokens ?? null;
  const outputTokens = step.outputTokens ?? t.usage?.outputTokens ?? null;
  const estimated = step.inputTokens === null && t.usage?.estimated === true;
  const answer = t.final ?? (step.status === "succeeded" ? step.output || null : null);
  const errors = t.errors.filter((e) => e.message !== step.errorMessage);
  const lastRetry = t.retries.at(-1);
  const quiet = t.messages.length === 0 && step.toolCallCount === 0 && answer === null;
  const model = modelOf(step.agentRequest);
  return (
    <div className="agent" data-testid="agent-activity">
      {model === DEMO_MODEL ? (
        <p className="small" data-testid="demo-model">
          <span className="badge badge-demo">demo model</span> Switchyard&apos;s built-in demo model
          played a recorded session: no vendor, no key, no cost. Choose a real model in{" "}
          <Link href="/settings/models">Settings → Models</Link>.
        </p>
      ) : null}
      <p className="agent-meta muted small">
        agent · {step.provider ?? "–"}
        {model ? <> · model {model}</> : null} · tokens{" "}
        <span data-testid="agent-tokens">
          {inputTokens ?? "–"} in / {outputTokens ?? "–"} out{estimated ? " (estimated)" : ""}
        </span>{" "}
        · cost <span data-testid="agent-cost">{formatCost(step.costUsd)}</span> ·{" "}
        {step.toolCallCount.toLocaleString("en")} tool calls
      </p>
      {a.eventsTruncated ? <p className="muted small">Earlier text is not shown.</p> : null}
      {t.messages.map((m, i) => (
        <div key={i} className="agent-text" data-testid="agent-text">
          {m}
        </div>
      ))}
      {lastRetry ? (
        <p className="warn small" data-testid="agent-retry">
          Model request retried {t.retries.length}× ({lastRetry.status ?? "no status"}:{" "}
          {lastRetry.message})
        </p>
      ) : null}
      <StepToolCalls
        runId={runId}
        stepRunId={step.id}
        count={step.toolCallCount}
        active={active}
        live={live}
        version={activity.dataUpdatedAt}
      />
      {answer !== null ? (
        <div className="agent-answer" data-testid="agent-answer">
          <div className="muted small">Answer</div>
          {answer}
        </div>
      ) : null}
      {errors.map((e, i) => (
        <p key={i} className="error small">
          <code>{e.code}</code> {e.message}
        </p>
      ))}
      {quiet && active ? <p className="muted small">Waiting for the agent…</p> : null}
    </div>
  );
}
