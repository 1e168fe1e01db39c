"use client";
/**
 * A workflow's examples: the runs marked as examples (on a run's page), "Replay all
 * examples" with one set of changes (a model, a CLI version...), and the suite replays with,
 * for the chosen one, a table of each replay: its source attempt, status, and whether it
 * matched its source or where it first diverged, with token and cost changes.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { LocalTime } from "~/components/local-time";
import { EmptyState, ErrorState, Loading } from "~/components/states";
import { StatusBadge } from "~/components/status-badge";
import { useTRPC } from "~/trpc/react";
import { emptyReplayForm, ReplayFields, replayChangesOf } from "../../runs/replay-fields";
import replay from "../../runs/replay.module.css";

const changesText = (options: Record<string, unknown>) => {
  const parts = Object.entries(options).map(([key, value]) => `${key} ${String(value)}`);
  return parts.length > 0 ? parts.join(", ") : "as recorded";
};

const signed = (n: number | null | undefined, digits = 0) =>
  n === null || n === undefined ? "–" : `${n > 0 ? "+" : ""}${n.toFixed(digits)}`;

function SuiteTable({ id }: { id: string }) {
  const trpc = useTRPC();
  const suite = useQuery({
    ...trpc.replay.suiteShow.queryOptions({ id }),
    refetchInterval: (q) => ((q.state.data?.counts.pending ?? 0) > 0 ? 3000 : false),
  });
  if (suite.isPending) return <Loading label="Loading the suite…" />;
  if (suite.isError) return <ErrorState error={suite.error} retry={() => void suite.refetch()} />;
  const s = suite.data;
  return (
    <section aria-label="Suite replay" data-testid="suite-table">
      <p>
        <span className={replay.match}>{s.counts.matched} matched</span> ·{" "}
        <span className={replay.diverged}>{s.counts.diverged} diverged</span> · {s.counts.pending}{" "}
        pending, of {s.counts.total} ({changesText(s.options)})
      </p>
      <div className={replay.tableBox}>
        <table className={replay.table}>
          <thead>
            <tr>
              <th scope="col">Source attempt</th>
              <th scope="col">Replay</th>
              <th scope="col">Result</th>
              <th scope="col">Input tokens</th>
              <th scope="col">Output tokens</th>
              <th scope="col">Cost (USD)</th>
            </tr>
          </thead>
          <tbody>
            {s.replays.map((r) => (
              <tr key={r.runId} data-testid="suite-replay">
                <td>
                  <Link href={`/runs/${r.source.runId}`}>{r.source.stateName || "attempt"}</Link>{" "}
                  <span className="muted small">run {r.source.runId.slice(-8)}</span>
                </td>
                <td>
                  <Link href={`/runs/${r.runId}`}>{r.runId.slice(-8)}</Link>{" "}
                  <StatusBadge status={r.status} />
                </td>
                <td>
                  {r.match === null ? (
                    <span className="muted">pending</span>
                  ) : (
                    <>
                      <span className={r.match ? replay.match : replay.diverged}>
                        {r.match
                          ? "match"
                          : r.firstDivergence === null
                            ? "diverged (answer)"
                            : `diverged at call ${r.firstDivergence + 1}`}
                      </span>{" "}
                      {r.stepRunId ? (
                        <Link
                          href={`/runs/compare?a=${encodeURIComponent(r.source.stepRunId)}&b=${encodeURIComponent(r.stepRunId)}`}
                        >
                          compare
                        </Link>
                      ) : null}
                    </>
                  )}
                </td>
                <td>{signed(r.inputTokens?.delta)}</td>
                <td>{signed(r.outputTokens?.delta)}</td>
                <td>{signed(r.costUsd?.delta, 4)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function ExamplesPanel({ workflowId, canRun }: { workflowId: string; canRun: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const examples = useQuery(trpc.runs.list.queryOptions({ workflowId, example: "true" }));
  const suites = useQuery(trpc.replay.suiteList.queryOptions({ workflowId }));
  const [chosen, setChosen] = useState<string | undefined>();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(() => emptyReplayForm());
  const start = useMutation(
    trpc.replay.suiteStart.mutationOptions({
      onSuccess: async (suite) => {
        setOpen(false);
        setChosen(suite.id);
        await queryClient.invalidateQueries({ queryKey: trpc.replay.suiteList.pathKey() });
      },
    }),
  );
  if (examples.isPending || suites.isPending) return <Loading label="Loading the examples…" />;
  if (examples.isError || suites.isError)
    return (
      <ErrorState
        error={examples.error ?? suites.error}
        retry={() => {
          void examples.refetch();
          void suites.refetch();
        }}
      />
    );
  const shown = chosen ?? suites.data.suites[0]?.id;
  return (
    <div className={replay.form}>
      <h2>Examples</h2>
      {examples.data.runs.length === 0 ? (
        <EmptyState title="No example runs yet">
          Open a run of this workflow and choose Mark as example; replaying all examples then runs
          their agent attempts again, with a new model or CLI version, against their recordings.
        </EmptyState>
      ) : (
        <ul data-testid="example-runs">
          {examples.data.runs.map((run) => (
            <li key={run.id}>
              <Link href={`/runs/${run.id}`}>Run {run.id.slice(-8)}</Link>{" "}
              <StatusBadge status={run.status} />{" "}
              <span className="muted small">
                <LocalTime value={run.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {canRun && examples.data.runs.length > 0 ? (
        <div>
          <button
            type="button"
            className="primary"
            aria-expanded={open}
            aria-controls="replay-all"
            onClick={() => setOpen((o) => !o)}
          >
            Replay all examples
          </button>
          {open ? (
            <form
              id="replay-all"
              className={`card ${replay.form}`}
              aria-label="Replay all examples"
              onSubmit={(e) => {
                e.preventDefault();
                start.mutate({ workflowId, ...replayChangesOf(form) });
              }}
            >
              <ReplayFields form={form} onChange={setForm} idPrefix="replay-all" />
              {start.isError ? (
                <p className="error" role="alert">
                  Could not replay the examples: {start.error.message}
                </p>
              ) : null}
              <div className={replay.actions}>
                <button type="submit" className="primary" disabled={start.isPending}>
                  {start.isPending ? "Starting…" : "Start the replays"}
                </button>
              </div>
            </form>
          ) : null}
        </div>
      ) : null}
      <h2>Suite replays</h2>
      {suites.data.suites.length === 0 ? (
        <p className="muted">No suite replay yet.</p>
      ) : (
        <>
          <label htmlFor="suite-choice">
            Suite
            <select id="suite-choice" value={shown} onChange={(e) => setChosen(e.target.value)}>
              {suites.data.suites.map((s) => (
                <option key={s.id} value={s.id}>
                  {new Date(s.createdAt).toLocaleString()} · {s.replays} replays ·{" "}
                  {changesText(s.options)}
                </option>
              ))}
            </select>
          </label>
          {shown ? <SuiteTable id={shown} /> : null}
        </>
      )}
    </div>
  );
}
