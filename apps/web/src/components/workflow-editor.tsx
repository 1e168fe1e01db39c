"use client";
/**
 * Edits a workflow bundle: the YAML and the files it references, each in a code editor.
 * Every change is validated on the server (debounced) with the same code that runs the
 * workflow, so the problems drawn at their line and column are exactly what saving would
 * refuse; beside it, the graph of the last version of the text that parsed.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useTRPC } from "~/trpc/react";
import type { EditorDiagnostic } from "./code-editor";
import { CodeEditor } from "./lazy-code-editor";
import { StateGraph } from "./state-graph";
import styles from "./workflow-editor.module.css";

type Bundle = { entry: string; files: Record<string, string> };
type Diagnostic = { code: string; message: string; line?: number; column?: number; file?: string };

const TEMPLATE = `name: my-workflow
description: What it does.
states:
  initial: hello
  hello:
    type: step
    command: echo "hello"
    on_success: done
  done:
    type: terminal
    status: success
`;

const where = (d: Diagnostic) =>
  d.line ? `${d.file ?? ""}:${d.line}:${d.column ?? 1}` : (d.file ?? "");

export function WorkflowEditor({
  initial,
  nonce,
  canSave = true,
}: {
  initial?: Bundle;
  nonce?: string;
  canSave?: boolean;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [bundle, setBundle] = useState<Bundle>(
    initial ?? { entry: "workflow.yaml", files: { "workflow.yaml": TEMPLATE } },
  );
  const [checked, setChecked] = useState<Bundle | null>(null);
  const [newPath, setNewPath] = useState("");
  const validate = useMutation(trpc.workflows.validate.mutationOptions());
  const templates = useQuery(trpc.templates.list.queryOptions()).data;
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.workflows.save.mutationOptions({
      onSuccess: async (r) => {
        // The page's workflow, versions and list now have a newer version.
        await queryClient.invalidateQueries({ queryKey: trpc.workflows.pathKey() });
        router.push(`/workflows/${r.workflowId}?saved=${r.version}`);
      },
    }),
  );
  const { mutate } = validate;
  const [graph, setGraph] = useState(validate.data?.graph ?? null);

  useEffect(() => {
    const t = setTimeout(
      () =>
        mutate(bundle, {
          onSuccess: (r) => {
            setChecked(bundle);
            if (r.graph) setGraph(r.graph);
          },
        }),
      300,
    );
    return () => clearTimeout(t);
  }, [bundle, mutate]);

  const setFile = (path: string, content: string) =>
    setBundle((b) => ({ ...b, files: { ...b.files, [path]: content } }));
  const removeFile = (path: string) =>
    setBundle((b) => ({
      ...b,
      files: Object.fromEntries(Object.entries(b.files).filter(([p]) => p !== path)),
    }));
  const errors: Diagnostic[] = validate.data?.errors ?? [];
  const warnings: Diagnostic[] = validate.data?.warnings ?? [];
  const saveError = save.error?.shape?.data as
    { details?: { diagnostics?: Diagnostic[] } } | undefined;
  const others = Object.keys(bundle.files)
    .filter((p) => p !== bundle.entry)
    .sort();
  const forFile = (path: string): EditorDiagnostic[] => [
    ...errors
      .filter((d) => (d.file ?? bundle.entry) === path)
      .map((d) => ({ ...d, severity: "error" as const })),
    ...warnings
      .filter((d) => (d.file ?? bundle.entry) === path)
      .map((d) => ({ ...d, severity: "warning" as const })),
  ];
  const stale = checked !== bundle;

  return (
    <div className={styles.layout}>
      <div className={styles.files}>
        <div>
          <p className={styles.fileHead} id="entry-file-label">
            <strong>{bundle.entry}</strong>
          </p>
          <CodeEditor
            label={`Workflow YAML (${bundle.entry})`}
            value={bundle.files[bundle.entry] ?? ""}
            onChange={(v) => setFile(bundle.entry, v)}
            nonce={nonce}
            diagnostics={forFile(bundle.entry)}
            diagnosticsFor={checked?.files[bundle.entry]}
            minLines={18}
            templates={templates}
          />
        </div>
        {others.map((path) => (
          <div key={path}>
            <p className={styles.fileHead}>
              <strong>{path}</strong>
              <button
                type="button"
                className="link"
                onClick={() => removeFile(path)}
                aria-label={`Remove file ${path}`}
              >
                remove
              </button>
            </p>
            <CodeEditor
              label={`File ${path}`}
              value={bundle.files[path] ?? ""}
              onChange={(v) => setFile(path, v)}
              nonce={nonce}
              complete={false}
              diagnostics={forFile(path)}
              diagnosticsFor={checked?.files[path]}
              minLines={6}
            />
          </div>
        ))}
        <form
          className={styles.addFile}
          onSubmit={(e) => {
            e.preventDefault();
            const p = newPath.trim();
            if (p && bundle.files[p] === undefined) setFile(p, "");
            setNewPath("");
          }}
        >
          <label className="inline">
            <span className="visually-hidden">New file path</span>
            <input
              placeholder="scripts/build.sh"
              value={newPath}
              onChange={(e) => setNewPath(e.target.value)}
            />
          </label>
          <button type="submit">Add file</button>
        </form>
      </div>
      <aside className={styles.side} aria-label="Checks and graph">
        <div className={styles.validation} data-testid="validation" aria-live="polite">
          {validate.isPending && !validate.data ? <p className="muted">Checking…</p> : null}
          {validate.data?.ok && !stale ? (
            <p className="ok-text">
              ✓ Valid{warnings.length ? `, ${warnings.length} warning(s)` : ""}
            </p>
          ) : null}
          {validate.data && !validate.data.ok ? (
            <p className="error">
              ✗ {errors.length} problem{errors.length === 1 ? "" : "s"}
            </p>
          ) : null}
          <ul className={styles.diagnostics}>
            {errors.map((d, i) => (
              <li key={`e${i}`} className="error">
                <code>{where(d)}</code> <strong>{d.code}</strong> {d.message}
              </li>
            ))}
            {warnings.map((d, i) => (
              <li key={`w${i}`} className="warn">
                <code>{where(d)}</code> <strong>{d.code}</strong> {d.message}
              </li>
            ))}
          </ul>
        </div>
        {save.isError ? (
          <div className="error" role="alert">
            {save.error.message}
            {saveError?.details?.diagnostics ? (
              <span> ({saveError.details.diagnostics.length} problems listed above)</span>
            ) : null}
          </div>
        ) : null}
        {canSave ? (
          <div className={styles.actions}>
            <button
              type="button"
              className="primary"
              disabled={save.isPending || validate.data?.ok === false}
              onClick={() => save.mutate(bundle)}
            >
              {save.isPending ? "Saving…" : "Save"}
            </button>
            <span className="muted small">
              Saving makes a new version; runs already started keep theirs.
            </span>
          </div>
        ) : (
          <p className="muted small">Viewers can read workflows; saving needs the member role.</p>
        )}
        <h2 className={styles.graphHead}>
          Graph{validate.data && !validate.data.ok && graph ? " (last valid text)" : ""}
        </h2>
        {graph ? (
          <StateGraph graph={graph} label="Graph of the workflow being edited" />
        ) : (
          <p className="muted small">The graph appears once the YAML is valid.</p>
        )}
      </aside>
    </div>
  );
}
