"use client";
/**
 * The page a workflow lives on: its name, lane and current version with a Run button
 * (members and up) that opens the start form generated from its inputs, then tabs for the
 * editor beside its graph, the saved versions with their diffs, its runs, its examples with
 * their suite replays, and its triggers.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type KeyboardEvent, type ReactNode } from "react";
import { InputForm } from "~/components/input-form";
import { ErrorState, Loading } from "~/components/states";
import { WorkflowEditor } from "~/components/workflow-editor";
import { useTRPC } from "~/trpc/react";
import { can, useRole } from "~/trpc/use-role";
import { ExamplesPanel } from "./examples-panel";
import { VersionsPanel } from "./versions-panel";
import styles from "./workflow.module.css";

const TABS = ["editor", "versions", "runs", "examples", "triggers"] as const;
type Tab = (typeof TABS)[number];
const TAB_LABEL: Record<Tab, string> = {
  editor: "Editor and graph",
  versions: "Versions",
  runs: "Runs",
  examples: "Examples",
  triggers: "Triggers",
};

/** What a version pinned from a team library: each name with the library version it is. */
const pinnedList = (pins: { name: string; version: number | null }[], copy: string) =>
  pins.map((p) => `${p.name} ${p.version === null ? copy : `v${p.version}`}`).join(", ");

export function WorkflowView({
  id,
  saved,
  nonce,
  triggers,
}: {
  id: string;
  saved?: string;
  nonce?: string;
  triggers?: ReactNode;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const role = useRole();
  const workflow = useQuery(trpc.workflows.get.queryOptions({ id }));
  const start = useMutation(
    trpc.runs.start.mutationOptions({ onSuccess: (run) => router.push(`/runs/${run.id}`) }),
  );
  const [tab, setTab] = useState<Tab>("editor");
  const [starting, setStarting] = useState(false);
  if (workflow.isPending) return <Loading label="Loading the workflow…" />;
  if (workflow.isError)
    return (
      <ErrorState
        title="Could not load this workflow"
        error={workflow.error}
        retry={() => void workflow.refetch()}
      />
    );
  const w = workflow.data;
  const canRun = can(role, "member");
  const tabs = TABS.filter((t) => t !== "triggers" || triggers !== undefined);
  const location = (start.error?.shape?.data as { location?: { path?: string } | null } | undefined)
    ?.location;

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = tabs.indexOf(tab);
    const next =
      e.key === "ArrowRight"
        ? tabs[(i + 1) % tabs.length]
        : e.key === "ArrowLeft"
          ? tabs[(i - 1 + tabs.length) % tabs.length]
          : undefined;
    if (!next) return;
    e.preventDefault();
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };

  return (
    <>
      <p className="muted small">
        <Link href="/workflows">Workflows</Link> / {w.name}
      </p>
      <div className={styles.header}>
        <h1>{w.name}</h1>
        <div className={styles.meta}>
          <span>lane {w.lane}</span>
          <span>version {w.version}</span>
          {w.pack ? (
            <span data-testid="from-pack">
              from pack <Link href={`/packs#${w.pack}`}>{w.pack}</Link>
            </span>
          ) : null}
          {w.git ? (
            <span data-testid="from-git">
              from git <Link href="/settings/git">{w.git.path}</Link>
              {w.git.commitId ? <> at {w.git.commitId.slice(0, 12)}</> : null}
            </span>
          ) : null}
          {w.templates.length > 0 ? (
            <span data-testid="pinned-templates">
              templates {pinnedList(w.templates, "(bundle copy)")}
            </span>
          ) : null}
          {w.skills.length > 0 ? (
            <span data-testid="pinned-skills">
              library skills {pinnedList(w.skills, "(deleted from the library)")}
            </span>
          ) : null}
        </div>
        <span className={styles.spacer} />
        {canRun ? (
          <button
            type="button"
            className="primary"
            aria-expanded={starting}
            aria-controls="start-run"
            onClick={() => setStarting((s) => !s)}
          >
            Run
          </button>
        ) : null}
      </div>
      {w.description ? <p className="muted">{w.description}</p> : null}
      {saved ? (
        <p className="ok-text" role="status">
          Saved as version {saved}.
        </p>
      ) : null}
      {canRun && starting ? (
        <section
          id="start-run"
          className={`card ${styles.startPanel}`}
          aria-label={`Start ${w.name}`}
        >
          <h2>
            Start {w.name} (version {w.version})
          </h2>
          <InputForm
            inputs={w.inputs}
            pending={start.isPending}
            serverError={
              start.error ? { message: start.error.message, path: location?.path } : null
            }
            onSubmit={(inputs) =>
              start.mutate({ workflowId: w.id, versionId: w.versionId, inputs })
            }
          />
        </section>
      ) : null}
      <div role="tablist" aria-label="Workflow sections" className={styles.tabs}>
        {tabs.map((t) => (
          <button
            key={t}
            id={`tab-${t}`}
            type="button"
            role="tab"
            className={styles.tab}
            aria-selected={tab === t}
            aria-controls={`panel-${t}`}
            tabIndex={tab === t ? 0 : -1}
            onClick={() => setTab(t)}
            onKeyDown={onTabKey}
          >
            {TAB_LABEL[t]}
          </button>
        ))}
      </div>
      <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {tab === "editor" && w.pack ? (
          <p className="muted" role="note">
            This workflow comes from the workflow pack <code>{w.pack}</code> and is read-only here:
            installing the pack again (Packs page) makes its next version.
          </p>
        ) : null}
        {tab === "editor" && w.git ? (
          <p className="muted" role="note" data-testid="git-read-only">
            This workflow is synced from git and is read-only here: change <code>{w.git.path}</code>{" "}
            on branch <code>{w.git.branch}</code> of <code>{w.git.url}</code>, then sync it
            (Settings → Git, or a push webhook).
          </p>
        ) : null}
        {tab === "editor" ? (
          <WorkflowEditor
            key={w.bundleHash}
            initial={{ entry: w.entry, files: w.files }}
            nonce={nonce}
            canSave={can(role, "member") && !w.pack && !w.git}
          />
        ) : null}
        {tab === "versions" ? <VersionsPanel id={w.id} canRun={canRun} /> : null}
        {tab === "runs" ? (
          <div className={styles.runsLink}>
            <p>Every run of this workflow, newest first, with its status and who started it.</p>
            <p>
              <Link href={`/runs?workflow=${encodeURIComponent(w.id)}`}>Runs of {w.name} →</Link>
            </p>
          </div>
        ) : null}
        {tab === "examples" ? <ExamplesPanel workflowId={w.id} canRun={canRun} /> : null}
        {tab === "triggers" ? triggers : null}
      </div>
    </>
  );
}
