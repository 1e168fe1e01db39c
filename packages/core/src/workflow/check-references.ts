/**
 * Checks every template and condition of a workflow: each parses, and each path it reads
 * names a known namespace, a declared input, an existing state and a real state field;
 * `loop.*` outside a loop body warns.
 */
import { isAppError } from "../errors/app-error";
import { parseExpression, pathsOf } from "./expression";
import { suggestName } from "./suggest-name";
import { normaliseField, STATE_FIELDS } from "./state-fields";
import { parseTemplate } from "./template";
import type { HookAction, State, Workflow } from "./workflow-types";
import { locate, report, type Diagnostics } from "./yaml-reader";

export const NAMESPACES = ["inputs", "states", "env", "workflow", "error", "loop", "context"];

/** Every text of a state that may hold `{{ }}` (kind "template") or is a condition. */
const textsOf = (s: State): { text: string; field: string; kind: "template" | "condition" }[] => {
  const out: { text: string; field: string; kind: "template" | "condition" }[] = [];
  const t = (text: string | undefined, field: string) =>
    text !== undefined && out.push({ text, field, kind: "template" });
  const c = (text: string | undefined, field: string) =>
    text !== undefined && out.push({ text, field, kind: "condition" });
  const hooks = (list: HookAction[], field: string) =>
    list.forEach((h, i) => t(h.kind === "command" ? h.command : h.message, `${field}[${i}]`));
  if (s.kind === "terminal") {
    t(s.message, "message");
    return out;
  }
  if (typeof s.onFailure === "object") t(s.onFailure.message, "on_failure.message");
  t(s.timeoutTemplate, "timeout");
  s.transitions.forEach((tr, i) => c(tr.when, `transitions[${i}].when`));
  hooks(s.hooks.pre, "hooks.pre");
  hooks(s.hooks.post, "hooks.post");
  switch (s.kind) {
    case "step":
      t(s.command, "command");
      t(s.dir, "dir");
      break;
    case "agent":
      t(s.prompt, "prompt");
      t(s.systemPrompt, "system_prompt");
      t(s.provider, "provider");
      t(s.role, "role");
      for (const [k, v] of Object.entries(s.options))
        if (typeof v === "string") t(v, `options.${k}`);
      break;
    case "parallel":
      break;
    case "for_each":
    case "while":
      if (s.kind === "for_each") t(s.items, "items");
      else c(s.condition, "while");
      if (typeof s.maxIterations === "string") t(s.maxIterations, "max_iterations");
      c(s.breakWhen, "break_when");
      break;
    case "call_workflow":
      for (const [k, v] of Object.entries(s.inputs)) t(v, `inputs.${k}`);
      break;
    default: {
      const never: never = s;
      return never;
    }
  }
  return out;
};

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
    kind: "template" | "condition",
    where: { path: string; line?: number; column?: number },
    loopBound = false,
  ) => {
    try {
      const exprs =
        kind === "condition"
          ? [parseExpression(text)]
          : parseTemplate(text).flatMap((p) => ("expr" in p ? [p.expr] : []));
      for (const e of exprs) {
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
  for (const s of wf.states.values()) {
    for (const { text, field, kind } of textsOf(s)) {
      const loopState =
        (s.kind === "for_each" || s.kind === "while") &&
        (field === "while" || field === "break_when");
      check(
        text,
        kind,
        locate(diag, `${s.source.path}.${field}`, s.source),
        inLoops.has(s.name) || loopState,
      );
    }
  }
  const top = (path: string) => locate(diag, path, { path });
  wf.outputs.forEach((o, i) =>
    check(o.from.replace(/^\{\{|\}\}$/g, ""), "condition", top(`outputs[${i}].from`)),
  );
  wf.env.forEach((e) => e.value !== undefined && check(e.value, "template", top(`env.${e.name}`)));
  for (const [key, list] of Object.entries(wf.hooks)) {
    const yamlKey = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    list.forEach((h, i) =>
      check(
        h.kind === "command" ? h.command : h.message,
        "template",
        top(`hooks.${yamlKey}[${i}]`),
      ),
    );
  }
};
