/**
 * What each agent attempt of the run has spent, live from its `step.spend` events: tokens,
 * cost and calls per tool, against every limit that applies to it (the step's own, its
 * workflow's, lane's and team's), so a step stopped with USER.BUDGET.EXCEEDED shows which.
 */
import type { RunEvent } from "./use-run-events";

type Limit = {
  scope: string;
  period?: string;
  name?: string;
  amount: string;
  spent: number;
  max: number;
};
type Spend = {
  stepRunId: string;
  state: string;
  attempt: number;
  spend: { costUsd: number; tokens: number; calls: Record<string, number> };
  limits: Limit[];
};

const spendOf = (e: RunEvent): Spend | undefined => {
  if (e.type !== "step.spend") return undefined;
  const p = e.payload as Partial<Spend> | null;
  return typeof p?.stepRunId === "string" && p.spend && Array.isArray(p.limits)
    ? (p as Spend)
    : undefined;
};

const usd = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;
const amountText = (l: Limit, n: number) => (l.amount === "cost_usd" ? usd(n) : String(n));
const what = (l: Limit) =>
  l.amount === "cost_usd" ? "cost" : l.amount === "tokens" ? "tokens" : l.amount.slice(6);
const where = (l: Limit) =>
  `${l.scope}${l.name === undefined ? "" : ` "${l.name}"`}${l.period ? `, per ${l.period}` : ""}`;

export function StepSpend({ events }: { events: RunEvent[] }) {
  const latest = new Map<string, Spend>();
  for (const e of events) {
    const s = spendOf(e);
    if (s) latest.set(s.stepRunId, s);
  }
  if (latest.size === 0) return null;
  return (
    <section aria-label="Spend">
      <h2>Spend</h2>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th>Step</th>
              <th>Tokens</th>
              <th>Cost</th>
              <th>Calls</th>
              <th>Against its limits</th>
            </tr>
          </thead>
          <tbody>
            {[...latest.values()].map((s) => (
              <tr key={s.stepRunId} data-step-spend={s.state}>
                <td>
                  {s.state} <span className="muted small">attempt {s.attempt}</span>
                </td>
                <td data-tokens>{s.spend.tokens}</td>
                <td data-cost>{usd(s.spend.costUsd)}</td>
                <td>
                  {Object.entries(s.spend.calls)
                    .map(([tool, n]) => `${tool} ×${n}`)
                    .join(", ") || "none"}
                </td>
                <td>
                  <ul className="budget-spend">
                    {s.limits.map((l) => (
                      <li
                        key={`${where(l)}:${l.amount}`}
                        data-limit={l.scope}
                        className={l.spent >= l.max ? "error" : undefined}
                      >
                        {what(l)}: {amountText(l, l.spent)} of {amountText(l, l.max)} ({where(l)})
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
