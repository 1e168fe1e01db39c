"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import Link from "next/link";
import { StatusBadge } from "~/components/status-badge";
import { useTRPC } from "~/trpc/react";
import { AgentActivity } from "./agent-activity";
import { coalesceRefresh } from "./coalesce-refresh";

const ACTIVE = new Set(["queued", "running"]);
const STEP_DONE = new Set(["succeeded", "failed", "skipped", "cancelled"]);

const duration = (from?: Date | null, to?: Date | null) => {
  if (!from) return "–";
  const ms = (to ?? new Date()).getTime() - from.getTime();
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
};

export function RunView({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cancel = useMutation(
    trpc.runs.cancel.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey({ id }) }),
    }),
  );
  // Live while the event stream is open: workers announce every change; polling is only
  // the fallback when the stream is down.
  const [live, setLive] = useState(false);
  const getOptions = trpc.runs.get;
  const activityOptions = trpc.runs.stepActivity;
  useEffect(() => {
    const source = new EventSource(`/api/runs/${id}/events`);
    const refresh = coalesceRefresh(() =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getOptions.queryKey({ id }) }),
        // Only the agent steps still going: a finished one's activity does not change.
        queryClient.invalidateQueries({
          queryKey: activityOptions.pathKey(),
          predicate: (q) => !STEP_DONE.has((q.state.data as { status?: string } | undefined)?.status ?? ""),
        }),
      ]),
    );
    source.addEventListener("ready", () => setLive(true));
    source.addEventListener("update", refresh);
    source.onerror = () => setLive(false);
    return () => source.close();
  }, [id, queryClient, getOptions, activityOptions]);
  const run = useQuery({
    ...trpc.runs.get.queryOptions({ id }),
    refetchInterval: (q) => (q.state.data && !ACTIVE.has(q.state.data.status) ? false : live ? false : 1000),
  });
  if (run.isPending) return <p className="muted">Loading…</p>;
  if (run.isError) return <p className="error">{run.error.message}</p>;
  const r = run.data;
  return (
    <>
      <p className="muted small">
        <Link href="/workflows">Workflows</Link> / {r.workflow.name}
      </p>
      <h1>
        Run of {r.workflow.name} <StatusBadge status={r.status} />
        {live && ACTIVE.has(r.status) ? (
          <span className="muted small" data-testid="live">
            ● live
          </span>
        ) : null}
        {ACTIVE.has(r.status) ? (
          <button type="button" disabled={cancel.isPending} onClick={() => cancel.mutate({ id })}>
            {cancel.isPending || cancel.data?.status === "cancelling" ? "Cancelling…" : "Cancel"}
          </button>
        ) : null}
      </h1>
      {cancel.isError ? (
        <p className="error" role="alert">
          {cancel.error.message}
        </p>
      ) : null}
      <dl className="facts">
        <dt>Version</dt>
        <dd>v{r.version.number}</dd>
        <dt>Lane</dt>
        <dd>{r.lane}</dd>
        <dt>Started</dt>
        <dd>{r.startedAt ? r.startedAt.toLocaleString() : "waiting for a worker"}</dd>
        <dt>Duration</dt>
        <dd>{duration(r.startedAt, r.finishedAt)}</dd>
      </dl>
      {r.errorMessage ? (
        <p className="error" role="alert">
          <code>{r.errorCode}</code> {r.errorMessage}
        </p>
      ) : null}
      <h2>Steps</h2>
      {r.steps.length === 0 ? <p className="muted">No steps yet.</p> : null}
      <ol className="steps">
        {r.steps.map((s) => (
          <li key={s.id} className="card step" data-step={s.stateName}>
            <div className="step-head">
              <strong>{s.stateName}</strong> <StatusBadge status={s.status} />
              <span className="muted small">
                exit {s.exitCode ?? "–"} · {duration(s.startedAt, s.finishedAt)} · sandbox {s.sandboxLevel ?? "–"}
              </span>
            </div>
            {s.stepType === "agent" ? <AgentActivity runId={id} step={s} live={live} /> : null}
            {s.stdout && !(s.stepType === "agent" && s.stdout.trim() === s.output.trim()) ? <pre className="output">{s.stdout}</pre> : null}
            {s.stderr ? <pre className="output stderr">{s.stderr}</pre> : null}
            {s.errorMessage ? <p className="error small">{s.errorMessage}</p> : null}
          </li>
        ))}
      </ol>
    </>
  );
}
