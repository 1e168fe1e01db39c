/**
 * Every text of a workflow that the engine evaluates: templates (`{{ }}` inside) and
 * conditions, each with its YAML path and the state it belongs to. Reference checks and
 * the list of files a workflow reads both walk them, so neither misses a field.
 */
import { parseExpression, type Expr } from "../expression/expression";
import { parseTemplate } from "../expression/template";
import type { HookAction, State, Workflow } from "../model/workflow-types";

export type WorkflowText = {
  text: string;
  kind: "template" | "condition";
  /** Where it is in the YAML: `states.build.command`, `env.TOKEN`, `outputs[0].from`. */
  path: string;
  /** The state it belongs to and its field there; none for the workflow's env, outputs and hooks. */
  state?: { state: State; field: string };
};

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
    case "operation": {
      const walk = (v: unknown, field: string): void => {
        if (typeof v === "string") t(v, field);
        else if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${field}[${i}]`));
        else if (v && typeof v === "object")
          for (const [k, inner] of Object.entries(v)) walk(inner, `${field}.${k}`);
      };
      walk(s.inputs, "inputs");
      break;
    }
    default: {
      const never: never = s;
      return never;
    }
  }
  return out;
};

/** The states' texts in order, then the outputs, the env values and the workflow's hooks. */
export const workflowTexts = (wf: Workflow): WorkflowText[] => {
  const out: WorkflowText[] = [];
  for (const s of wf.states.values())
    for (const { text, field, kind } of textsOf(s))
      out.push({ text, kind, path: `${s.source.path}.${field}`, state: { state: s, field } });
  wf.outputs.forEach((o, i) =>
    out.push({
      text: o.from.replace(/^\{\{|\}\}$/g, ""),
      kind: "condition",
      path: `outputs[${i}].from`,
    }),
  );
  for (const e of wf.env)
    if (e.value !== undefined) out.push({ text: e.value, kind: "template", path: `env.${e.name}` });
  for (const [key, list] of Object.entries(wf.hooks)) {
    const yamlKey = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    list.forEach((h, i) =>
      out.push({
        text: h.kind === "command" ? h.command : h.message,
        kind: "template",
        path: `hooks.${yamlKey}[${i}]`,
      }),
    );
  }
  return out;
};

/** The expressions of a text: a condition's one, or each `{{ }}` action of a template. Throws AppError on a malformed one. */
export const expressionsOf = (text: string, kind: WorkflowText["kind"]): Expr[] =>
  kind === "condition"
    ? [parseExpression(text)]
    : parseTemplate(text).flatMap((p) => ("expr" in p ? [p.expr] : []));
