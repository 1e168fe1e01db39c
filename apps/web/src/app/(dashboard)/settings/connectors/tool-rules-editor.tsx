"use client";
/**
 * A connector's tool rules, per lane and for every lane (`*`): patterns of tools denied,
 * and optionally the only ones allowed (`*` matches any run of characters; a deny wins; a
 * lane's list only narrows the one for every lane). Saved as the connector's definition
 * with the rest unchanged.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { FormFooter, formError } from "./form-parts";
import { useConnectorsRefresh } from "./use-connectors-refresh";
import { nameOf, type Listing } from "./listing";

type Rule = { lane: string; deny: string; allow: string };
type LaneRule = { allow?: string[]; deny?: string[] };

const patterns = (text: string) =>
  text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter((p) => p !== "");

const rulesOf = (toolAllow: unknown): Rule[] =>
  Object.entries((toolAllow as Record<string, LaneRule> | undefined) ?? {}).map(([lane, r]) => ({
    lane,
    deny: (r.deny ?? []).join("\n"),
    allow: (r.allow ?? []).join("\n"),
  }));

const toolAllowOf = (rules: Rule[]) =>
  Object.fromEntries(
    rules.map((r) => {
      const deny = patterns(r.deny);
      const allow = patterns(r.allow);
      return [
        r.lane,
        { ...(deny.length > 0 ? { deny } : {}), ...(allow.length > 0 ? { allow } : {}) },
      ];
    }),
  );

/** Summary of a connector's rules for its card: `default: deny delete_*`. */
export const rulesSummary = (toolAllow: unknown) =>
  rulesOf(toolAllow)
    .map(
      (r) =>
        `${r.lane === "*" ? "every lane" : r.lane}: ${[r.deny && `deny ${patterns(r.deny).join(", ")}`, r.allow && `only ${patterns(r.allow).join(", ")}`].filter(Boolean).join("; ")}`,
    )
    .join(" · ");

export function ToolRulesEditor(props: {
  listing: Listing;
  teamLanes: string[];
  onDone: () => void;
}) {
  const { listing } = props;
  const trpc = useTRPC();
  const update = useMutation(
    trpc.connectors.update.mutationOptions({ onSuccess: useConnectorsRefresh(props.onDone) }),
  );
  const [rules, setRules] = useState<Rule[]>(() => rulesOf(listing.definition.tool_allow));
  const lanesOfConnector = Array.isArray(listing.definition.lanes)
    ? (listing.definition.lanes as string[])
    : [];
  const choices = ["*", ...(lanesOfConnector.includes("*") ? props.teamLanes : lanesOfConnector)];
  const unused = choices.filter((l) => !rules.some((r) => r.lane === l));
  const error = formError(update.error);
  /** `tool_allow.<lane>.deny[0]` → the lane and the list at fault. */
  const at = /^tool_allow\.([^.[]+)(?:\.(allow|deny))?/.exec(error?.path ?? "");
  const change = (i: number, patch: Partial<Rule>) =>
    setRules(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const name = nameOf(listing);

  return (
    <form
      className="card settings-form"
      aria-label={`Tool rules of ${name}`}
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({
          id: listing.id,
          definition: { ...listing.definition, tool_allow: toolAllowOf(rules) },
        });
      }}
    >
      <h3>Tool rules of {name}</h3>
      <p className="muted small">
        Patterns of the server&apos;s tool names, one per line; <code>*</code> matches anything. A
        denied tool is never offered; with an allow list, only matching tools are. A lane&apos;s
        rule narrows the one for every lane.
      </p>
      {rules.length === 0 ? (
        <p className="muted small">No rules: every lane that reaches it may use all its tools.</p>
      ) : null}
      {rules.map((rule, i) => {
        const laneLabel = rule.lane === "*" ? "every lane" : `lane ${rule.lane}`;
        const fault = at?.[1] === rule.lane ? (at[2] ?? "lane") : null;
        const errorId = `rule-${i}-error`;
        return (
          <fieldset key={rule.lane} className="rule">
            <legend>Rule for {laneLabel}</legend>
            <div className="form-grid">
              <label>
                Denied tools
                <textarea
                  rows={2}
                  value={rule.deny}
                  onChange={(e) => change(i, { deny: e.target.value })}
                  placeholder="delete_*"
                  {...(fault === "deny"
                    ? { "aria-invalid": true, "aria-describedby": errorId }
                    : {})}
                />
              </label>
              <label>
                Only these tools (empty: all)
                <textarea
                  rows={2}
                  value={rule.allow}
                  onChange={(e) => change(i, { allow: e.target.value })}
                  {...(fault === "allow"
                    ? { "aria-invalid": true, "aria-describedby": errorId }
                    : {})}
                />
              </label>
            </div>
            {fault ? (
              <p id={errorId} className="error small field-error" role="alert">
                {error!.message}
              </p>
            ) : null}
            <button
              type="button"
              className="link"
              onClick={() => setRules(rules.filter((_, j) => j !== i))}
            >
              Remove this rule
            </button>
          </fieldset>
        );
      })}
      {unused.length > 0 ? (
        <label>
          Add a rule for
          <select
            value=""
            onChange={(e) =>
              e.target.value && setRules([...rules, { lane: e.target.value, deny: "", allow: "" }])
            }
          >
            <option value="">choose a lane…</option>
            {unused.map((l) => (
              <option key={l} value={l}>
                {l === "*" ? "every lane (*)" : l}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <FormFooter
        error={at && rules.some((r) => r.lane === at[1]) ? null : error}
        fields={[]}
        submit="Save rules"
        pending={update.isPending}
        onCancel={props.onDone}
      />
    </form>
  );
}
