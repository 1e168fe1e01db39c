"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { can, useRole } from "~/trpc/use-role";
import { BudgetSpend, placeOf } from "./budget-spend";

type Scope = "team" | "lane" | "workflow";

/** `github_create_*: 1` lines into { pattern: count }; undefined when a line is not that. */
const callsOf = (text: string): Record<string, number> | undefined => {
  const calls: Record<string, number> = {};
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (line === "") continue;
    const m = /^([A-Za-z0-9_*-]+)\s*[:=]\s*(\d+)$/.exec(line);
    if (!m) return undefined;
    calls[m[1]!] = Number(m[2]);
  }
  return calls;
};

function BudgetForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const workflows = useQuery(trpc.workflows.list.queryOptions());
  const lanes = useQuery(trpc.lanes.list.queryOptions());
  const [scope, setScope] = useState<Scope>("team");
  const [target, setTarget] = useState("");
  const [period, setPeriod] = useState<"day" | "month">("month");
  const [cost, setCost] = useState("");
  const [tokens, setTokens] = useState("");
  const [calls, setCalls] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const set = useMutation(trpc.budgets.set.mutationOptions({ onSuccess: onDone }));
  return (
    <form
      className="card password-form"
      aria-label="Set a budget"
      onSubmit={(e) => {
        e.preventDefault();
        const parsedCalls = callsOf(calls);
        if (!parsedCalls) {
          setProblem('Calls: one "tool_pattern: count" per line');
          return;
        }
        setProblem(null);
        set.mutate({
          scope,
          target: scope === "team" ? "" : target,
          period,
          ...(cost.trim() === "" ? {} : { cost_usd: Number(cost) }),
          ...(tokens.trim() === "" ? {} : { tokens: Number(tokens) }),
          ...(Object.keys(parsedCalls).length > 0 ? { calls: parsedCalls } : {}),
        });
      }}
    >
      <label>
        Set on
        <select
          value={scope}
          onChange={(e) => {
            setScope(e.target.value as Scope);
            setTarget("");
          }}
        >
          <option value="team">the team</option>
          <option value="lane">a lane</option>
          <option value="workflow">a workflow</option>
        </select>
      </label>
      {scope === "lane" ? (
        <label>
          Lane
          <select value={target} onChange={(e) => setTarget(e.target.value)} required>
            <option value="">choose a lane</option>
            {(lanes.data ?? []).map((l) => (
              <option key={l.name} value={l.name}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {scope === "workflow" ? (
        <label>
          Workflow
          <select value={target} onChange={(e) => setTarget(e.target.value)} required>
            <option value="">choose a workflow</option>
            {(workflows.data ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label>
        Period
        <select value={period} onChange={(e) => setPeriod(e.target.value as "day" | "month")}>
          <option value="month">month (UTC)</option>
          <option value="day">day (UTC)</option>
        </select>
      </label>
      <label>
        Cost (USD)
        <input inputMode="decimal" value={cost} onChange={(e) => setCost(e.target.value)} />
      </label>
      <label>
        Tokens
        <input inputMode="numeric" value={tokens} onChange={(e) => setTokens(e.target.value)} />
      </label>
      <label>
        Calls per tool pattern, one per line
        <textarea
          rows={2}
          value={calls}
          onChange={(e) => setCalls(e.target.value)}
          placeholder="github_create_pull_request: 1"
        />
      </label>
      {problem || set.error ? (
        <p className="error" role="alert">
          {problem ?? set.error?.message}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={set.isPending}>
          Save
        </button>
        <button type="button" className="link" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function BudgetsEditor() {
  const trpc = useTRPC();
  const role = useRole();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.budgets.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.budgets.list.queryKey() });
  const remove = useMutation(trpc.budgets.remove.mutationOptions({ onSuccess: refresh }));
  const [adding, setAdding] = useState(false);
  const admin = can(role, "admin");
  return (
    <>
      {list.data && list.data.length === 0 ? <p className="muted">No budget is set.</p> : null}
      {list.data && list.data.length > 0 ? (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>Set on</th>
                <th>Period</th>
                <th>Spent of the limit</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.data.map((b) => (
                <tr key={b.id} data-budget={`${b.scope}:${b.targetName}:${b.period}`}>
                  <td>{placeOf(b)}</td>
                  <td>per {b.period}</td>
                  <td>
                    <BudgetSpend budget={b} />
                  </td>
                  <td className="right">
                    {admin ? (
                      <button
                        type="button"
                        className="link"
                        disabled={remove.isPending}
                        onClick={() => remove.mutate({ id: b.id })}
                      >
                        Remove
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {remove.error ? (
        <p className="error" role="alert">
          {remove.error.message}
        </p>
      ) : null}
      {admin && !adding ? (
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          Set a budget
        </button>
      ) : null}
      {adding ? (
        <BudgetForm
          onDone={() => {
            setAdding(false);
            void refresh();
          }}
        />
      ) : null}
    </>
  );
}
