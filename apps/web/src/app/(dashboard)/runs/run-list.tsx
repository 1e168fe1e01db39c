"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { StatusBadge } from "~/components/status-badge";
import { useTRPC } from "~/trpc/react";

const duration = (from: Date | null, to: Date | null) => {
  if (!from) return "–";
  const ms = (to ?? new Date()).getTime() - from.getTime();
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
};

/** The team's most recent runs, refreshed while any is still queued or running. */
export function RunList() {
  const trpc = useTRPC();
  const runs = useQuery({
    ...trpc.runs.list.queryOptions(),
    refetchInterval: (q) => (q.state.data?.runs.some((r) => r.status === "queued" || r.status === "running") ? 1000 : 5000),
  });
  if (runs.isPending) return <p className="muted">Loading…</p>;
  if (runs.isError) return <p className="error">{runs.error.message}</p>;
  if (runs.data.runs.length === 0) return <p className="muted">No runs yet.</p>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Workflow</th>
          <th>Status</th>
          <th>Trigger</th>
          <th>Started</th>
          <th>Duration</th>
        </tr>
      </thead>
      <tbody>
        {runs.data.runs.map((r) => (
          <tr key={r.id} data-run={r.id}>
            <td>
              <Link href={`/runs/${r.id}`}>{r.workflow.name}</Link>
            </td>
            <td>
              <StatusBadge status={r.status} />
            </td>
            <td>{r.trigger}</td>
            <td>{(r.startedAt ?? r.createdAt).toLocaleString()}</td>
            <td>{duration(r.startedAt, r.finishedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
