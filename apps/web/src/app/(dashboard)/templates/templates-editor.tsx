"use client";
/**
 * The team's step templates: a list with each one's version and parameters, and an editor
 * that checks a template as AWF reads it and saves it as a new version.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { EditorDiagnostic } from "~/components/code-editor";
import { CodeEditor } from "~/components/lazy-code-editor";
import { CheckAndSave, DeletePinnedButton, EmptyRow } from "~/components/library-controls";
import { useTRPC } from "~/trpc/react";

const STARTER = `name: my-template
parameters:
  - name: prompt
    required: true
  - name: timeout
    default: 120
states:
  my-template:
    type: step
    command: echo "{{parameters.prompt}}"
    timeout: "{{parameters.timeout}}"
`;

type Diagnostic = { code: string; message: string; line?: number; column?: number };

const diagnosticsOf = (error: unknown): Diagnostic[] => {
  const data = (error as { data?: { details?: { diagnostics?: Diagnostic[] } } } | null)?.data;
  return data?.details?.diagnostics ?? [];
};

export function TemplatesEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.templates.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.templates.list.queryKey() });
  const [form, setForm] = useState({ name: "", description: "", content: STARTER });
  const [checked, setChecked] = useState<{ for: string; errors: Diagnostic[] } | null>(null);
  const validate = useMutation(
    trpc.templates.validate.mutationOptions({
      onSuccess: (r, input) => setChecked({ for: input.content, errors: r.errors }),
    }),
  );
  const save = useMutation(
    trpc.templates.save.mutationOptions({
      onSuccess: () => {
        setChecked(null);
        void refresh();
      },
      onError: (e, input) => setChecked({ for: input.content, errors: diagnosticsOf(e) }),
    }),
  );
  const remove = useMutation(trpc.templates.delete.mutationOptions({ onSuccess: refresh }));
  const edit = async (name: string) => {
    const t = await queryClient.fetchQuery(trpc.templates.get.queryOptions({ name }));
    setForm({ name: t.name, description: t.description, content: t.content });
    setChecked(null);
  };
  const editorDiagnostics: EditorDiagnostic[] = (checked?.errors ?? []).map((d) => ({
    severity: "error",
    ...d,
  }));
  const failed = save.error ?? remove.error;

  return (
    <>
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Version</th>
            <th>Parameters</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(list.data ?? []).map((t) => (
            <tr key={t.name}>
              <td>
                <code>{t.name}</code>
                {t.description ? <div className="muted small">{t.description}</div> : null}
              </td>
              <td>v{t.version}</td>
              <td>
                {t.parameters.map((p) => (p.required ? `${p.name} (required)` : p.name)).join(", ")}
              </td>
              <td>
                <button type="button" className="link" onClick={() => void edit(t.name)}>
                  Edit
                </button>{" "}
                <DeletePinnedButton
                  what="template"
                  name={t.name}
                  onDelete={() => remove.mutate({ name: t.name })}
                />
              </td>
            </tr>
          ))}
          {list.data?.length === 0 ? <EmptyRow columns={4}>No templates yet.</EmptyRow> : null}
        </tbody>
      </table>
      <form
        className="card"
        aria-label="Template"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(form);
        }}
      >
        <label>
          Name
          <input
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            placeholder="my-template"
            required
          />
        </label>
        <label>
          Description
          <input
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
          />
        </label>
        <CodeEditor
          label="template.yaml"
          value={form.content}
          onChange={(content) => setForm((f) => ({ ...f, content }))}
          complete={false}
          diagnostics={editorDiagnostics}
          diagnosticsFor={checked?.for}
          minLines={12}
        />
        {checked && checked.for === form.content ? (
          checked.errors.length === 0 ? (
            <p className="ok-text" role="status">
              No problems.
            </p>
          ) : (
            <ul className="error" role="alert">
              {checked.errors.map((d, i) => (
                <li key={i}>
                  {d.line ? `line ${d.line}: ` : ""}
                  {d.message} <code>{d.code}</code>
                </li>
              ))}
            </ul>
          )
        ) : null}
        {failed && diagnosticsOf(failed).length === 0 ? (
          <p className="error" role="alert">
            {failed.message}
          </p>
        ) : null}
        <CheckAndSave
          canCheck={!!form.name && !validate.isPending}
          onCheck={() => validate.mutate(form)}
          saving={save.isPending}
          saved={save.data}
        />
      </form>
    </>
  );
}
