"use client";
/**
 * An audit log's entries newest first, fifty at a time, narrowed to the actions that start
 * with what the admin types (`connector.`, `lane.create`): the team's (the Audit log page)
 * or the installation's own (the Instance page).
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { LocalTime } from "~/components/local-time";
import { useTRPC } from "~/trpc/react";

const PREFIXES = {
  team: [
    "connector.",
    "connector.credential.",
    "connector.console.call",
    "lane.",
    "variable.",
    "model.",
    "member.",
    "api_token.",
  ],
  instance: ["instance.", "password_reset.", "account."],
} as const;

/** An entry's facts as `key: value` lines; nothing of a value is ever in them. */
function Facts({ metadata }: { metadata: unknown }) {
  const entries =
    metadata !== null && typeof metadata === "object"
      ? Object.entries(metadata as Record<string, unknown>)
      : [];
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="audit-meta">
      {entries.map(([k, v]) => (
        <li key={k}>
          <span className="muted">{k}:</span> {typeof v === "string" ? v : JSON.stringify(v)}
        </li>
      ))}
    </ul>
  );
}

export function AuditLog({ scope = "team" }: { scope?: "team" | "instance" }) {
  const trpc = useTRPC();
  const [typed, setTyped] = useState("");
  const [action, setAction] = useState("");
  const input = { limit: 50, ...(action ? { action } : {}) };
  const paging = { getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor };
  const log = useInfiniteQuery(
    scope === "instance"
      ? trpc.instance.audit.infiniteQueryOptions(input, paging)
      : trpc.audit.list.infiniteQueryOptions(input, paging),
  );
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <>
      <form
        className="audit-filter"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setAction(typed.trim());
        }}
      >
        <label>
          Action starts with
          <input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            list={`audit-prefixes-${scope}`}
            placeholder={PREFIXES[scope][0]}
          />
          <datalist id={`audit-prefixes-${scope}`}>
            {PREFIXES[scope].map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </label>
        <div className="form-actions">
          <button type="submit">Filter</button>
          {action ? (
            <button
              type="button"
              className="link"
              onClick={() => {
                setTyped("");
                setAction("");
              }}
            >
              Show all
            </button>
          ) : null}
        </div>
      </form>
      {log.error ? (
        <p className="error" role="alert">
          {log.error.message}
        </p>
      ) : null}
      <div className="table-scroll">
        <table
          className="table stack-table"
          aria-label={scope === "instance" ? "Instance audit log" : "Audit log"}
        >
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>Action</th>
              <th>On</th>
              <th>Details</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-action={e.action} data-target={e.targetId ?? ""}>
                <td className="small" data-label="When">
                  <LocalTime value={e.createdAt} />
                </td>
                <td className="small" data-label="Who">
                  {e.actor ? (
                    <>
                      {e.actor.name} <span className="muted">{e.actor.email}</span>
                    </>
                  ) : (
                    <span className="muted">{e.actorUserId ?? e.actorToken ?? "unknown"}</span>
                  )}
                </td>
                <td data-label="Action">
                  <code>{e.action}</code>
                </td>
                <td className="small" data-label="On">
                  {e.targetType} <code>{e.targetId}</code>
                </td>
                <td data-label="Details">
                  <Facts metadata={e.metadata} />
                  {e.requestId ? (
                    <div className="muted small wrap">request {e.requestId}</div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {log.isPending ? <p className="muted">Loading…</p> : null}
      {log.data && entries.length === 0 ? (
        <p className="muted">No entries{action ? ` for actions starting with "${action}"` : ""}.</p>
      ) : null}
      {log.hasNextPage ? (
        <div className="page-actions">
          <button
            type="button"
            onClick={() => void log.fetchNextPage()}
            disabled={log.isFetchingNextPage}
          >
            {log.isFetchingNextPage ? "Loading…" : "Older entries"}
          </button>
        </div>
      ) : null}
    </>
  );
}
