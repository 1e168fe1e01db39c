"use client";
/**
 * Two agent attempts side by side (a replay and its source, or any two): whether they
 * match, each one's provider, model, CLI version, tokens, cost and duration with the
 * difference, the tool-call sequences lined up with the first divergence marked and, for
 * each pair, the paths where arguments and results differ, and the answer's line diff.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { LineDiff } from "~/components/line-diff";
import { EmptyState, ErrorState, Loading } from "~/components/states";
import { StatusBadge } from "~/components/status-badge";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/root";
import { useTRPC } from "~/trpc/react";
import styles from "../replay.module.css";

type Comparison = inferRouterOutputs<AppRouter>["replay"]["compare"];
type Row = Comparison["calls"][number];
type Difference = Row["arguments"][number];
type Delta = Comparison["costUsd"];

const short = (value: unknown) => {
  const text = JSON.stringify(value) ?? "–";
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};

const signed = (n: number | null, format: (n: number) => string) =>
  n === null ? "–" : `${n > 0 ? "+" : n < 0 ? "−" : "±"}${format(Math.abs(n))}`;

const whole = (n: number) => n.toLocaleString("en");
const usd = (n: number) => `$${n.toFixed(4)}`;
const seconds = (n: number) => (n < 1000 ? `${n} ms` : `${(n / 1000).toFixed(1)} s`);

function Measure({
  label,
  delta,
  format,
}: {
  label: string;
  delta: Delta;
  format: (n: number) => string;
}) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{delta.a === null ? "–" : format(delta.a)}</td>
      <td>{delta.b === null ? "–" : format(delta.b)}</td>
      <td data-testid={`delta-${label.toLowerCase().replace(/\s+/g, "-")}`}>
        {signed(delta.delta, format)}
      </td>
    </tr>
  );
}

function Differences({ label, items }: { label: string; items: Difference[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <span className="small muted">{label}</span>
      <ul className={styles.paths} aria-label={label}>
        {items.map((d) => (
          <li key={d.path}>
            <code>{d.path}</code>{" "}
            {d.kind === "added"
              ? `only in B: ${short(d.b)}`
              : d.kind === "removed"
                ? `only in A: ${short(d.a)}`
                : `${short(d.a)} → ${short(d.b)}`}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Call({ call }: { call: Row["a"] }) {
  if (!call) return <span className="muted">—</span>;
  return (
    <div className={styles.call}>
      <strong>{call.tool}</strong>{" "}
      {call.isError ? <span className="badge badge-failed">error</span> : null}{" "}
      {call.replay ? (
        <span className="badge badge-source" data-testid="replay-kind">
          {call.replay}
        </span>
      ) : null}
      <br />
      <code>{short(call.arguments)}</code>
    </div>
  );
}

function CallRow({ row, index, first }: { row: Row; index: number; first: boolean }) {
  const verdict = row.sameCall
    ? row.sameResult
      ? "same"
      : "same call, other result"
    : !row.a
      ? "only in B"
      : !row.b
        ? "only in A"
        : "different call";
  return (
    <tr
      className={first ? styles.divergence : !row.sameCall || !row.sameResult ? styles.differs : ""}
      data-testid="compare-call"
      data-first-divergence={first ? "true" : undefined}
    >
      <td>{index + 1}</td>
      <td>
        <Call call={row.a} />
      </td>
      <td>
        <Call call={row.b} />
      </td>
      <td>
        {first ? <strong>First divergence: </strong> : null}
        {verdict}
        <Differences label="Arguments differ" items={row.arguments} />
        <Differences label="Results differ" items={row.result} />
      </td>
    </tr>
  );
}

function Side({ label, side }: { label: string; side: Comparison["a"] }) {
  return (
    <section className="card" aria-label={`Attempt ${label}`}>
      <h2>
        {label}: {side.stateName} <StatusBadge status={side.status} />
      </h2>
      <dl className="facts">
        <dt>Run</dt>
        <dd>
          <Link href={`/runs/${side.runId}`}>{side.runId.slice(-8)}</Link>
        </dd>
        <dt>Provider</dt>
        <dd>{side.provider ?? "–"}</dd>
        <dt>Model</dt>
        <dd>{side.model ?? "default"}</dd>
        <dt>CLI version</dt>
        <dd>{side.agentVersion ?? "–"}</dd>
      </dl>
    </section>
  );
}

export function CompareView({ a, b }: { a?: string; b?: string }) {
  const trpc = useTRPC();
  const compared = useQuery({
    ...trpc.replay.compare.queryOptions({ a: a || undefined, b: b ?? "" }),
    enabled: Boolean(b),
  });
  if (!b)
    return (
      <EmptyState title="Nothing to compare">
        Open a replay run and choose Compare with source, or give two attempts as ?a=…&amp;b=….
      </EmptyState>
    );
  if (compared.isPending) return <Loading label="Comparing the attempts…" />;
  if (compared.isError)
    return (
      <ErrorState
        title="The attempts could not be compared"
        error={compared.error}
        retry={() => void compared.refetch()}
      />
    );
  const c = compared.data;
  return (
    <>
      <nav aria-label="Breadcrumb" className="muted small">
        <Link href="/runs">Runs</Link> / compare
      </nav>
      <h1>Compare attempts</h1>
      <p data-testid="compare-verdict">
        {c.match ? (
          <span className={styles.match}>
            Match: the same tool calls in the same order and the same answer.
          </span>
        ) : (
          <span className={styles.diverged}>
            {c.sameSequence
              ? "Diverged: the same tool calls, another answer."
              : `Diverged at call ${(c.firstDivergence ?? 0) + 1}${c.sameAnswer ? ", with the same answer" : ""}.`}
          </span>
        )}
      </p>
      <div className={styles.sides}>
        <Side label="A" side={c.a} />
        <Side label="B" side={c.b} />
      </div>

      <section aria-labelledby="compare-measures">
        <h2 id="compare-measures">Tokens, cost and duration</h2>
        <div className={styles.tableBox}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Measure</th>
                <th scope="col">A</th>
                <th scope="col">B</th>
                <th scope="col">B − A</th>
              </tr>
            </thead>
            <tbody>
              <Measure label="Input tokens" delta={c.inputTokens} format={whole} />
              <Measure label="Output tokens" delta={c.outputTokens} format={whole} />
              <Measure label="Cost" delta={c.costUsd} format={usd} />
              <Measure label="Duration" delta={c.durationMs} format={seconds} />
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="compare-calls">
        <h2 id="compare-calls">Tool calls</h2>
        {c.calls.length === 0 ? (
          <p className="muted">Neither attempt made a tool call through the proxy.</p>
        ) : (
          <div className={styles.tableBox}>
            <table className={styles.table} aria-label="Tool calls of A and B, lined up">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">A</th>
                  <th scope="col">B</th>
                  <th scope="col">Difference</th>
                </tr>
              </thead>
              <tbody>
                {c.calls.map((row, i) => (
                  <CallRow key={i} row={row} index={i} first={i === c.firstDivergence} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="compare-answer">
        <h2 id="compare-answer">Answer</h2>
        {c.sameAnswer ? <p className="muted">Both gave the same answer.</p> : null}
        <div className="card" data-testid="answer-diff">
          <LineDiff lines={c.answer.lines} label="Answer of A against B" />
        </div>
      </section>
    </>
  );
}
