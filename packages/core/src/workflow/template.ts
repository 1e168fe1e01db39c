/**
 * `{{ ... }}` interpolation. Plain rendering (prompts, dir, messages, inputs of a
 * sub-workflow) inserts the value's text. Shell rendering (step `command`, hook commands)
 * never inserts a value into the script at all: each value travels in its own environment
 * variable (SWITCHYARD_V1, SWITCHYARD_V2, ...) and the script gets a reference to it that
 * fits the quoting context where the `{{ }}` stood:
 *
 *   unquoted      {{x}}      ->  "${SWITCHYARD_V1}"
 *   "double"      "a {{x}}"  ->  "a ${SWITCHYARD_V1}"
 *   'single'      'a {{x}}'  ->  'a '"${SWITCHYARD_V1}"''
 *
 * The shell expands a parameter once and never re-parses its value, so quotes, `;`, `$()`
 * or backticks inside a value stay data and one value is always one word. (Inside a
 * here-document the quotes of the unquoted form would show literally; write `${...}`
 * inside a quoted string there.)
 */
import { AppError } from "../errors/app-error";
import { parseExpression, type Expr } from "./expression";
import { evaluate, toText, type EvalEnv } from "./evaluate-expression";

export type TemplatePart = { text: string } | { expr: Expr; source: string; offset: number };

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

export const hasTemplate = (text: string) => text.includes("{{");

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

export type ShellScript = { script: string; env: Record<string, string> };

export const renderShell = (text: string, env: EvalEnv, prefix = "SWITCHYARD_V"): ShellScript => {
  const vars: Record<string, string> = {};
  let out = "";
  let quote: "none" | "single" | "double" = "none";
  let n = 0;
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("{{", i)) {
      const close = text.indexOf("}}", i + 2);
      if (close < 0)
        throw new AppError(
          "WORKFLOW.VALIDATION.INVALID_EXPRESSION",
          `unclosed "{{" at character ${i + 1}`,
        );
      const [part] = parseTemplate(text.slice(i, close + 2));
      const value = part && "expr" in part ? toText(evaluate(part.expr, env)) : "";
      const name = `${prefix}${++n}`;
      vars[name] = value;
      out +=
        quote === "none" ? `"\${${name}}"` : quote === "double" ? `\${${name}}` : `'"\${${name}}"'`;
      i = close + 2;
      continue;
    }
    const c = text[i]!;
    if (quote !== "single" && c === "\\" && i + 1 < text.length) {
      out += c + text[i + 1];
      i += 2;
      continue;
    }
    if (quote === "none" && c === "#" && (i === 0 || /\s|;/.test(text[i - 1]!))) {
      // A comment: its quotes do not count, and a `{{ }}` in it is left as it is.
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      out += text.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === "'" && quote !== "double") quote = quote === "single" ? "none" : "single";
    else if (c === '"' && quote !== "single") quote = quote === "double" ? "none" : "double";
    out += c;
    i++;
  }
  return { script: out, env: vars };
};
