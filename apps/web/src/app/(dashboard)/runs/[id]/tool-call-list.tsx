"use client";
/**
 * An agent step's tool calls in the order they started, a page of 100 at a time read by
 * cursor (runs.toolCalls for this step attempt), so a step with ten thousand calls renders
 * as fast as one with a hundred. Each call opens to its arguments and result.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import type { runToolCallsResponse } from "~/server/contract/runs.types";
import { useTRPC } from "~/trpc/react";
import { toolErrorSummary } from "./agent-transcript";
import { JsonBlock } from "./json-block";
import styles from "./tool-call-list.module.css";
import { TOOL_CALL_PAGE } from "./page-sizes";

type ToolCall = z.output<typeof runToolCallsResponse>["toolCalls"][number];

const durationOf = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

function ToolCallRow({ call }: { call: ToolCall }) {
  const [open, setOpen] = useState(false);
  const summary = call.isError ? toolErrorSummary(call.result) : null;
  return (
    <li
      className={call.isError ? "tool-call failed" : "tool-call"}
      data-testid="tool-call"
      data-tool={call.toolName}
    >
      <button
        type="button"
        className="tool-call-head"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span className="tool-toggle">{open ? "▾" : "▸"}</span>
        <code className="tool-name">{call.toolName}</code>
        <span
          className="badge badge-source"
          title={
            call.fidelity === "agent_reported"
              ? "reported by the agent"
              : "seen by the step's proxy"
          }
        >
          {call.source}
        </span>
        <span className="muted small">{durationOf(call.durationMs)}</span>
        {call.isError ? (
          <span className="error small" data-testid="tool-error">
            {call.errorType ?? "error"}
            {summary ? `: ${summary}` : ""}
          </span>
        ) : null}
      </button>
      {open ? (
        <div className="tool-call-body">
          <JsonBlock label="Arguments" value={call.arguments} />
          <JsonBlock label="Result" value={call.result} />
        </div>
      ) : null}
    </li>
  );
}

/**
 * The step attempt's calls, a page at a time. `count` is how many the run page knows of;
 * `version` changes whenever the step's activity was read again (a pushed update), and the
 * last page, where new calls land, is read again with it. While the step runs and no update
 * stream is up, the page polls.
 */
export function StepToolCalls({
  runId,
  stepRunId,
  count,
  active,
  live,
  version,
}: {
  runId: string;
  stepRunId: string;
  count: number;
  active: boolean;
  live: boolean;
  version: number;
}) {
  const trpc = useTRPC();
  // The cursor each page visited so far starts after (the first page's is none).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const index = cursors.length - 1;
  const after = cursors[index];
  const page = useQuery({
    ...trpc.runs.toolCalls.queryOptions({
      id: runId,
      stepRunId,
      limit: TOOL_CALL_PAGE,
      ...(after ? { after } : {}),
    }),
    placeholderData: keepPreviousData,
    refetchInterval: active && !live ? 1000 : false,
  });
  const { refetch } = page;
  const onLastPage = page.data?.nextAfter === null;
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    if (onLastPage) void refetch();
  }, [version, onLastPage, refetch]);

  if (page.isPending) return <p className="muted small">Loading the tool calls…</p>;
  if (page.isError)
    return (
      <p className="error small" role="alert">
        The tool calls could not be loaded: {page.error.message}{" "}
        <button type="button" className="link small" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  const calls = page.data.toolCalls;
  if (calls.length === 0 && index === 0) return null;
  const first = index * TOOL_CALL_PAGE + 1;
  const last = index * TOOL_CALL_PAGE + calls.length;
  const total = Math.max(count, last);
  const paged = index > 0 || page.data.nextAfter !== null;
  // While a page loads the previous one stays on screen, and its cursors must not be used.
  const canGoBack = index > 0 && !page.isPlaceholderData;
  const nextAfter = page.isPlaceholderData ? null : page.data.nextAfter;
  return (
    <div className={styles.calls} data-testid="tool-calls">
      {paged ? (
        <nav className={styles.pager} aria-label="Pages of tool calls">
          <span className="muted small" aria-live="polite" data-testid="tool-call-range">
            Calls {first.toLocaleString("en")}–{last.toLocaleString("en")} of{" "}
            {total.toLocaleString("en")}
          </span>
          {/* aria-disabled, not disabled: a button that turns disabled under the keyboard drops its focus. */}
          <button
            type="button"
            aria-disabled={!canGoBack}
            onClick={() => canGoBack && setCursors(cursors.slice(0, -1))}
          >
            Previous
          </button>
          <button
            type="button"
            aria-disabled={!nextAfter}
            onClick={() => nextAfter && setCursors([...cursors, nextAfter])}
          >
            Next
          </button>
        </nav>
      ) : null}
      <ol className="tool-calls" start={first} aria-busy={page.isPlaceholderData}>
        {calls.map((c) => (
          <ToolCallRow key={c.id} call={c} />
        ))}
      </ol>
    </div>
  );
}
