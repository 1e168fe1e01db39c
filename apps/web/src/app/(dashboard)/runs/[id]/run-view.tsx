"use client";
/**
 * One run: a banner for each wait for a person's answer (Approve / Deny for those who may),
 * who or what started it, its inputs and outputs, the workflow's graph coloured by
 * the run's step statuses, a timeline of step attempts, each step's output (streaming while
 * it runs), agent activity, the span waterfall and the stored events; Re-run, Cancel and a
 * logs download; a finished agent attempt's Replay, a replay's Compare with source, and
 * marking the run an example of its workflow. Live through the run's event stream; polling
 * only while that is down.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { LocalTime } from "~/components/local-time";
import { StateGraph, type StateRunStatus } from "~/components/state-graph";
import { ErrorState, Loading } from "~/components/states";
import { StatusBadge } from "~/components/status-badge";
import { useTRPC } from "~/trpc/react";
import { can, useRole } from "~/trpc/use-role";
import styles from "../runs.module.css";
import { AgentActivity } from "./agent-activity";
import { coalesceRefresh } from "./coalesce-refresh";
import { EventList } from "./event-list";
import { JsonBlock } from "./json-block";
import { ReplayForm, type RecordedRequest } from "./replay-form";
import { SpanWaterfall } from "./span-waterfall";
import { StepTimeline } from "./step-timeline";
import { useRunEvents, type LiveOutput } from "./use-run-events";
import { StepSpend } from "./step-spend";
import { VersionDrift } from "./version-drift";
import { DesktopNotifications } from "./desktop-notifications";
import { OperationStep } from "./operation-step";
import { chatsOf } from "./chat-groups";
import { ConversationChat } from "./conversation-chat";
import { WaitBanner } from "./wait-banner";

const ACTIVE = new Set(["queued", "running", "waiting"]);
const STEP_DONE = new Set(["succeeded", "failed", "skipped", "cancelled"]);
const STEP_STATUS: Record<string, StateRunStatus> = {
  pending: "queued",
  running: "running",
  waiting: "running",
  succeeded: "succeeded",
  failed: "failed",
  skipped: "skipped",
  cancelled: "cancelled",
};

const duration = (from?: Date | null, to?: Date | null) => {
  if (!from) return "–";
  const ms = (to ?? new Date()).getTime() - from.getTime();
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
};

type Origin = {
  id: string;
  trigger: string;
  replayOfId: string | null;
  steps: { id: string; stepType: string }[];
  startedBy: { name: string } | null;
  firedBy: { name: string; kind: string } | null;
  rerunOfId: string | null;
  parentRunId: string | null;
};

/** Who or what started the run, in words, with links to the runs it came from. */
function StartedBy({ run }: { run: Origin }) {
  const who = run.startedBy?.name ?? "someone no longer in the team";
  const how = run.firedBy ? (
    <>
      the {run.firedBy.kind} trigger <strong>{run.firedBy.name || "(unnamed)"}</strong>
    </>
  ) : run.trigger === "api" ? (
    <>an API token of {who}</>
  ) : run.trigger === "cli" ? (
    <>{who}, from the CLI</>
  ) : run.trigger === "call_workflow" ? (
    <>
      a call_workflow state
      {run.parentRunId ? (
        <>
          {" "}
          of <Link href={`/runs/${run.parentRunId}`}>its parent run</Link>
        </>
      ) : null}
    </>
  ) : run.trigger === "replay" ? (
    <>{who}, as a replay of an agent attempt</>
  ) : run.trigger === "schedule" || run.trigger === "webhook" ? (
    <>a {run.trigger} trigger (since removed)</>
  ) : (
    <>{who}, from the dashboard</>
  );
  return (
    <p className={styles.origin} data-testid="run-origin">
      Started by {how}
      {run.rerunOfId ? (
        <>
          {" "}
          as a{" "}
          <Link href={`/runs/${run.rerunOfId}`} data-testid="rerun-of">
            re-run of run {run.rerunOfId.slice(-8)}
          </Link>
        </>
      ) : null}
      . {run.replayOfId ? <CompareWithSource run={run} /> : null}
    </p>
  );
}

/** A replay run's link to the compare view of its attempt and the attempt it replays. */
function CompareWithSource({ run }: { run: Origin }) {
  const attempt = run.steps.find((s) => s.stepType === "agent");
  if (!attempt || !run.replayOfId)
    return <span className="muted">Compare with source once its attempt has started.</span>;
  return (
    <Link
      href={`/runs/compare?a=${encodeURIComponent(run.replayOfId)}&b=${encodeURIComponent(attempt.id)}`}
      data-testid="compare-with-source"
    >
      Compare with source
    </Link>
  );
}

/** Whether an attempt can be replayed: a finished agent attempt whose request was recorded. */
/** The step whose session an agent attempt resumed (`conversation.continue_from`), from its request record. */
const continuedFrom = (step: object): string | undefined => {
  const request = (step as { agentRequest?: unknown }).agentRequest;
  const from = (request as { continueFrom?: unknown } | null | undefined)?.continueFrom;
  return typeof from === "string" ? from : undefined;
};

