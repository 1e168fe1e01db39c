/**
 * The states of a parsed workflow and the transitions between them, as nodes and edges a
 * picture can be drawn from: parallel branches and loop bodies are grouped under the state
 * that runs them (their own transitions are ignored by the engine, so they draw none), a
 * loop's last body state points back at the loop, a call_workflow state names the
 * sub-workflow it runs, and terminal states carry their status.
 */
import type { State, Workflow } from "../model/workflow-types";

type GraphNodeKind = State["kind"];

export type GraphNode = {
  /** The state's name. */
  id: string;
  kind: GraphNodeKind;
  /** The parallel or loop state this state runs under, if any. */
  group?: string;
  /** For a parallel or loop state: the states it runs, in order. */
  children?: string[];
  /** For a terminal state. */
  terminalStatus?: "success" | "failure";
  /** For a call_workflow state: the workflow it calls. */
  workflow?: string;
  /** For an agent state: its provider. */
  provider?: string;
  /** `on_failure: {message}`: the run ends here with this message when the state fails. */
  failMessage?: string;
};

export type GraphEdgeKind =
  "success" | "failure" | "transition" | "branch" | "body" | "next" | "loop_back" | "complete";

export type GraphEdge = {
  from: string;
  to: string;
  kind: GraphEdgeKind;
  /** A transition's `when`, or "otherwise" for one without. */
  label?: string;
};

export type WorkflowGraph = { initial: string; nodes: GraphNode[]; edges: GraphEdge[] };

const groupChildren = (state: State): string[] | undefined => {
  switch (state.kind) {
    case "parallel":
      return state.branches;
    case "for_each":
    case "while":
      return state.body;
    case "step":
    case "agent":
    case "terminal":
    case "call_workflow":
    case "operation":
      return undefined;
    default: {
      const never: never = state;
      return never;
    }
  }
};

const nodeOf = (state: State, group: string | undefined): GraphNode => {
  const node: GraphNode = { id: state.name, kind: state.kind };
  if (group !== undefined) node.group = group;
  const children = groupChildren(state);
  if (children) node.children = [...children];
  if (state.kind === "terminal") node.terminalStatus = state.status;
  if (state.kind === "call_workflow") node.workflow = state.workflow;
  if (state.kind === "agent") node.provider = state.provider;
  if (state.kind === "operation") node.provider = state.operation;
  if (state.kind !== "terminal" && typeof state.onFailure === "object")
    node.failMessage = state.onFailure.message;
  return node;
};

export const workflowGraph = (workflow: Pick<Workflow, "initial" | "states">): WorkflowGraph => {
  const states = [...workflow.states.values()];
  // The first parallel or loop that names a state owns it.
  const owner = new Map<string, string>();
  for (const s of states)
    for (const child of groupChildren(s) ?? [])
      if (!owner.has(child) && child !== s.name && workflow.states.has(child))
        owner.set(child, s.name);

  const nodes = states.map((s) => nodeOf(s, owner.get(s.name)));
  const edges: GraphEdge[] = [];
  const add = (from: string, to: string | undefined, kind: GraphEdgeKind, label?: string) => {
    if (to === undefined || !workflow.states.has(to)) return;
    edges.push(label === undefined ? { from, to, kind } : { from, to, kind, label });
  };
  for (const s of states) {
    if (s.kind === "parallel") for (const b of s.branches) add(s.name, b, "branch");
    if (s.kind === "for_each" || s.kind === "while") {
      add(s.name, s.body[0], "body");
      s.body.forEach((b, i) => {
        const next = s.body[i + 1];
        if (next !== undefined) add(b, next, "next");
      });
      const last = s.body[s.body.length - 1];
      if (last !== undefined) add(last, s.name, "loop_back");
      add(s.name, s.onComplete, "complete");
    }
    if (s.kind === "terminal" || owner.has(s.name)) continue;
    if (!(s.kind === "for_each" || s.kind === "while") || s.onSuccess !== s.onComplete)
      add(s.name, s.onSuccess, "success");
    if (typeof s.onFailure === "string") add(s.name, s.onFailure, "failure");
    for (const t of s.transitions) add(s.name, t.goto, "transition", t.when ?? "otherwise");
  }
  return { initial: workflow.initial, nodes, edges };
};
