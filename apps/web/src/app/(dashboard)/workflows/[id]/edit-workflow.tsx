"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { WorkflowEditor } from "~/components/workflow-editor";
import { useTRPC } from "~/trpc/react";

export function EditWorkflow({ id, saved }: { id: string; saved?: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const workflow = useQuery(trpc.workflows.get.queryOptions({ id }));
  const start = useMutation(trpc.runs.start.mutationOptions({ onSuccess: (run) => router.push(`/runs/${run.id}`) }));
  if (workflow.isPending) return <p className="muted">Loading…</p>;
  if (workflow.isError) return <p className="error">{workflow.error.message}</p>;
  const w = workflow.data;
  return (
    <>
      <p className="muted small">
        <Link href="/workflows">Workflows</Link> / {w.name}
      </p>
      <h1>
        {w.name} <span className="muted small">v{w.version} · lane {w.lane}</span>
        <button type="button" className="primary" disabled={start.isPending} onClick={() => start.mutate({ workflowId: w.id })}>
          Run
        </button>
      </h1>
      {saved ? <p className="ok-text">Saved as version {saved}.</p> : null}
      {start.isError ? <p className="error">{start.error.message}</p> : null}
      <WorkflowEditor key={w.bundleHash} initial={{ entry: w.entry, files: w.files }} />
    </>
  );
}
