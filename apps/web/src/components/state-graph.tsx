"use client";
/**
 * Draws a workflow's states and transitions (from core's workflowGraph) as an SVG, laid out
 * by core's layoutGraph, inside its own horizontally scrolling box. With `statusByState`
 * (a run's state statuses) each state is coloured and labelled with its status. Screen
 * readers get a text alternative and a list of the states and transitions.
 */
import type { GraphEdge, GraphNode, WorkflowGraph } from "@switchyard/core/workflow/graph";
import { layoutGraph } from "@switchyard/core/workflow/graph-layout";
import { useId, useMemo } from "react";
import styles from "./state-graph.module.css";

export type StateRunStatus =
  "queued" | "running" | "succeeded" | "failed" | "skipped" | "cancelled";

const STATUS_MARK: Record<StateRunStatus, string> = {
  queued: "◷ queued",
  running: "▶ running",
  succeeded: "✓ succeeded",
  failed: "✗ failed",
  skipped: "– skipped",
  cancelled: "⊘ cancelled",
};

const EDGE_WORDS: Record<GraphEdge["kind"], string> = {
  success: "on success",
  failure: "on failure",
  transition: "when",
  branch: "runs in parallel",
  body: "loop body starts with",
  next: "then",
  loop_back: "repeats",
  complete: "when the loop completes",
};

const kindText = (n: GraphNode): string => {
  switch (n.kind) {
    case "terminal":
      return `terminal · ${n.terminalStatus ?? "success"}`;
    case "call_workflow":
      return `calls ${n.workflow ?? "?"}`;
    case "agent":
      return n.provider ? `agent · ${n.provider}` : "agent";
    case "operation":
      return n.provider ?? "operation";
    case "for_each":
    case "while":
      return `${n.kind} ↻`;
    case "step":
    case "parallel":
      return n.kind;
    default: {
      const never: never = n.kind;
      return never;
    }
  }
};

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const edgeClass = (e: GraphEdge, back: boolean) =>
  [
    styles.edge,
    e.kind === "failure" ? styles.edgeFailure : "",
    e.kind === "transition" ? styles.edgeTransition : "",
    back ? styles.edgeBack : "",
  ].join(" ");

const describeEdge = (e: GraphEdge) =>
  e.kind === "transition"
    ? `${e.from} → ${e.to} ${e.label === "otherwise" ? "otherwise" : `when ${e.label ?? ""}`}`
    : `${e.from} → ${e.to} (${EDGE_WORDS[e.kind]})`;

export function StateGraph({
  graph,
  statusByState,
  label = "Workflow graph",
}: {
  graph: WorkflowGraph;
  statusByState?: Record<string, StateRunStatus | undefined>;
  label?: string;
}) {
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const layout = useMemo(() => layoutGraph(graph), [graph]);
  const summary = `${label}: ${graph.nodes.length} states, ${graph.edges.length} transitions, starting at ${graph.initial}.`;
  const arrow = `${id}-arrow`;
  return (
    <div
      className={styles.box}
      tabIndex={0}
      role="group"
      aria-label={label}
      data-testid="state-graph"
    >
      <svg
        className={styles.svg}
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="img"
        aria-label={summary}
      >
        <defs>
          <marker
            id={arrow}
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" className={styles.arrow} />
          </marker>
        </defs>
        {layout.boxes
          .filter((b) => b.isGroup)
          .map((b) => (
            <g key={b.id} data-state={b.id} data-kind={b.node.kind}>
              <rect
                x={b.x}
                y={b.y}
                width={b.w}
                height={b.h}
                rx={8}
                className={`${styles.group} ${statusClass(statusByState?.[b.id])}`}
              />
              <text x={b.x + 8} y={b.y + 16} className={styles.name}>
                {clip(b.id, Math.floor(b.w / 8))}
                <tspan className={styles.kind}>
                  {" "}
                  {kindText(b.node)}
                  {statusByState?.[b.id] ? ` · ${STATUS_MARK[statusByState[b.id]!]}` : ""}
                </tspan>
              </text>
            </g>
          ))}
        {layout.edges
          .filter((e) => e.points.length > 0)
          .map((e, i) => (
            <g key={`${e.from}-${e.to}-${i}`}>
              <polyline
                points={e.points.map(([x, y]) => `${x},${y}`).join(" ")}
                className={edgeClass(e, e.back)}
                markerEnd={`url(#${arrow})`}
              />
              {e.label && e.labelAt ? (
                <text x={e.labelAt[0] + 4} y={e.labelAt[1]} className={styles.label}>
                  {clip(e.label, 28)}
                </text>
              ) : null}
            </g>
          ))}
        {layout.boxes
          .filter((b) => !b.isGroup)
          .map((b) => {
            const status = statusByState?.[b.id];
            const cls = [
              styles.node,
              b.id === graph.initial ? styles.initial : "",
              b.node.kind === "terminal"
                ? b.node.terminalStatus === "failure"
                  ? styles.terminalFailure
                  : styles.terminalSuccess
                : "",
              statusClass(status),
            ].join(" ");
            return (
              <g key={b.id} data-state={b.id} data-kind={b.node.kind} data-status={status}>
                <title>{`${b.id} (${kindText(b.node)})${status ? `: ${status}` : ""}`}</title>
                <rect
                  x={b.x}
                  y={b.y}
                  width={b.w}
                  height={b.h}
                  rx={b.node.kind === "terminal" ? b.h / 2 : 6}
                  className={cls}
                />
                <text x={b.x + b.w / 2} y={b.y + 18} textAnchor="middle" className={styles.name}>
                  {clip(b.id, 19)}
                </text>
                <text x={b.x + b.w / 2} y={b.y + 34} textAnchor="middle" className={styles.kind}>
                  {status ? STATUS_MARK[status] : clip(kindText(b.node), 24)}
                </text>
              </g>
            );
          })}
      </svg>
      <div className={styles.srOnly}>
        <p>{summary}</p>
        <ul aria-label="States">
          {graph.nodes.map((n) => (
            <li key={n.id}>
              {n.id}: {kindText(n)}
              {n.group ? `, inside ${n.group}` : ""}
              {statusByState?.[n.id] ? `, ${statusByState[n.id]}` : ""}
            </li>
          ))}
        </ul>
        <ul aria-label="Transitions">
          {graph.edges.map((e, i) => (
            <li key={i}>{describeEdge(e)}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

const statusClass = (s: StateRunStatus | undefined) => (s ? (styles[`status-${s}`] ?? "") : "");
