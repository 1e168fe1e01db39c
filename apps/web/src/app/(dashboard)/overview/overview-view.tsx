"use client";
/**
 * The overview page's body: the team's runs, step durations, tokens and cost, tools and
 * connectors over 7, 30 or 90 days, bucketed by the viewer's own days (the browser's
 * time zone goes to the server, which groups by it).
 */
import Link from "next/link";
import type { inferRouterOutputs } from "@trpc/server";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { BarChart } from "~/components/charts/bar-chart";
import { shortDate } from "~/components/charts/chart-frame";
import { LineChart } from "~/components/charts/line-chart";
import { EmptyState, ErrorState, Loading } from "~/components/states";
import type { AppRouter } from "~/server/trpc/root";
import { useTRPC } from "~/trpc/react";
import { BudgetStandings } from "./budget-standings";
import { formatCost, formatCount, formatDuration, formatPercent } from "./format";

const RANGES = [7, 30, 90] as const;
type Range = (typeof RANGES)[number];

const STATUS_SERIES = [
  { key: "succeeded", label: "Succeeded", color: 2 },
  { key: "failed", label: "Failed", color: 3 },
  { key: "cancelled", label: "Cancelled", color: 4 },
  { key: "running", label: "Running", color: 1 },
  { key: "waiting", label: "Waiting for a person", color: 5 },
  { key: "queued", label: "Queued", color: 6 },
] as const;

const browserZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
};

export function OverviewView() {
  const trpc = useTRPC();
  const [days, setDays] = useState<Range>(30);
  const [timeZone, setTimeZone] = useState<string | null>(null);
  useEffect(() => setTimeZone(browserZone()), []);
  const overview = useQuery({
    ...trpc.overview.get.queryOptions({ days, timeZone: timeZone ?? "UTC" }),
    enabled: timeZone !== null,
  });

  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        <div role="group" aria-label="Range" className="segmented">
          {RANGES.map((r) => (
            <button key={r} type="button" aria-pressed={days === r} onClick={() => setDays(r)}>
              {r} days
            </button>
          ))}
        </div>
      </div>
      {timeZone ? <p className="muted small">Days in {timeZone}, up to now.</p> : null}
      <BudgetStandings />
      {overview.isError ? (
        <ErrorState
          title="The overview could not be loaded"
          error={overview.error}
          retry={() => void overview.refetch()}
        />
      ) : !overview.data ? (
        <Loading label="Loading the overview…" />
      ) : (
        <OverviewBody data={overview.data} days={days} />
      )}
    </>
  );
}

type OverviewData = inferRouterOutputs<AppRouter>["overview"]["get"];

