"use client";
/**
 * The team's runs: filters kept in the URL (status tabs with counts, workflow, lane,
 * trigger, who started it, a time range), newest first, more pages on demand, refreshed
 * while any listed run is still queued or running.
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { LocalTime } from "~/components/local-time";
import { EmptyState, ErrorState, Loading } from "~/components/states";
import { StatusBadge } from "~/components/status-badge";
import { useTRPC } from "~/trpc/react";
import {
  filtersQuery,
  listInput,
  readFilters,
  RUN_STATUSES,
  STATUS_LABELS,
  RUN_TRIGGERS,
  type RunFilters,
} from "./run-filters";
import styles from "./runs.module.css";

const duration = (from: Date | null, to: Date | null) => {
  if (!from) return "–";
  const ms = (to ?? new Date()).getTime() - from.getTime();
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
};

export function RunList() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const filters = readFilters(new URLSearchParams(useSearchParams().toString()));
  const set = (change: Partial<RunFilters>) =>
    router.replace(`${pathname}${filtersQuery({ ...filters, ...change })}`, { scroll: false });

  const workflows = useQuery(trpc.workflows.list.queryOptions());
  const lanes = useQuery(trpc.lanes.list.queryOptions());
  const starters = useQuery(trpc.runs.starters.queryOptions());
  const runs = useInfiniteQuery({
    ...trpc.runs.list.infiniteQueryOptions(
      { ...listInput(filters), limit: 50 },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) =>
        p.runs.some((r) => r.status === "queued" || r.status === "running"),
      )
        ? 2000
        : 10_000,
  });
  const list = runs.data?.pages.flatMap((p) => p.runs) ?? [];
  const counts = runs.data?.pages[0]?.counts;
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  const filtered = Object.values(filters).some((v) => v !== undefined);

  return (
    <>
      <div role="group" aria-label="Status" className={styles.tabs}>
        <button
          type="button"
          className={styles.tab}
          aria-pressed={!filters.status}
          onClick={() => set({ status: undefined })}
        >
          All{total !== undefined ? ` (${total})` : ""}
        </button>
        {RUN_STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            className={styles.tab}
            aria-pressed={filters.status === s}
            data-status-tab={s}
            onClick={() => set({ status: s })}
          >
            {STATUS_LABELS[s] ?? s}
            {counts ? ` (${counts[s]})` : ""}
          </button>
        ))}
      </div>
      <form
        className={styles.filters}
        role="search"
        aria-label="Filter runs"
        onSubmit={(e) => e.preventDefault()}
      >
        <label>
          Workflow
          <select
            value={filters.workflowId ?? ""}
            onChange={(e) => set({ workflowId: e.target.value || undefined })}
          >
            <option value="">Any</option>
            {workflows.data?.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Lane
          <select
            value={filters.lane ?? ""}
            onChange={(e) => set({ lane: e.target.value || undefined })}
          >
            <option value="">Any</option>
            {lanes.data?.map((l) => (
              <option key={l.name} value={l.name}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Trigger
          <select
            value={filters.trigger ?? ""}
            onChange={(e) => set({ trigger: RUN_TRIGGERS.find((t) => t === e.target.value) })}
          >
            <option value="">Any</option>
            {RUN_TRIGGERS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Started by
          <select
            value={filters.startedBy ?? ""}
            onChange={(e) => set({ startedBy: e.target.value || undefined })}
          >
            <option value="">Anyone</option>
            {starters.data?.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name || u.email}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input
            type="datetime-local"
            value={filters.from ?? ""}
            onChange={(e) => set({ from: e.target.value || undefined })}
          />
        </label>
        <label>
          To
          <input
            type="datetime-local"
            value={filters.to ?? ""}
            onChange={(e) => set({ to: e.target.value || undefined })}
          />
        </label>
        {filtered ? (
          <button
            type="button"
            className="link"
            onClick={() => router.replace(pathname, { scroll: false })}
          >
            Clear filters
          </button>
        ) : null}
      </form>
      {runs.isPending ? (
        <Loading label="Loading runs…" />
      ) : runs.isError ? (
        <ErrorState
          title="The runs could not be loaded"
          error={runs.error}
          retry={() => void runs.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState title={filtered ? "No runs match these filters" : "No runs yet"}>
          {filtered ? (
            "Change or clear the filters to see more."
          ) : (
            <>
              Start one from <Link href="/workflows">Workflows</Link>.
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <div className={styles.tableBox}>
            <table className="table" data-testid="run-list">
              <thead>
                <tr>
                  <th scope="col">Workflow</th>
                  <th scope="col">Status</th>
                  <th scope="col">Trigger</th>
                  <th scope="col">Started by</th>
                  <th scope="col">Created</th>
                  <th scope="col">Duration</th>
                </tr>
              </thead>
              <tbody>
                {list.map((r) => (
                  <tr key={r.id} data-run={r.id}>
                    <td>
                      <Link href={`/runs/${r.id}`}>{r.workflow.name}</Link>
                      {r.rerunOfId ? <span className="muted small"> (re-run)</span> : null}
                    </td>
                    <td>
                      <StatusBadge status={r.status} />
                    </td>
                    <td>{r.trigger}</td>
                    <td>{r.startedBy?.name ?? "–"}</td>
                    <td>
                      <LocalTime value={r.createdAt} />
                    </td>
                    <td>{duration(r.startedAt, r.finishedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {runs.hasNextPage ? (
            <p className={styles.more}>
              <button
                type="button"
                onClick={() => void runs.fetchNextPage()}
                disabled={runs.isFetchingNextPage}
              >
                {runs.isFetchingNextPage ? "Loading…" : "Load older runs"}
              </button>
            </p>
          ) : null}
        </>
      )}
    </>
  );
}