const replayable = (step: { stepType: string; status: string; agentRequest?: unknown }) =>
  step.stepType === "agent" &&
  (step.status === "succeeded" || step.status === "failed") &&
  typeof step.agentRequest === "object" &&
  step.agentRequest !== null;

function StepOutput({
  stdout,
  stderr,
  live,
  running,
}: {
  stdout: string;
  stderr: string;
  live: LiveOutput | undefined;
  running: boolean;
}) {
  // While the step runs its row has no output yet: what streamed is shown instead.
  const out = running && live ? live.stdout : stdout;
  const err = running && live ? live.stderr : stderr;
  return (
    <>
      {out ? (
        <pre className="output" data-testid={running ? "live-output" : "step-output"}>
          {out}
        </pre>
      ) : null}
      {err ? <pre className="output stderr">{err}</pre> : null}
      {live?.truncated ? (
        <p className={styles.notice}>
          The output reached the stored limit (256 KiB per stream); the rest is neither stored nor
          shown.
        </p>
      ) : null}
    </>
  );
}

export function RunView({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const getOptions = trpc.runs.get;
  const activityOptions = trpc.runs.stepActivity;
  const waitsOptions = trpc.waits.list;
  const cancel = useMutation(
    trpc.runs.cancel.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: getOptions.queryKey({ id }) }),
    }),
  );
  const rerun = useMutation(
    trpc.runs.rerun.mutationOptions({ onSuccess: (run) => router.push(`/runs/${run.id}`) }),
  );
  const role = useRole();
  const invalidateRun = () =>
    queryClient.invalidateQueries({ queryKey: getOptions.queryKey({ id }) });
  const mark = useMutation(trpc.runs.markExample.mutationOptions({ onSettled: invalidateRun }));
  const unmark = useMutation(trpc.runs.unmarkExample.mutationOptions({ onSettled: invalidateRun }));
  const refresh = useMemo(
    () =>
      coalesceRefresh(() =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: getOptions.queryKey({ id }) }),
          queryClient.invalidateQueries({ queryKey: waitsOptions.queryKey({ runId: id }) }),
          // Only the agent steps still going: a finished one's activity does not change.
          queryClient.invalidateQueries({
            queryKey: activityOptions.pathKey(),
            predicate: (q) =>
              !STEP_DONE.has((q.state.data as { status?: string } | undefined)?.status ?? ""),
          }),
        ]),
      ),
    [queryClient, getOptions, activityOptions, waitsOptions, id],
  );
  const onChange = useCallback(() => refresh(), [refresh]);
  const { live, events, output } = useRunEvents(id, onChange);
  const run = useQuery({
    ...trpc.runs.get.queryOptions({ id }),
    refetchInterval: (q) =>
      q.state.data && !ACTIVE.has(q.state.data.status) ? false : live ? false : 1000,
  });
  const graph = useQuery(trpc.runs.graph.queryOptions({ id }));
  const waits = useQuery({
    ...trpc.waits.list.queryOptions({ runId: id }),
    refetchInterval: (q) =>
      q.state.data?.waits.some((w) => w.status === "open") && !live ? 2000 : false,
  });
  if (run.isPending) return <Loading label="Loading the run…" />;
  if (run.isError)
    return (
      <ErrorState
        title="The run could not be loaded"
        error={run.error}
        retry={() => void run.refetch()}
      />
    );
  const r = run.data;
  const active = ACTIVE.has(r.status);
  const runWaits = waits.data?.waits ?? [];
  const openWaits = runWaits.filter((w) => w.status === "open");
  const canStart = can(role, "member");
  const statusByState: Record<string, StateRunStatus> = {};
  for (const s of r.steps) statusByState[s.stateName] = STEP_STATUS[s.status] ?? "queued";
  return (
    <>
      <nav aria-label="Breadcrumb" className={`muted small ${styles.crumbs}`}>
        <Link href="/runs">Runs</Link> / {r.workflow.name}
      </nav>
      <h1>
        Run of {r.workflow.name} <StatusBadge status={r.status} />
        {r.exampleAt ? (
          <span className="badge" data-testid="example-badge">
            example
          </span>
        ) : null}
        {live && active ? (
          <span className="muted small" data-testid="live">
            {" "}
            ● live
          </span>
        ) : null}
        <span className={styles.actions}>
          {active ? (
            <button type="button" disabled={cancel.isPending} onClick={() => cancel.mutate({ id })}>
              {cancel.isPending || cancel.data?.status === "cancelling" ? "Cancelling…" : "Cancel"}
            </button>
          ) : null}
          <button type="button" disabled={rerun.isPending} onClick={() => rerun.mutate({ id })}>
            {rerun.isPending ? "Starting…" : "Re-run"}
          </button>
          {canStart && !active ? (
            r.exampleAt ? (
              <button
                type="button"
                disabled={unmark.isPending}
                onClick={() => unmark.mutate({ id })}
              >
                Unmark example
              </button>
            ) : (
              <button type="button" disabled={mark.isPending} onClick={() => mark.mutate({ id })}>
                Mark as example
              </button>
            )
          ) : null}
          <a href={`/api/runs/${id}/logs`} download>
            Download logs
          </a>
        </span>
      </h1>
      {openWaits
        .filter((w) => w.kind !== "message")
        .map((w) => (
          <WaitBanner key={w.id} wait={w} onAnswered={() => void refresh()} />
        ))}
      {chatsOf(runWaits, r.steps).map((chat) => (
        <ConversationChat
          key={chat.waits[0]!.id}
          waits={chat.waits}
          stoppedBy={chat.stoppedBy}
          onAnswered={() => void refresh()}
        />
      ))}
      {cancel.isError ? (
        <p className="error" role="alert">
          {cancel.error.message}
        </p>
      ) : null}
      {mark.isError || unmark.isError ? (
        <p className="error" role="alert">
          {(mark.error ?? unmark.error)?.message}
        </p>
      ) : null}
      {rerun.isError ? (
        <p className="error" role="alert">
          Could not re-run: {rerun.error.message}
        </p>
      ) : null}
      <StartedBy run={r} />
      <VersionDrift events={events} />
      <DesktopNotifications events={events} />
      <dl className="facts">
        <dt>Version</dt>
        <dd>v{r.version.number}</dd>
        <dt>Lane</dt>
        <dd>{r.lane}</dd>
        <dt>Trigger</dt>
        <dd>{r.trigger}</dd>
        <dt>Created</dt>
        <dd>
          <LocalTime value={r.createdAt} />
        </dd>
        <dt>Started</dt>
        <dd>{r.startedAt ? <LocalTime value={r.startedAt} /> : "waiting for a worker"}</dd>
        <dt>Duration</dt>
        <dd>{duration(r.startedAt, r.finishedAt)}</dd>
      </dl>
      {r.errorMessage ? (
        <p className="error" role="alert">
          <code>{r.errorCode}</code> {r.errorMessage}
        </p>
      ) : null}
      <StepSpend events={events} />
      <JsonBlock label="Inputs" value={r.inputs ?? {}} />
      {r.outputs !== null && r.outputs !== undefined ? (
        <JsonBlock label="Outputs" value={r.outputs} />
      ) : null}

      <section className={styles.section} aria-labelledby="run-graph">
        <h2 id="run-graph">States</h2>
        {graph.data?.graph ? (
          <StateGraph
            graph={graph.data.graph}
            statusByState={statusByState}
            label={`States of ${r.workflow.name}`}
          />
        ) : graph.isPending ? (
          <Loading label="Loading the graph…" />
        ) : (
          <p className="muted">The graph of this version cannot be drawn.</p>
        )}
      </section>

      <section className={styles.section} aria-labelledby="run-timeline">
        <h2 id="run-timeline">Timeline</h2>
        <StepTimeline steps={r.steps} waits={runWaits} now={Date.now()} />
      </section>

      <section className={styles.section} aria-labelledby="run-steps">
        <h2 id="run-steps">Steps</h2>
        {r.steps.length === 0 ? <p className="muted">No steps yet.</p> : null}
        <ol className="steps">
          {r.steps.map((s) => (
            <li key={s.id} className="card step" data-step={s.stateName}>
              <div className="step-head">
                <strong>{s.stateName}</strong>
                {s.attempt > 1 ? (
                  <span className="muted small"> attempt {s.attempt}</span>
                ) : null}{" "}
                <StatusBadge status={s.status} />
                <span className="muted small">
                  exit {s.exitCode ?? "–"} · {duration(s.startedAt, s.finishedAt)} · sandbox{" "}
                  {s.sandboxLevel ?? "–"}
                </span>
                {continuedFrom(s) ? (
                  <span className="muted small" data-testid="step-continues">
                    {" "}
                    · continues the session of <code>{continuedFrom(s)}</code>
                  </span>
                ) : null}
              </div>
              {s.stepType === "agent" ? <AgentActivity runId={id} step={s} live={live} /> : null}
              {s.stepType === "operation" ? <OperationStep step={s} /> : null}
              {s.stepType === "operation" ||
              (s.stepType === "agent" && s.stdout.trim() === s.output.trim()) ? null : (
                <StepOutput
                  stdout={s.stdout}
                  stderr={s.stderr}
                  live={output[s.id]}
                  running={s.status === "running"}
                />
              )}
              {s.errorMessage ? (
                <p className="error small" data-testid="step-error">
                  {s.errorCode ? <code data-testid="step-error-code">{s.errorCode}</code> : null}{" "}
                  {s.errorMessage}
                </p>
              ) : null}
              {canStart && replayable(s) ? (
                <ReplayForm
                  runId={id}
                  stepRunId={s.id}
                  stateName={s.stateName}
                  request={s.agentRequest as RecordedRequest}
                />
              ) : null}
            </li>
          ))}
        </ol>
      </section>

      <section className={styles.section} aria-labelledby="run-spans">
        <h2 id="run-spans">Trace</h2>
        <SpanWaterfall runId={id} active={active} />
      </section>

      <section className={styles.section} aria-labelledby="run-events">
        <h2 id="run-events">Events</h2>
        <EventList events={events} />
      </section>
    </>
  );
}
