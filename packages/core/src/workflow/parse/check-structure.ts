/**
 * Whole-workflow checks that need every state read first: targets exist, the initial
 * state exists, unreachable states and missing terminals warn, plain-transition cycles
 * warn (the engine bounds them); then the references of every template and condition, and
 * the values that shell commands would hand to a second shell.
 */
import { checkReferences } from "./check-references";
import { checkShellSafety } from "./check-shell-safety";
import { suggestName } from "./suggest-name";
import type { State, Workflow } from "../model/workflow-types";
import { codes, locate, report, type Diagnostics } from "./yaml-reader";

type Edge = { from: string; to: string; field: string; flow: boolean };

const edgesOf = (s: State): Edge[] => {
  const out: Edge[] = [];
  const add = (to: string | undefined, field: string, flow = true) => {
    if (to !== undefined) out.push({ from: s.name, to, field, flow });
  };
  if (s.kind === "terminal") return out;
  add(s.onSuccess, "on_success");
  if (typeof s.onFailure === "string") add(s.onFailure, "on_failure");
  s.transitions.forEach((t, i) => add(t.goto, `transitions[${i}].goto`));
  switch (s.kind) {
    case "parallel":
      s.branches.forEach((b, i) => add(b, `parallel[${i}]`, false));
      break;
    case "for_each":
    case "while":
      s.body.forEach((b, i) => add(b, `body[${i}]`, false));
      add(s.onComplete, "on_complete");
      break;
    case "step":
    case "agent":
    case "call_workflow":
    case "operation":
      break;
    default: {
      const never: never = s;
      return never;
    }
  }
  return out;
};

export const checkStructure = (wf: Workflow, diag: Diagnostics) => {
  const names = [...wf.states.keys()];
  const at = (s: State, field?: string) =>
    field ? locate(diag, `${s.source.path}.${field}`, s.source) : s.source;
  const missing = (target: string, where: { path: string; line?: number; column?: number }) => {
    if (diag.declaredStates?.has(target)) return;
    const hint = suggestName(target, names);
    report(
      diag,
      "error",
      codes.missingState,
      `state "${target}" does not exist${hint ? ` (did you mean "${hint}"?)` : ""}`,
      where,
    );
  };
  if (!wf.states.has(wf.initial)) missing(wf.initial, { path: "states.initial" });

  // `continue_from` names an earlier agent step of this workflow with the same provider
  // (a session of one CLI cannot be resumed by another); whether it ran first is the run's to say.
  for (const s of wf.states.values()) {
    const from = s.kind === "agent" ? s.conversation?.continueFrom : undefined;
    if (s.kind !== "agent" || from === undefined || from.includes("{{")) continue;
    const where = s.conversation?.continueFromSource ?? at(s, "conversation.continue_from");
    const target = wf.states.get(from);
    if (!target) missing(from, where);
    else if (target.kind !== "agent")
      report(
        diag,
        "error",
        codes.invalid,
        `continue_from: step "${from}" is not an agent step, so it has no session to resume`,
        where,
      );
    else if (
      !target.provider.includes("{{") &&
      !s.provider.includes("{{") &&
      target.provider !== s.provider
    )
      report(
        diag,
        "error",
        codes.invalid,
        `continue_from: step "${from}" runs ${target.provider}, and a ${target.provider} session cannot be resumed by ${s.provider} (keep the provider of both steps the same)`,
        where,
      );
  }

  const edges = [...wf.states.values()].flatMap(edgesOf);
  for (const e of edges)
    if (!wf.states.has(e.to)) missing(e.to, at(wf.states.get(e.from)!, e.field));

  // Reachability over every edge; branch and body children are reached through their owner.
  const out = new Map<string, string[]>();
  for (const e of edges) {
    if (!wf.states.has(e.to)) continue;
    const list = out.get(e.from);
    if (list) list.push(e.to);
    else out.set(e.from, [e.to]);
  }
  const reached = new Set<string>();
  const queue = wf.states.has(wf.initial) ? [wf.initial] : [];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (reached.has(name)) continue;
    reached.add(name);
    queue.push(...(out.get(name) ?? []));
  }
  for (const s of wf.states.values()) {
    if (!reached.has(s.name) && wf.states.has(wf.initial)) {
      report(
        diag,
        "warning",
        "WORKFLOW.VALIDATION.UNREACHABLE_STATE",
        `state "${s.name}" can never be reached from "${wf.initial}"`,
        at(s),
      );
    }
  }
  if (
    wf.states.has(wf.initial) &&
    ![...reached].some((n) => wf.states.get(n)?.kind === "terminal")
  ) {
    report(
      diag,
      "warning",
      "WORKFLOW.VALIDATION.NO_TERMINAL",
      "no terminal state is reachable: the run ends where a state has nowhere to go",
      { path: "states" },
    );
  }
  checkCycles(wf, edges, diag);
  checkReferences(wf, diag);
  checkShellSafety(wf, diag);
};

const checkCycles = (wf: Workflow, edges: Edge[], diag: Diagnostics) => {
  // Children of a loop or parallel state have their transitions ignored, so skip them.
  const children = new Set(edges.filter((e) => !e.flow).map((e) => e.to));
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!e.flow || children.has(e.from) || !wf.states.has(e.to)) continue;
    const list = next.get(e.from);
    if (list) list.push(e.to);
    else next.set(e.from, [e.to]);
  }
  const colour = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const reported = new Set<string>();
  const visit = (n: string) => {
    colour.set(n, 1);
    stack.push(n);
    for (const m of next.get(n) ?? []) {
      if (colour.get(m) === 1) {
        const cycle = [...stack.slice(stack.indexOf(m)), m];
        const key = [...new Set(cycle)].sort().join(",");
        if (!reported.has(key)) {
          reported.add(key);
          report(
            diag,
            "warning",
            "WORKFLOW.VALIDATION.CYCLE_DETECTED",
            `cycle ${cycle.join(" -> ")} is bounded only by the run's transition limit; prefer a while loop with max_iterations`,
            wf.states.get(m)!.source,
          );
        }
      } else if (!colour.has(m)) visit(m);
    }
    stack.pop();
    colour.set(n, 2);
  };
  for (const n of wf.states.keys()) if (!colour.has(n)) visit(n);
};
