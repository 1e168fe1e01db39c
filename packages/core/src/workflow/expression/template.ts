/**
 * `{{ ... }}` interpolation. Plain rendering (prompts, dir, messages, inputs of a
 * sub-workflow) inserts the value's text. Shell rendering (step `command`, `script_file`,
 * hook commands) never inserts a value into the script at all: each value travels in an
 * environment variable named after its path (SY_INPUTS_MSG, see shell-variables.ts) and
 * the script gets a reference to it that fits where the `{{ }}` stands, as the shell
 * reader (shell-syntax.ts) sees it:
 *
 *   unquoted      {{x}}      ->  "${SY_X}"
 *   "double"      "a {{x}}"  ->  "a ${SY_X}"
 *   'single'      'a {{x}}'  ->  'a '"${SY_X}"''
 *   here-document <<EOF      ->  ${SY_X}            (in <<'EOF': "${SY_X}", for a reader to expand)
 *   arithmetic    $(( ))     ->  ${SY_X}            (numbers only: see nested-shell.ts)
 *
 * The shell expands a parameter once and never re-parses its value, so quotes, `;`, `$()`
 * or backticks inside a value stay data and one value is always one word. A second shell
 * (`sh -c '…'`, `eval`, `ssh host …`) would parse it again: such commands are refused
 * (USER.TEMPLATE.NESTED_SHELL) unless the value reaches them escaped or as a variable.
 * Variables a command only names (`$SY_INPUTS_MSG` inside `sh -c '…'`) are set too.
 */
import { AppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";
import { parseExpression, type Expr } from "./expression";
import { evaluate, toText, type EvalEnv } from "./evaluate-expression";
import type { MarkInfo } from "../shell/mark-info";
import { findNestedShells, type NestedShellFinding } from "../shell/nested-shell";
import { isPosixShell } from "../shell/shell-commands";
import { ShellVariables } from "../shell/shell-variables";
import { parseShell, ShellSyntaxError, type MarkSeen, type Quote } from "../shell/shell-syntax";

type TemplatePart = { text: string } | { expr: Expr; source: string; offset: number };

/** Splits text into literal parts and `{{ }}` actions; throws AppError on a malformed action. */
export const parseTemplate = (text: string): TemplatePart[] => {
  const parts: TemplatePart[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{{", i);
    if (open < 0) {
      parts.push({ text: text.slice(i) });
      break;
    }
    if (open > i) parts.push({ text: text.slice(i, open) });
    const close = text.indexOf("}}", open + 2);
    if (close < 0)
      throw new AppError(
        "WORKFLOW.VALIDATION.INVALID_EXPRESSION",
        `unclosed "{{" at character ${open + 1}`,
      );
    const source = text
      .slice(open + 2, close)
      .replace(/^-\s/, "")
      .replace(/\s-$/, "");
    const trimmed = source.trim();
    if (/^(range|end|if|else|with|define|block|template)\b/.test(trimmed)) {
      throw new AppError(
        "WORKFLOW.VALIDATION.INVALID_EXPRESSION",
        `the template action "${trimmed.split(/\s/)[0]}" is not supported`,
      );
    }
    parts.push({ expr: parseExpression(trimmed), source: trimmed, offset: open });
    i = close + 2;
  }
  return parts;
};

export const renderTemplate = (text: string, env: EvalEnv): string =>
  parseTemplate(text)
    .map((p) => ("text" in p ? p.text : toText(evaluate(p.expr, env))))
    .join("");

/** Evaluates a text that is exactly one action (`items: "{{.inputs.files}}"`) to its value. */
export const evaluateSingle = (text: string, env: EvalEnv): unknown => {
  const parts = parseTemplate(text.trim());
  const only = parts[0];
  if (parts.length === 1 && only && "expr" in only) return evaluate(only.expr, env);
  return renderTemplate(text, env);
};

type ShellScript = { script: string; env: Record<string, string> };

type Mark = { at: number; end: number; source: string; expr: Expr };

/** Every `{{ }}` of a text with its span; throws AppError on a malformed one. */
const marksOf = (text: string): Mark[] =>
  parseTemplate(text).flatMap((p) =>
    "expr" in p
      ? [
          {
            at: p.offset,
            end: text.indexOf("}}", p.offset + 2) + 2,
            source: p.source,
            expr: p.expr,
          },
        ]
      : [],
  );

const markAtOf = (marks: Mark[]) => {
  const byOffset = new Map(marks.map((m, id) => [m.at, { id, len: m.end - m.at }]));
  return (i: number) => byOffset.get(i);
};

/** The path a value comes from, under any `escape`: for the variable a hint names. */
const pathOf = (e: Expr): string[] | undefined =>
  e.t === "path" ? e.parts : e.t === "call" && escapesOf(e) > 0 ? pathOf(e.args[0]!) : undefined;

/** How many shells an escaped value survives: `{{escape (escape x)}}` two. */
const escapesOf = (e: Expr): number =>
  e.t === "call" && (e.fn === "escape" || e.fn === "shellQuote") && e.args.length === 1
    ? 1 + escapesOf(e.args[0]!)
    : 0;

const isNumericValue = (v: unknown) =>
  v === undefined ||
  v === null ||
  typeof v === "boolean" ||
  (typeof v === "number" && Number.isFinite(v)) ||
  (typeof v === "string" && /^(-?\d+(\.\d+)?)?$/.test(v));

/** The interpreter a script's shebang names (`python3` for `#!/usr/bin/env python3`), or "sh". */
const interpreterOf = (script: string): string => {
  const shebang = /^#!\s*(\S+)(.*)/.exec(script);
  if (!shebang) return "sh";
  const program = shebang[1]!.slice(shebang[1]!.lastIndexOf("/") + 1);
  if (program !== "env") return program;
  const arg = shebang[2]!
    .trim()
    .split(/\s+/)
    .find((a) => a !== "" && !a.startsWith("-"));
  return arg ? arg.slice(arg.lastIndexOf("/") + 1) : "env";
};

const reference = (name: string, seen: MarkSeen): string => {
  if (seen.arith) return `\${${name}}`;
  const quote: Quote = seen.quote;
  switch (quote) {
    case "none":
    case "heredoc-quoted":
      return `"\${${name}}"`;
    case "double":
    case "heredoc":
      return `\${${name}}`;
    case "single":
      return `'"\${${name}}"'`;
    case "ansi":
      return `'"\${${name}}"$'`;
    default: {
      const never: never = quote;
      return never;
    }
  }
};

/** Line and column (1-based) of an offset in a text. */
export const lineColumn = (text: string, offset: number) => {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
};

export type ShellCheck = {
  /** Whether a value is a number (or nothing) whatever the run: it is harmless anywhere. */
  numeric: (e: Expr) => boolean;
  /** SY_ variables whose values are numbers. */
  numericVariables?: Set<string>;
  /** The text is a script_file: its shebang decides whether it is shell at all. */
  script?: boolean;
};

/** Every place where a value in a shell text would be parsed as code again. */
export const checkShellText = (text: string, check: ShellCheck): NestedShellFinding[] => {
  let marks: Mark[];
  try {
    marks = marksOf(text);
  } catch {
    return []; // a malformed {{ }} is reported by the reference check
  }
  const interpreter = check.script ? interpreterOf(text) : "sh";
  if (!isPosixShell(interpreter))
    return marks.map((m) => ({ at: m.at, message: notShell(interpreter, m) }));
  const names = new ShellVariables();
  const infos: MarkInfo[] = marks.map((m) => ({
    at: m.at,
    source: m.source,
    escapes: escapesOf(m.expr),
    numeric: check.numeric(m.expr),
    variable: pathOf(m.expr) && names.name(pathOf(m.expr)!),
  }));
  return findNestedShells(text, {
    marks: infos,
    markAt: markAtOf(marks),
    numericVariables: check.numericVariables,
  });
};

const notShell = (interpreter: string, m: Mark) =>
  `{{${m.source}}} is in a script run by ${interpreter}, which is not a POSIX shell, so the value cannot be passed as a shell variable reference: read it from the environment in the script instead${m.expr.t === "path" ? ` (${new ShellVariables().name(m.expr.parts)})` : ""}`;

const refuse = (text: string, finding: NestedShellFinding, file?: string) => {
  const { line, column } = lineColumn(text, finding.at);
  return new AppError(CODES.NESTED_SHELL, `line ${line}, column ${column}: ${finding.message}`, {
    location: { file, line, column },
  });
};

/**
 * Renders a shell text: values go into environment variables, the text gets references.
 * Throws AppError(USER.TEMPLATE.NESTED_SHELL) where a value would reach a second shell.
 */
export const renderShell = (
  text: string,
  env: EvalEnv,
  options: { script?: boolean; file?: string } = {},
): ShellScript => {
  const marks = marksOf(text);
  const names = new ShellVariables();
  const candidates = env.paths?.() ?? [];
  for (const p of candidates) names.name(p);
  const vars: Record<string, string> = {};
  const numericVariables = new Set<string>();
  const mentioned = new Set(text.match(/SY_[A-Z0-9_]+/g) ?? []);
  for (const p of candidates) {
    const name = names.name(p);
    if (!mentioned.has(name)) continue;
    const value = env.resolve(p);
    vars[name] = toText(value);
    if (isNumericValue(value)) numericVariables.add(name);
  }
  const interpreter = options.script ? interpreterOf(text) : "sh";
  if (!isPosixShell(interpreter)) {
    const [first] = marks;
    if (first)
      throw refuse(text, { at: first.at, message: notShell(interpreter, first) }, options.file);
    return { script: text, env: vars };
  }
  const markAt = markAtOf(marks);
  let seen: Map<number, MarkSeen> | undefined;
  try {
    seen = parseShell(text, markAt).seen;
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
  }
  let expressions = 0;
  const infos: (MarkInfo & { name: string })[] = marks.map((m, id) => {
    if (seen && !seen.has(id))
      return { at: m.at, source: m.source, escapes: 0, numeric: true, name: "" };
    const value = evaluate(m.expr, env);
    const path = m.expr.t === "path" ? m.expr.parts : undefined;
    const name = path ? names.name(path) : `SY_EXPR_${++expressions}`;
    vars[name] = toText(value);
    const numeric = isNumericValue(value);
    if (numeric) numericVariables.add(name);
    const hinted = pathOf(m.expr);
    return {
      at: m.at,
      source: m.source,
      escapes: escapesOf(m.expr),
      numeric,
      variable: hinted && names.name(hinted),
      name,
    };
  });
  const findings = findNestedShells(text, { marks: infos, markAt, numericVariables });
  if (findings[0]) throw refuse(text, findings[0], options.file);
  if (!seen) return { script: text, env: vars };
  let script = "";
  let last = 0;
  marks.forEach((m, id) => {
    const where = seen.get(id);
    if (!where) return; // in a comment: left as written
    script += text.slice(last, m.at) + reference(infos[id]!.name, where);
    last = m.end;
  });
  return { script: script + text.slice(last), env: vars };
};
