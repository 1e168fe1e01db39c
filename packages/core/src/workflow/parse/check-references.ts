/**
 * Checks every template and condition of a workflow: each parses, and each path it reads
 * names a known namespace, a declared input, an existing state and a real state field;
 * `loop.*` outside a loop body warns.
 */
import { isAppError } from "../../errors/app-error";
import { pathsOf } from "../expression/expression";
import { suggestName } from "./suggest-name";
import { normaliseField, STATE_FIELDS } from "../model/state-fields";
import { expressionsOf, workflowTexts, type WorkflowText } from "./workflow-texts";
import type { Workflow } from "../model/workflow-types";
import { locate, report, type Diagnostics } from "./yaml-reader";

const NAMESPACES = ["inputs", "states", "env", "workflow", "error", "loop", "context"];

/** States that run inside some loop body (directly, or as a branch or body nested in one). */
const statesInLoops = (wf: Workflow): Set<string> => {
  const inside = new Set<string>();
  const add = (names: string[]) => names.forEach((n) => inside.add(n));
  for (const s of wf.states.values()) if (s.kind === "for_each" || s.kind === "while") add(s.body);
  for (let grew = true; grew;) {
    const before = inside.size;
    for (const name of [...inside]) {
      const s = wf.states.get(name);
      if (s?.kind === "parallel") add(s.branches);
    }
    grew = inside.size > before;
  }
  return inside;
};

export const checkReferences = (wf: Workflow, diag: Diagnostics) => {
  const inLoops = statesInLoops(wf);
  const inputs = wf.inputs.map((i) => i.name);
  const states = [...wf.states.keys()];
  const checkPath = (parts: string[], where: { path: string; line?: number; column?: number }) => {
    const [ns, name, field] = parts;
    const bad = (message: string) =>
      report(diag, "error", "WORKFLOW.VALIDATION.INVALID_REFERENCE", message, where);
    if (ns === undefined) return;
    if (!NAMESPACES.includes(ns)) {
      const hint = suggestName(ns, NAMESPACES);
      return bad(
        `unknown namespace "${ns}"${hint ? ` (did you mean "${hint}"?)` : ` (one of ${NAMESPACES.join(", ")})`}`,
      );
    }
    if (ns === "inputs" && name !== undefined && !inputs.includes(name)) {
      const hint = suggestName(name, inputs);
      return bad(`input "${name}" is not declared${hint ? ` (did you mean "${hint}"?)` : ""}`);
    }
    if (ns === "states" && name !== undefined) {
      if (!wf.states.has(name)) {
        const hint = suggestName(name, states);
        return bad(`state "${name}" does not exist${hint ? ` (did you mean "${hint}"?)` : ""}`);
      }
      if (
        field !== undefined &&
        !STATE_FIELDS.some((f) => normaliseField(f) === normaliseField(field))
      ) {
        const hint = suggestName(field, STATE_FIELDS);
        return bad(
          `states.${name} has no field "${field}"${hint ? ` (did you mean "${hint}"?)` : ""}`,
        );
      }
    }
  };
  const check = (
    text: string,
    kind: WorkflowText["kind"],
    where: { path: string; line?: number; column?: number },
    loopBound = false,
  ) => {
    try {
      for (const e of expressionsOf(text, kind)) {
        for (const p of pathsOf(e)) {
          checkPath(p, where);
          if (p[0] === "loop" && !loopBound) {
            report(
              diag,
              "warning",
              "WORKFLOW.VALIDATION.LOOP_OUTSIDE_LOOP",
              "loop.* is only bound inside a loop body; here it is empty",
              where,
            );
          }
        }
      }
    } catch (error) {
      if (!isAppError(error)) throw error;
      report(diag, "error", error.code, error.message, where);
    }
  };
  for (const { text, kind, path, state } of workflowTexts(wf)) {
    if (!state) {
      check(text, kind, locate(diag, path, { path }));
      continue;
    }
    const { state: s, field } = state;
    const loopState =
      (s.kind === "for_each" || s.kind === "while") &&
      (field === "while" || field === "break_when");
    check(text, kind, locate(diag, path, s.source), inLoops.has(s.name) || loopState);
  }
};
