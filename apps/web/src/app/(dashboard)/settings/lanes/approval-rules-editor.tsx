"use client";
/**
 * A lane's "Tool calls that need approval": rules by tool name pattern (`*` any run of
 * characters), Bash narrowed by a regular expression its command matches, Write and Edit by
 * a path prefix a write falls outside of. Saved whole; a rule the server refuses shows its
 * message at the field it names (`rules[1].command`).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { FormFooter, formError } from "../connectors/form-parts";

type Rule = { tool: string; command?: string; outside?: string };
type Draft = { tool: string; command: string; outside: string };

const WRITERS = ["Write", "Edit"];

const draftOf = (rule: Rule): Draft => ({
  tool: rule.tool,
  command: rule.command ?? "",
  outside: rule.outside ?? "",
});

/** The rule as sent: a narrowing only where the tool takes it, and only when given. */
const ruleOf = (d: Draft): Rule => ({
  tool: d.tool.trim(),
  ...(d.tool.trim() === "Bash" && d.command !== "" ? { command: d.command } : {}),
  ...(WRITERS.includes(d.tool.trim()) && d.outside.trim() !== ""
    ? { outside: d.outside.trim() }
    : {}),
});

/** One line per rule, for the lanes table. */
export const approvalSummary = (rules: readonly Rule[]) =>
  rules.map((r) =>
    r.command !== undefined
      ? `${r.tool} matching /${r.command}/`
      : r.outside !== undefined
        ? `${r.tool} outside ${r.outside}`
        : r.tool,
  );

export function ApprovalRulesEditor(props: { lane: string; rules: Rule[]; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.lanes.setApprovalRules.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.lanes.list.queryKey() });
        props.onDone();
      },
    }),
  );
  const [drafts, setDrafts] = useState<Draft[]>(() => props.rules.map(draftOf));
  const error = formError(save.error);
  /** `rules[1].command` → the rule and the field at fault. */
  const at = /^rules\[(\d+)\](?:\.(\w+))?/.exec(error?.path ?? "");
  const faultOf = (i: number) => (at && Number(at[1]) === i ? (at[2] ?? "tool") : null);
  const change = (i: number, patch: Partial<Draft>) => {
    save.reset();
    setDrafts(drafts.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  };
  const title = `Tool calls that need approval in lane ${props.lane}`;

  return (
    <form
      className="card settings-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ name: props.lane, rules: drafts.map(ruleOf) });
      }}
    >
      <h3>Tool calls that need approval</h3>
      <p className="muted small">
        A call of a matching tool in a run of lane <code>{props.lane}</code> waits for a
        person&apos;s approval. A tool is named by pattern (<code>github_merge_*</code>,{" "}
        <code>*_delete_*</code>); <code>Bash</code> may be narrowed to commands matching a regular
        expression, <code>Write</code> and <code>Edit</code> to writes outside a path. Workflows may
        add rules for their steps, never remove these.
      </p>
      {drafts.length === 0 ? (
        <p className="muted small">No rules: no tool call in this lane waits for approval.</p>
      ) : null}
      {drafts.map((draft, i) => {
        const fault = faultOf(i);
        const errorId = `approval-rule-${i}-error`;
        const invalid = (field: string) =>
          fault === field ? { "aria-invalid": true, "aria-describedby": errorId } : {};
        const tool = draft.tool.trim();
        return (
          <fieldset key={i} className="rule" data-approval-rule={i}>
            <legend>Rule {i + 1}</legend>
            <div className="form-grid">
              <label>
                Tool pattern
                <input
                  value={draft.tool}
                  onChange={(e) => change(i, { tool: e.target.value })}
                  placeholder="github_merge_*"
                  required
                  {...invalid("tool")}
                />
              </label>
              {tool === "Bash" ? (
                <label>
                  Command matches (regular expression, empty: every command)
                  <input
                    value={draft.command}
                    onChange={(e) => change(i, { command: e.target.value })}
                    placeholder="^git push"
                    {...invalid("command")}
                  />
                </label>
              ) : null}
              {WRITERS.includes(tool) ? (
                <label>
                  Outside path (empty: every write)
                  <input
                    value={draft.outside}
                    onChange={(e) => change(i, { outside: e.target.value })}
                    placeholder="src/"
                    {...invalid("outside")}
                  />
                </label>
              ) : null}
            </div>
            {fault ? (
              <p id={errorId} className="error small field-error" role="alert">
                {error!.message}
              </p>
            ) : null}
            <button
              type="button"
              className="link"
              onClick={() => {
                save.reset();
                setDrafts(drafts.filter((_, j) => j !== i));
              }}
            >
              Remove rule {i + 1}
            </button>
          </fieldset>
        );
      })}
      <div>
        <button
          type="button"
          onClick={() => setDrafts([...drafts, { tool: "", command: "", outside: "" }])}
        >
          Add a rule
        </button>
      </div>
      <FormFooter
        error={at && Number(at[1]) < drafts.length ? null : error}
        fields={[]}
        submit="Save rules"
        pending={save.isPending}
        onCancel={props.onDone}
      />
    </form>
  );
}
