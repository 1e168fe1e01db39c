/**
 * What a limit's period has spent against each of its amounts, one line each (Settings →
 * Budgets and the overview): `$1.20 of $2.00`, `120000 of 200000 tokens`, `1 of 3 github_*`.
 */
import type { AppRouter } from "~/server/trpc/root";
import type { inferRouterOutputs } from "@trpc/server";
import { globMatches } from "@switchyard/core/governance/glob";

export type BudgetRow = inferRouterOutputs<AppRouter>["budgets"]["list"][number];

const usd = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;

/** Each amount of a limit with its spend: [label, spent, max]. */
export const amountsOf = (b: BudgetRow): [string, string, number, number][] => {
  const out: [string, string, number, number][] = [];
  if (b.cost_usd !== null)
    out.push([
      "cost",
      `${usd(b.spent.costUsd)} of ${usd(b.cost_usd)}`,
      b.spent.costUsd,
      b.cost_usd,
    ]);
  if (b.tokens !== null)
    out.push(["tokens", `${b.spent.tokens} of ${b.tokens} tokens`, b.spent.tokens, b.tokens]);
  for (const [pattern, max] of Object.entries(b.calls)) {
    const made = Object.entries(b.spent.calls)
      .filter(([tool]) => globMatches(pattern, tool))
      .reduce((n, [, count]) => n + count, 0);
    out.push([`calls ${pattern}`, `${made} of ${max} calls of ${pattern}`, made, max]);
  }
  return out;
};

export const placeOf = (b: BudgetRow) =>
  b.scope === "team" ? "Team" : `${b.scope === "lane" ? "Lane" : "Workflow"} ${b.targetName}`;

export function BudgetSpend({ budget }: { budget: BudgetRow }) {
  return (
    <ul className="budget-spend">
      {amountsOf(budget).map(([label, text, spent, max]) => (
        <li key={label} data-amount={label} className={spent >= max ? "error" : undefined}>
          <meter min={0} max={max} value={Math.min(spent, max)} high={max * 0.8} /> {text}
        </li>
      ))}
    </ul>
  );
}
