"use client";
/**
 * A workflow's saved versions: who saved each and when, the diff between any two (every
 * file, added and removed lines marked with + and − as well as colour), and running a
 * chosen version with the start form of that version's inputs.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { InputForm } from "~/components/input-form";
import { LineDiff } from "~/components/line-diff";
import { LocalTime } from "~/components/local-time";
import { EmptyState, ErrorState, Loading } from "~/components/states";
import { useTRPC } from "~/trpc/react";
import styles from "./workflow.module.css";

function Diff({ id, from, to }: { id: string; from: number; to: number }) {
  const trpc = useTRPC();
  const diff = useQuery(trpc.workflows.diff.queryOptions({ id, from, to }));
  if (diff.isPending) return <Loading label="Comparing versions…" />;
  if (diff.isError)
    return (
      <ErrorState
        title="Could not compare the versions"
        error={diff.error}
        retry={() => void diff.refetch()}
      />
    );
  const changed = diff.data.files.filter((f) => f.change !== "unchanged");
  if (changed.length === 0)
    return (
      <p className="muted">
        Versions {from} and {to} have the same files.
      </p>
    );
  return (
    <div className={styles.versions} data-testid="version-diff">
      {changed.map((f) => (
        <section key={f.path} className={styles.diffFile} aria-label={`Changes to ${f.path}`}>
          <h3 className={styles.diffHead}>
            {f.path} <span className="muted small">({f.change})</span>
          </h3>
          <LineDiff lines={f.lines} label={`Diff of ${f.path}, version ${from} to ${to}`} />
        </section>
      ))}
    </div>
  );
}

function RunVersion({ id, number, versionId }: { id: string; number: number; versionId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const version = useQuery(trpc.workflows.version.queryOptions({ id, number }));
  const start = useMutation(
    trpc.runs.start.mutationOptions({ onSuccess: (run) => router.push(`/runs/${run.id}`) }),
  );
  if (version.isPending) return <Loading label={`Loading version ${number}…`} />;
  if (version.isError)
    return <ErrorState error={version.error} retry={() => void version.refetch()} />;
  const location = (start.error?.shape?.data as { location?: { path?: string } | null } | undefined)
    ?.location;
  return (
    <section className="card" aria-label={`Run version ${number}`}>
      <h3>Run version {number}</h3>
      <InputForm
        inputs={version.data.inputs}
        pending={start.isPending}
        serverError={start.error ? { message: start.error.message, path: location?.path } : null}
        submitLabel={`Start version ${number}`}
        onSubmit={(inputs) => start.mutate({ workflowId: id, versionId, inputs })}
      />
    </section>
  );
}

export function VersionsPanel({ id, canRun }: { id: string; canRun: boolean }) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.workflows.versions.queryOptions({ id }));
  const [pair, setPair] = useState<{ from?: number; to?: number }>({});
  const [running, setRunning] = useState<number | null>(null);
  if (versions.isPending) return <Loading label="Loading versions…" />;
  if (versions.isError)
    return (
      <ErrorState
        title="Could not load the versions"
        error={versions.error}
        retry={() => void versions.refetch()}
      />
    );
  const list = versions.data.versions;
  if (list.length === 0) return <EmptyState title="No saved versions yet" />;
  const from = pair.from ?? list[1]?.number ?? list[0]!.number;
  const to = pair.to ?? list[0]!.number;
  const chosen = running === null ? undefined : list.find((v) => v.number === running);
  return (
    <div className={styles.versions}>
      <div className={styles.tableBox}>
        <table className={styles.versionTable} aria-label="Versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Saved by</th>
              <th scope="col">When</th>
              {canRun ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {list.map((v) => (
              <tr key={v.id} data-version={v.number}>
                <td>
                  v{v.number} {v.current ? <span className="badge">current</span> : null}
                </td>
                <td>
                  {v.createdBy ? (
                    (v.createdBy.name ?? v.createdBy.email)
                  ) : (
                    <span className="muted">unknown</span>
                  )}
                </td>
                <td>
                  <LocalTime value={v.createdAt} />
                </td>
                {canRun ? (
                  <td>
                    <button
                      type="button"
                      onClick={() => setRunning(v.number)}
                      aria-label={`Run version ${v.number}`}
                    >
                      Run…
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {chosen ? (
        <RunVersion key={chosen.id} id={id} number={chosen.number} versionId={chosen.id} />
      ) : null}
      <h2>Compare versions</h2>
      {list.length < 2 ? (
        <p className="muted">There is one version; save a change to compare.</p>
      ) : (
        <>
          <div className={styles.diffControls}>
            <label>
              From
              <select
                value={from}
                onChange={(e) => setPair((p) => ({ ...p, from: Number(e.target.value), to }))}
              >
                {list.map((v) => (
                  <option key={v.id} value={v.number}>
                    v{v.number}
                  </option>
                ))}
              </select>
            </label>
            <label>
              To
              <select
                value={to}
                onChange={(e) => setPair((p) => ({ ...p, to: Number(e.target.value), from }))}
              >
                {list.map((v) => (
                  <option key={v.id} value={v.number}>
                    v{v.number}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <Diff id={id} from={from} to={to} />
        </>
      )}
    </div>
  );
}
