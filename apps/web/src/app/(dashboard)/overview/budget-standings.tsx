"use client";
/**
 * The overview's budgets: every limit of the team (Settings → Budgets) with what its
 * current UTC day or month has spent against it. Nothing when the team set none.
 */
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";
import { BudgetSpend, placeOf } from "../settings/budgets/budget-spend";

export function BudgetStandings() {
  const trpc = useTRPC();
  const budgets = useQuery(trpc.budgets.list.queryOptions());
  if (!budgets.data || budgets.data.length === 0) return null;
  return (
    <section className="card" aria-labelledby="budgets">
      <h2 id="budgets">Budgets</h2>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Set on</th>
              <th scope="col">Period</th>
              <th scope="col">Spent of the limit</th>
            </tr>
          </thead>
          <tbody>
            {budgets.data.map((b) => (
              <tr key={b.id} data-budget={`${b.scope}:${b.targetName}:${b.period}`}>
                <td>{placeOf(b)}</td>
                <td>this {b.period} (UTC)</td>
                <td>
                  <BudgetSpend budget={b} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">
        <Link href="/settings/budgets">Settings → Budgets</Link>
      </p>
    </section>
  );
}
