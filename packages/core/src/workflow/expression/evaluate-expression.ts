/**
 * Evaluates parsed expressions against a run's values. Nothing here throws on data: a
 * missing path is undefined, readFile of an absent file is "", and comparisons with a
 * missing value are false (except `!=`). A file the bundle refuses to read throws its error.
 */
import type { Expr } from "./expression";

type Resolve = (parts: string[]) => unknown;
export type EvalEnv = {
  resolve: Resolve;
  readFile: (path: string) => string | undefined;
  /** Every path with a value (`inputs.msg`, `states.build.Output`), for SY_ variables a command names. */
  paths?: () => string[][];
};

const asNumber = (v: unknown): number | undefined => {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  if (typeof v === "boolean") return undefined;
  return undefined;
};

/**
 * A text quoted for one POSIX shell to read back as exactly that text: as it is when it is
 * made only of characters no shell treats specially, else in single quotes (`'` as `'\''`).
 */
const shellQuote = (text: string): string =>
  text === ""
    ? "''"
    : /^[A-Za-z0-9_@%+=:,./-]+$/.test(text)
      ? text
      : `'${text.replace(/'/g, "'\\''")}'`;

/** The text a value becomes in a template: strings as they are, the rest as JSON. */
export const toText = (v: unknown): string => {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
};

export const truthy = (v: unknown): boolean => {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return v !== "" && v !== "false" && v !== "0";
  if (Array.isArray(v)) return v.length > 0;
  return v !== undefined && v !== null;
};

const equal = (a: unknown, b: unknown): boolean => {
  if (a === undefined || b === undefined) return a === b;
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (typeof a === "boolean" || typeof b === "boolean")
    return toText(a).toLowerCase() === toText(b).toLowerCase();
  return toText(a) === toText(b);
};

const order = (a: unknown, b: unknown): number | undefined => {
  if (a === undefined || b === undefined) return undefined;
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  const sa = toText(a);
  const sb = toText(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
};

const arith = (op: string, a: unknown, b: unknown): unknown => {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (op === "+" && (na === undefined || nb === undefined)) return toText(a) + toText(b);
  if (na === undefined || nb === undefined) return undefined;
  switch (op) {
    case "+":
      return na + nb;
    case "-":
      return na - nb;
    case "*":
      return na * nb;
    case "/":
      return nb === 0 ? undefined : na / nb;
    default:
      return nb === 0 ? undefined : na % nb;
  }
};

export const evaluate = (e: Expr, env: EvalEnv): unknown => {
  switch (e.t) {
    case "lit":
      return e.v;
    case "path":
      return env.resolve(e.parts);
    case "not":
      return !truthy(evaluate(e.e, env));
    case "call": {
      const args = e.args.map((a) => evaluate(a, env));
      switch (e.fn) {
        case "split":
          return toText(args[0]).split(toText(args[1] ?? ","));
        case "join": {
          const list = Array.isArray(args[0]) ? (args[0] as unknown[]) : toText(args[0]).split(",");
          return list.map(toText).join(toText(args[1] ?? ""));
        }
        case "trimSpace":
          return toText(args[0]).trim();
        case "readFile":
          return env.readFile(toText(args[0]).trim()) ?? "";
        case "escape":
        case "shellQuote":
          return shellQuote(toText(args[0]));
        default: {
          const never: never = e.fn;
          return never;
        }
      }
    }
    case "bin": {
      if (e.op === "and") return truthy(evaluate(e.l, env)) && truthy(evaluate(e.r, env));
      if (e.op === "or") return truthy(evaluate(e.l, env)) || truthy(evaluate(e.r, env));
      const a = evaluate(e.l, env);
      const b = evaluate(e.r, env);
      switch (e.op) {
        case "==":
          return equal(a, b);
        case "!=":
          return !equal(a, b);
        case "<":
        case ">":
        case "<=":
        case ">=": {
          const o = order(a, b);
          if (o === undefined) return false;
          return e.op === "<" ? o < 0 : e.op === ">" ? o > 0 : e.op === "<=" ? o <= 0 : o >= 0;
        }
        case "contains":
          return Array.isArray(a)
            ? a.some((x) => equal(x, b))
            : a !== undefined && toText(a).includes(toText(b));
        case "startsWith":
          return a !== undefined && toText(a).startsWith(toText(b));
        case "endsWith":
          return a !== undefined && toText(a).endsWith(toText(b));
        default:
          return arith(e.op, a, b);
      }
    }
    default: {
      const never: never = e;
      return never;
    }
  }
};
