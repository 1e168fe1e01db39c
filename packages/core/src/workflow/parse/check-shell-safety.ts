/**
 * Validation of every shell text of a workflow (step commands and hook commands) for
 * values that a second shell would parse again (nested-shell.ts): each is reported as
 * USER.TEMPLATE.NESTED_SHELL at the line and column of the `{{ }}` inside the YAML.
 */
import { isMap, isScalar, isSeq, type Scalar } from "yaml";
import { CODES } from "../../errors/error-codes";
import { normaliseField, STATE_FIELDS } from "../model/state-fields";
import type { Expr } from "../expression/expression";
import { variableOf } from "../shell/shell-variables";
import { checkShellText, type ShellCheck } from "../expression/template";
import type { Workflow } from "../model/workflow-types";
import { deref, report, sourceOf, type Diagnostics } from "./yaml-reader";

const NUMERIC_STATE_FIELDS = new Set([
  "exitcode",
  "tokensused",
  "tokensinput",
  "tokensoutput",
  "tokensestimated",
  "attempts",
]);
const NUMERIC_LOOP_FIELDS = new Set(["index", "index1", "length", "first", "last"]);

/** What is a number in this workflow whatever the run: typed inputs, exit codes, loop indexes. */
export const shellCheckOf = (wf: Workflow): ShellCheck => {
  const inputs = new Set(
    wf.inputs.filter((i) => ["integer", "number", "boolean"].includes(i.type)).map((i) => i.name),
  );
  const numericPath = (parts: string[]) => {
    const [ns, name, field, ...rest] = parts;
    if (ns === "inputs") return name !== undefined && field === undefined && inputs.has(name);
    if (ns === "states")
      return (
        field !== undefined && rest.length === 0 && NUMERIC_STATE_FIELDS.has(normaliseField(field))
      );
    if (ns === "loop")
      return (
        name !== undefined && field === undefined && NUMERIC_LOOP_FIELDS.has(normaliseField(name))
      );
    return false;
  };
  const numeric = (e: Expr): boolean => {
    switch (e.t) {
      case "lit":
        return typeof e.v !== "string" || /^(-?\d+(\.\d+)?)?$/.test(e.v);
      case "path":
        return numericPath(e.parts);
      case "not":
        return true;
      case "bin":
        return e.op !== "+" || (numeric(e.l) && numeric(e.r));
      case "call":
        return false;
      default: {
        const never: never = e;
        return never;
      }
    }
  };
  const numericVariables = new Set([
    ...[...inputs].map((n) => variableOf(["inputs", n])),
    ...[...wf.states.keys()].flatMap((s) =>
      STATE_FIELDS.filter((f) => NUMERIC_STATE_FIELDS.has(normaliseField(f))).map((f) =>
        variableOf(["states", s, f]),
      ),
    ),
    ...[...NUMERIC_LOOP_FIELDS].map((f) => variableOf(["loop", f])),
  ]);
  return { numeric, numericVariables };
};

/** The offset in the YAML source of `offset` inside a scalar's value, when it can be told. */
const offsetInSource = (diag: Diagnostics, node: Scalar, value: string, offset: number) => {
  const range = node.range;
  if (!diag.source || !range) return undefined;
  const raw = diag.source.slice(range[0], range[1]);
  // A `{{` cannot come from an escape, so the k-th one of the value is the k-th of the source.
  const byMark = () => {
    if (!value.startsWith("{{", offset)) return undefined;
    const k = value.slice(0, offset).split("{{").length - 1;
    let at = -2;
    for (let n = 0; n <= k; n++) {
      at = raw.indexOf("{{", at + 2);
      if (at < 0) return undefined;
    }
    return range[0] + at;
  };
  switch (node.type) {
    case "PLAIN":
      return raw === value ? range[0] + offset : byMark();
    case "QUOTE_SINGLE":
    case "QUOTE_DOUBLE":
      return raw.slice(1, -1) === value ? range[0] + 1 + offset : byMark();
    case "BLOCK_LITERAL": {
      const row = value.slice(0, offset).split("\n").length - 1;
      const column = offset - (value.lastIndexOf("\n", offset - 1) + 1);
      const rows = raw.split("\n");
      const valueRow = value.split("\n")[row] ?? "";
      const sourceRow = rows[row + 1];
      if (sourceRow === undefined || !sourceRow.endsWith(valueRow)) return byMark();
      const rowStart = rows.slice(0, row + 1).reduce((n, r) => n + r.length + 1, range[0]);
      return rowStart + sourceRow.length - valueRow.length + column;
    }
    case "BLOCK_FOLDED":
    case undefined:
      return byMark();
    default: {
      const never: never = node.type;
      return never;
    }
  }
};

/** Every `command` scalar under a node (hooks), with its YAML path. */
const commandsUnder = (
  diag: Diagnostics,
  node: unknown,
  path: string,
): { node: Scalar; path: string }[] => {
  const n = deref(diag, node);
  if (isSeq(n)) return n.items.flatMap((item, i) => commandsUnder(diag, item, `${path}[${i}]`));
  if (!isMap(n)) return [];
  return n.items.flatMap((pair) => {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    const value = deref(diag, pair.value);
    if (key === "command" && isScalar(value)) return [{ node: value, path: `${path}.command` }];
    return commandsUnder(diag, value, `${path}.${key}`);
  });
};

export const checkShellSafety = (wf: Workflow, diag: Diagnostics) => {
  const doc = diag.doc;
  if (!doc) return;
  const check = shellCheckOf(wf);
  const texts: { node: Scalar; path: string }[] = [];
  for (const s of wf.states.values()) {
    const base = `states.${s.name}`;
    const stateNode = doc.getIn(["states", s.name], true);
    if (s.kind === "step") {
      const command = deref(diag, isMap(stateNode) ? stateNode.get("command", true) : undefined);
      if (isScalar(command)) texts.push({ node: command, path: `${base}.command` });
    }
    if (isMap(stateNode))
      for (const key of ["hooks", "pre_hook", "post_hook"])
        texts.push(...commandsUnder(diag, stateNode.get(key, true), `${base}.${key}`));
  }
  texts.push(...commandsUnder(diag, doc.get("hooks", true), "hooks"));
  for (const { node, path } of texts) {
    if (typeof node.value !== "string") continue;
    const value = node.value;
    for (const finding of checkShellText(value, check)) {
      const at = offsetInSource(diag, node, value, finding.at);
      const where =
        at === undefined
          ? sourceOf(diag, node, path)
          : {
              path,
              line: diag.lineCounter.linePos(at).line,
              column: diag.lineCounter.linePos(at).col,
            };
      report(diag, "error", CODES.NESTED_SHELL, finding.message, where);
    }
  }
};
