"use client";
/**
 * Edits a workflow bundle: the YAML and the files it references. Every change is
 * validated on the server with the same code that runs the workflow, so the problems
 * shown (with line and column) are exactly what saving would refuse.
 */
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useTRPC } from "~/trpc/react";

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

const where = (d: Diagnostic) => (d.line ? `${d.file ?? ""}:${d.line}:${d.column ?? 1}` : (d.file ?? ""));

export function WorkflowEditor({ initial }: { initial?: Bundle }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [bundle, setBundle] = useState<Bundle>(initial ?? { entry: "workflow.yaml", files: { "workflow.yaml": TEMPLATE } });
  const [newPath, setNewPath] = useState("");
  const validate = useMutation(trpc.workflows.validate.mutationOptions());
  const save = useMutation(
    trpc.workflows.save.mutationOptions({ onSuccess: (r) => router.push(`/workflows/${r.workflowId}?saved=${r.version}`) }),
  );
  const { mutate } = validate;

  useEffect(() => {
    const t = setTimeout(() => mutate(bundle), 300);
    return () => clearTimeout(t);
  }, [bundle, mutate]);

  const setFile = (path: string, content: string) => setBundle((b) => ({ ...b, files: { ...b.files, [path]: content } }));
  const removeFile = (path: string) =>
    setBundle((b) => ({ ...b, files: Object.fromEntries(Object.entries(b.files).filter(([p]) => p !== path)) }));
  const errors: Diagnostic[] = validate.data?.errors ?? [];
  const warnings: Diagnostic[] = validate.data?.warnings ?? [];
  const saveError = save.error?.shape?.data as { details?: { diagnostics?: Diagnostic[] } } | undefined;
  const others = Object.keys(bundle.files).filter((p) => p !== bundle.entry).sort();

  return (
    <div className="editor">
      <div className="editor-files">
        <label>
          {bundle.entry}
          <textarea
            aria-label="Workflow YAML"
            className="code"
            spellCheck={false}
            rows={22}
            value={bundle.files[bundle.entry] ?? ""}
            onChange={(e) => setFile(bundle.entry, e.target.value)}
          />
        </label>
        {others.map((path) => (
          <label key={path}>
            <span className="file-head">
              {path}{" "}
              <button type="button" className="link" onClick={() => removeFile(path)}>
                remove
              </button>
            </span>
            <textarea
              aria-label={`File ${path}`}
              className="code"
              spellCheck={false}
              rows={8}
              value={bundle.files[path]}
              onChange={(e) => setFile(path, e.target.value)}
            />
          </label>
        ))}
        <form
          className="add-file"
          onSubmit={(e) => {
            e.preventDefault();
            const p = newPath.trim();
            if (p && bundle.files[p] === undefined) setFile(p, "");
            setNewPath("");
          }}
        >
          <input aria-label="New file path" placeholder="scripts/build.sh" value={newPath} onChange={(e) => setNewPath(e.target.value)} />
          <button type="submit">Add file</button>
        </form>
      </div>
      <aside className="editor-side">
        <div className="validation" data-testid="validation" aria-live="polite">
          {validate.isPending && !validate.data ? <p className="muted">Checking…</p> : null}
          {validate.data?.ok ? <p className="ok-text">✓ Valid{warnings.length ? `, ${warnings.length} warning(s)` : ""}</p> : null}
          <ul className="diagnostics">
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
            {saveError?.details?.diagnostics ? <span> ({saveError.details.diagnostics.length} problems listed above)</span> : null}
          </div>
        ) : null}
        <button type="button" className="primary" disabled={save.isPending || validate.data?.ok === false} onClick={() => save.mutate(bundle)}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
      </aside>
    </div>
  );
}
