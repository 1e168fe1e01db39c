"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { StatusBadge } from "~/components/status-badge";
import { useTRPC } from "~/trpc/react";
import { can, useRole } from "~/trpc/use-role";

export function WorkflowList() {
  const trpc = useTRPC();
  const router = useRouter();
  const workflows = useQuery(trpc.workflows.list.queryOptions());
  // Viewers only look: no Run buttons (the server refuses them anyway).
  const canRun = can(useRole(), "member");
  const start = useMutation(
    trpc.runs.start.mutationOptions({ onSuccess: (run) => router.push(`/runs/${run.id}`) }),
  );

  if (workflows.isPending) return <p className="muted">Loading…</p>;
  if (workflows.isError) return <p className="error">{workflows.error.message}</p>;
  if (workflows.data.length === 0) return <p className="muted">No workflows yet.</p>;
  return (
    <>
      {start.isError ? (
        <p className="error" role="alert">
          {start.error.message}
        </p>
      ) : null}
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Lane</th>
              <th>Version</th>
              <th>Last run</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {workflows.data.map((w) => (
              <tr key={w.id} data-workflow={w.name}>
                <td>
                  <Link href={`/workflows/${w.id}`}>
                    <strong>{w.name}</strong>
                  </Link>
                  <div className="muted small">
                    {w.pack ? (
                      <>
                        from pack <Link href={`/packs#${w.pack}`}>{w.pack}</Link>
                        {w.description ? " · " : ""}
                      </>
                    ) : null}
                    {w.description}
                  </div>
                </td>
                <td>{w.lane}</td>
                <td>v{w.version ?? "–"}</td>
                <td>
                  {w.lastRun ? (
                    <Link href={`/runs/${w.lastRun.id}`}>
                      <StatusBadge status={w.lastRun.status} />
                    </Link>
                  ) : (
                    <span className="muted">never</span>
                  )}
                </td>
                <td className="right">
                  {canRun ? (
                    <button
                      type="button"
                      className="primary"
                      disabled={start.isPending}
                      onClick={() => start.mutate({ workflowId: w.id })}
                    >
                      Run
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