function OverviewBody({ data, days }: { data: OverviewData; days: Range }) {
  const usageTotal = data.usage.inputTokens + data.usage.outputTokens;
  if (
    data.runs.total === 0 &&
    data.stepDuration.steps === 0 &&
    usageTotal === 0 &&
    data.topTools.length === 0
  ) {
    return (
      <EmptyState title={`No runs in the last ${days} days`}>
        <p>
          Once your team runs workflows, this page shows how many succeed, how long steps take, the
          tokens and cost they use, and the tools they call. What to do next:
        </p>
        <ol className="first-steps" aria-label="What to do next">
          <li>
            <Link href="/workflows">Press Run on the demo agent workflow</Link> (
            <code>demo-agent</code>, where the demo team has it): an agent writes and reads files
            and calls a connector against Switchyard&apos;s demo model, with no key.
          </li>
          <li>
            <Link href="/settings/models">Add a model key</Link>, or a local model such as Ollama,
            so agents run on a real model.
          </li>
          <li>
            <Link href="/settings/connectors">Add a connector</Link>: the tools and data your agents
            may reach.
          </li>
          <li>
            <Link href="/workflows/new">Write a workflow</Link>, or start from a{" "}
            <Link href="/templates">template</Link>.
          </li>
        </ol>
      </EmptyState>
    );
  }
  const dates = data.perDay.map((d) => shortDate(d.date));
  return (
    <>
      <dl className="stat-grid">
        <Stat label="Runs" value={formatCount(data.runs.total)} />
        <Stat label="Success rate" value={formatPercent(data.runs.successRate)} />
        <Stat label="Waiting for a person" value={formatCount(data.runs.byStatus.waiting)} />
        <Stat label="Step p50" value={formatDuration(data.stepDuration.p50Ms)} />
        <Stat label="Step p95" value={formatDuration(data.stepDuration.p95Ms)} />
        <Stat label="Tokens" value={formatCount(usageTotal)} />
        <Stat label="Cost" value={formatCost(data.usage.costUsd)} />
      </dl>
      <div className="chart-grid-2">
        <BarChart
          title="Runs per day"
          description={`Runs started each day over the last ${days} days, stacked by status: ${data.runs.byStatus.succeeded} succeeded, ${data.runs.byStatus.failed} failed, ${data.runs.byStatus.cancelled} cancelled.`}
          series={STATUS_SERIES.map((s) => ({ ...s }))}
          categories={dates}
          values={data.perDay.map((d) => STATUS_SERIES.map((s) => d.runs[s.key]))}
          xLabel="Day"
          yLabel="Runs"
        />
        <LineChart
          title="Step duration per day"
          description={`Median (p50) and 95th percentile (p95) duration of finished steps each day; over the whole range p50 ${formatDuration(data.stepDuration.p50Ms)}, p95 ${formatDuration(data.stepDuration.p95Ms)}.`}
          series={[
            { key: "p50", label: "p50", color: 1 },
            { key: "p95", label: "p95", color: 5 },
          ]}
          categories={dates}
          values={data.perDay.map((d) => [d.stepDuration.p50Ms, d.stepDuration.p95Ms])}
          xLabel="Day"
          yLabel="Duration"
          format={formatDuration}
        />
        <BarChart
          title="Tokens per day"
          description={`Input and output tokens of agent steps each day; ${formatCount(usageTotal)} in all.`}
          series={[
            { key: "in", label: "Input", color: 1 },
            { key: "out", label: "Output", color: 5 },
          ]}
          categories={dates}
          values={data.perDay.map((d) => [d.usage.inputTokens, d.usage.outputTokens])}
          xLabel="Day"
          yLabel="Tokens"
          format={formatCount}
        />
        <BarChart
          title="Cost per day"
          description={`Model cost of agent steps each day, in US dollars; ${formatCost(data.usage.costUsd)} in all.`}
          series={[{ key: "cost", label: "Cost", color: 4 }]}
          categories={dates}
          values={data.perDay.map((d) => [d.usage.costUsd])}
          xLabel="Day"
          yLabel="US dollars"
          format={formatCost}
        />
      </div>
      <div className="chart-grid-2">
        <CallTable
          title="Top tools"
          empty="No tool calls in this range."
          head="Tool"
          rows={data.topTools.map((t) => ({
            key: t.name,
            label: t.name,
            calls: t.calls,
            errors: t.errors,
            errorRate: t.errorRate,
          }))}
        />
        <CallTable
          title="Top connectors"
          empty="No connector calls in this range."
          head="Connector"
          rows={data.topConnectors.map((c) => ({
            key: c.connectorId,
            label: c.connectorId,
            calls: c.calls,
            errors: c.errors,
            errorRate: c.errorRate,
          }))}
        />
      </div>
      <section className="card" aria-labelledby="usage-by-workflow">
        <h2 id="usage-by-workflow">Tokens and cost by workflow</h2>
        {data.usageByWorkflow.length === 0 ? (
          <p className="muted">No agent step used tokens in this range.</p>
        ) : (
          <div className="table-scroll">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Workflow</th>
                  <th scope="col" className="num">
                    Steps
                  </th>
                  <th scope="col" className="num">
                    Input tokens
                  </th>
                  <th scope="col" className="num">
                    Output tokens
                  </th>
                  <th scope="col" className="num">
                    Cost
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.usageByWorkflow.map((w) => (
                  <tr key={w.workflowId}>
                    <td>
                      <Link href={`/workflows/${w.workflowId}`}>{w.name}</Link>
                    </td>
                    <td className="num">{formatCount(w.steps)}</td>
                    <td className="num">{formatCount(w.inputTokens)}</td>
                    <td className="num">{formatCount(w.outputTokens)}</td>
                    <td className="num">{formatCost(w.costUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="stat card">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

type CallRow = { key: string; label: string; calls: number; errors: number; errorRate: number };

function CallTable({
  title,
  empty,
  head,
  rows,
}: {
  title: string;
  empty: string;
  head: string;
  rows: CallRow[];
}) {
  const most = Math.max(1, ...rows.map((r) => r.calls));
  const id = `calls-${head.toLowerCase()}`;
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{head}</th>
                <th scope="col" className="num">
                  Calls
                </th>
                <th scope="col" className="num">
                  Errors
                </th>
                <th scope="col" className="num">
                  Error rate
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <td>
                    <code>{r.label}</code>
                    <br />
                    <svg width="120" height="8" aria-hidden="true" focusable="false">
                      <rect
                        className="series-1"
                        x="0"
                        y="0"
                        height="8"
                        rx="4"
                        width={Math.max(4, (r.calls / most) * 120)}
                      />
                    </svg>
                  </td>
                  <td className="num">{formatCount(r.calls)}</td>
                  <td className="num">{formatCount(r.errors)}</td>
                  <td className={`num${r.errorRate > 0.1 ? " error" : ""}`}>
                    {formatPercent(r.errorRate)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
