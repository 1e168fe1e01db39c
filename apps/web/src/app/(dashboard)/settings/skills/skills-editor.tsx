"use client";
/**
 * The team's skills library: the skills with their descriptions and current versions, one
 * skill's earlier versions to read, and an editor that checks a SKILL.md against the
 * agentskills.io format (errors refuse it, warnings do not) and saves it as a new version.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { EditorDiagnostic } from "~/components/code-editor";
import { CodeEditor } from "~/components/lazy-code-editor";
import { CheckAndSave, DeletePinnedButton, EmptyRow } from "~/components/library-controls";
import { useTRPC } from "~/trpc/react";

const starter = (name: string) => `---
name: ${name}
description: What the skill teaches and when a step should use it.
---

Instructions the agent reads before the step's prompt.
`;

type Finding = { code: string; message: string; line?: number; column?: number };
type Checked = { for: string; errors: Finding[]; warnings: Finding[] };

const refusalOf = (error: unknown): Finding[] =>
  (error as { data?: { details?: { diagnostics?: Finding[] } } } | null)?.data?.details
    ?.diagnostics ?? [];

function Findings({ checked }: { checked: Checked }) {
  const all = [
    ...checked.errors.map((f) => ({ ...f, kind: "error" })),
    ...checked.warnings.map((f) => ({ ...f, kind: "warning" })),
  ];
  if (all.length === 0)
    return (
      <p className="ok-text" role="status">
        No problems.
      </p>
    );
  return (
    <ul className={checked.errors.length > 0 ? "error" : "muted"} role="alert">
      {all.map((f, i) => (
        <li key={i}>
          {f.kind}: {f.line ? `line ${f.line}: ` : ""}
          {f.message} <code>{f.code}</code>
        </li>
      ))}
    </ul>
  );
}

function Versions({ name, onClose }: { name: string; onClose: () => void }) {
  const trpc = useTRPC();
  const [number, setNumber] = useState<number | undefined>(undefined);
  const shown = useQuery(trpc.skills.get.queryOptions({ name, version: number }));
  return (
    <section className="card" aria-label={`Versions of ${name}`}>
      <h2>
        {name}{" "}
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </h2>
      <p>
        {(shown.data?.versions ?? []).map((v) => (
          <button
            key={v.number}
            type="button"
            className={v.number === shown.data?.shownVersion ? "primary" : "link"}
            onClick={() => setNumber(v.number)}
            title={new Date(v.createdAt).toLocaleString()}
          >
            v{v.number}
          </button>
        ))}
      </p>
      <textarea
        aria-label={`SKILL.md version ${shown.data?.shownVersion ?? ""}`}
        readOnly
        rows={12}
        value={shown.data?.content ?? ""}
      />
    </section>
  );
}

export function SkillsEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const skills = useQuery(trpc.skills.list.queryOptions());
  const reload = () => queryClient.invalidateQueries({ queryKey: trpc.skills.list.queryKey() });
  const [name, setName] = useState("");
  const [content, setContent] = useState(starter("my-skill"));
  const [checked, setChecked] = useState<Checked | null>(null);
  const [browsing, setBrowsing] = useState<string | null>(null);
  const check = useMutation(
    trpc.skills.validate.mutationOptions({
      onSuccess: (r, input) => setChecked({ for: input.content, ...r }),
    }),
  );
  const save = useMutation(
    trpc.skills.save.mutationOptions({
      onSuccess: (r, input) => {
        setChecked({ for: input.content, errors: [], warnings: r.warnings });
        void reload();
      },
      onError: (e, input) => setChecked({ for: input.content, errors: refusalOf(e), warnings: [] }),
    }),
  );
  const remove = useMutation(trpc.skills.delete.mutationOptions({ onSuccess: reload }));
  const open = async (skill: string) => {
    const current = await queryClient.fetchQuery(trpc.skills.get.queryOptions({ name: skill }));
    setName(current.name);
    setContent(current.content);
    setChecked(null);
  };
  const marks: EditorDiagnostic[] = [
    ...(checked?.errors ?? []).map((d) => ({ severity: "error" as const, ...d })),
    ...(checked?.warnings ?? []).map((d) => ({ severity: "warning" as const, ...d })),
  ];
  const failure = save.error ?? remove.error;

  return (
    <>
      <table className="table" aria-label="Skills">
        <thead>
          <tr>
            <th>Skill</th>
            <th>Description</th>
            <th>Version</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {skills.data?.map((s) => (
            <tr key={s.name}>
              <td>
                <code>{s.name}</code>
              </td>
              <td>{s.description}</td>
              <td>v{s.version}</td>
              <td>
                <button type="button" className="link" onClick={() => void open(s.name)}>
                  Edit
                </button>{" "}
                <button type="button" className="link" onClick={() => setBrowsing(s.name)}>
                  Versions
                </button>{" "}
                <DeletePinnedButton
                  what="skill"
                  name={s.name}
                  onDelete={() => remove.mutate({ name: s.name })}
                />
              </td>
            </tr>
          ))}
          {skills.data?.length === 0 ? (
            <EmptyRow columns={4}>The team has no skills yet.</EmptyRow>
          ) : null}
        </tbody>
      </table>
      {browsing ? (
        <Versions key={browsing} name={browsing} onClose={() => setBrowsing(null)} />
      ) : null}
      <form
        className="card"
        aria-label="Skill"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ name, content });
        }}
      >
        <label>
          Name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="go-conventions"
            pattern="[a-z0-9]+(-[a-z0-9]+)*"
            maxLength={64}
            required
          />
        </label>
        <CodeEditor
          label="SKILL.md"
          value={content}
          onChange={setContent}
          complete={false}
          diagnostics={marks}
          diagnosticsFor={checked?.for}
          minLines={12}
        />
        {checked && checked.for === content ? <Findings checked={checked} /> : null}
        {failure && refusalOf(failure).length === 0 ? (
          <p className="error" role="alert">
            {failure.message}
          </p>
        ) : null}
        <CheckAndSave
          canCheck={!!name && !check.isPending}
          onCheck={() => check.mutate({ name, content })}
          saving={save.isPending}
          saved={save.data}
        />
      </form>
    </>
  );
}
