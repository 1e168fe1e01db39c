"use client";
import { useState } from "react";
import type { z } from "zod";
import type { stepActivityResponse } from "~/server/contract/runs.types";
import { toolErrorSummary } from "./agent-transcript";
import { JsonBlock } from "./json-block";

type ToolCall = z.output<typeof stepActivityResponse>["toolCalls"][number];

const durationOf = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

function ToolCallRow({ call }: { call: ToolCall }) {
  const [open, setOpen] = useState(false);
  const summary = call.isError ? toolErrorSummary(call.result) : null;
  return (
    <li className={call.isError ? "tool-call failed" : "tool-call"} data-testid="tool-call" data-tool={call.toolName}>
      <button type="button" className="tool-call-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="tool-toggle">{open ? "▾" : "▸"}</span>
        <code className="tool-name">{call.toolName}</code>
        <span className="badge badge-source" title={call.fidelity === "agent_reported" ? "reported by the agent" : "seen by the step's proxy"}>
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

/** An agent step's tool calls in the order they started; each one opens to its arguments and result. */
export function ToolCallList({ calls, truncated }: { calls: ToolCall[]; truncated: boolean }) {
  return (
    <>
      {truncated ? <p className="muted small">Earlier tool calls are not shown.</p> : null}
      <ol className="tool-calls">
        {calls.map((c) => (
          <ToolCallRow key={c.id} call={c} />
        ))}
      </ol>
    </>
  );
}
