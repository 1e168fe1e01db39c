/**
 * The one small expression language behind conditions (`when`, `while`, `break_when`) and
 * template actions (`{{ ... }}`): paths (`inputs.x`, `.states.s.Output`), literals,
 * comparisons, `and`/`or`/`not`, `contains`/`startsWith`/`endsWith`, arithmetic for loop
 * bounds, and the helpers split, join, trimSpace, readFile and escape (AWF's shell quoting; also
 * spelt shellQuote). Evaluation never throws on
 * a missing value: a missing path is `undefined`, which compares unequal to everything.
 */
import { AppError } from "../../errors/app-error";

export type Expr =
  | { t: "lit"; v: unknown }
  | { t: "path"; parts: string[] }
  | { t: "bin"; op: string; l: Expr; r: Expr }
  | { t: "not"; e: Expr }
  | { t: "call"; fn: Helper; args: Expr[] };

const HELPERS = ["split", "join", "trimSpace", "readFile", "escape", "shellQuote"] as const;
type Helper = (typeof HELPERS)[number];

type Token = { k: "num" | "str" | "id" | "op" | "tpl"; v: string; at: number };

const WORD_OPS = new Set(["and", "or", "not", "contains", "startsWith", "endsWith"]);
const SYMBOLS = [
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "<",
  ">",
  "!",
  "(",
  ")",
  "+",
  "-",
  "*",
  "/",
  "%",
  ",",
];

const fail = (message: string, at: number): never => {
  throw new AppError("WORKFLOW.VALIDATION.INVALID_EXPRESSION", `${message} at character ${at + 1}`);
};

const tokenize = (src: string): Token[] => {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith("{{", i)) {
      const end = src.indexOf("}}", i + 2);
      if (end < 0) fail("unclosed {{", i);
      out.push({ k: "tpl", v: src.slice(i + 2, end), at: i });
      i = end + 2;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      let v = "";
      while (j < src.length && src[j] !== c) {
        if (src[j] === "\\" && j + 1 < src.length) j++;
        v += src[j];
        j++;
      }
      if (j >= src.length) fail("unclosed string", i);
      out.push({ k: "str", v, at: i });
      i = j + 1;
    } else if (/[0-9]/.test(c)) {
      const m = /^\d+(\.\d+)?/.exec(src.slice(i))!;
      out.push({ k: "num", v: m[0], at: i });
      i += m[0].length;
    } else if (/[A-Za-z_.$]/.test(c)) {
      const m =
        /^\.?[A-Za-z_$][\w$]*(?:-[A-Za-z][\w]*)*(?:\.[A-Za-z_$][\w$]*(?:-[A-Za-z][\w]*)*|\.\d+)*/.exec(
          src.slice(i),
        );
      if (!m) fail(`unexpected "${c}"`, i);
      out.push({ k: WORD_OPS.has(m![0]) ? "op" : "id", v: m![0], at: i });
      i += m![0].length;
    } else {
      const sym = SYMBOLS.find((s) => src.startsWith(s, i));
      if (!sym) fail(`unexpected "${c}"`, i);
      out.push({ k: "op", v: sym!, at: i });
      i += sym!.length;
    }
  }
  return out;
};

/** Bounds that keep parsing and evaluation (both recursive) far from the stack's end. */
const MAX_TOKENS = 1000;
const MAX_NESTING = 64;

/** Parses an expression; throws AppError(WORKFLOW.VALIDATION.INVALID_EXPRESSION). */
export const parseExpression = (src: string, nesting = 0): Expr => {
  const tokens = tokenize(src);
  if (tokens.length > MAX_TOKENS)
    fail(`more than ${MAX_TOKENS} tokens in one expression`, tokens[MAX_TOKENS]!.at);
  let pos = 0;
  let depth = nesting;
  /** Runs one nested level (a parenthesis, a `not`, a helper's arguments), refusing more than the limit. */
  const nested = <T>(at: number, read: () => T): T => {
    if (++depth > MAX_NESTING) fail(`nesting deeper than ${MAX_NESTING} levels`, at);
    const out = read();
    depth--;
    return out;
  };
  const peek = () => tokens[pos];
  const isOp = (...ops: string[]) => {
    const t = peek();
    return t !== undefined && t.k === "op" && ops.includes(t.v);
  };
  const next = () => tokens[pos++]!;

  const or = (): Expr => {
    let l = and();
    while (isOp("or", "||")) {
      next();
      l = { t: "bin", op: "or", l, r: and() };
    }
    return l;
  };
  const and = (): Expr => {
    let l = not();
    while (isOp("and", "&&")) {
      next();
      l = { t: "bin", op: "and", l, r: not() };
    }
    return l;
  };
  const not = (): Expr => {
    if (isOp("not", "!")) {
      const t = next();
      return { t: "not", e: nested(t.at, not) };
    }
    return cmp();
  };
  const cmp = (): Expr => {
    const l = add();
    if (isOp("==", "!=", "<", ">", "<=", ">=", "contains", "startsWith", "endsWith")) {
      const op = next().v;
      return { t: "bin", op, l, r: add() };
    }
    return l;
  };
  const add = (): Expr => {
    let l = mul();
    while (isOp("+", "-")) {
      const op = next().v;
      l = { t: "bin", op, l, r: mul() };
    }
    return l;
  };
  const mul = (): Expr => {
    let l = call();
    while (isOp("*", "/", "%")) {
      const op = next().v;
      l = { t: "bin", op, l, r: call() };
    }
    return l;
  };
  const startsPrimary = () => {
    const t = peek();
    return t !== undefined && (t.k !== "op" || t.v === "(");
  };
  const call = (): Expr => {
    const t = peek();
    if (t?.k === "id" && (HELPERS as readonly string[]).includes(t.v)) {
      next();
      const args: Expr[] = [];
      if (isOp("(") && peek()!.at === t.at + t.v.length) {
        next();
        while (!isOp(")")) {
          if (peek() === undefined) fail("unclosed (", t.at);
          args.push(nested(t.at, or));
          if (isOp(",")) next();
        }
        next();
      } else {
        while (startsPrimary()) args.push(primary());
      }
      return { t: "call", fn: t.v as Helper, args };
    }
    return primary();
  };
  const primary = (): Expr => {
    const t = peek();
    if (!t) return fail("unexpected end of expression", src.length);
    next();
    switch (t.k) {
      case "num":
        return { t: "lit", v: Number(t.v) };
      case "str":
        return { t: "lit", v: t.v };
      case "tpl":
        return nested(t.at, () => parseExpression(t.v, depth));
      case "id":
        if (t.v === "true" || t.v === "false") return { t: "lit", v: t.v === "true" };
        if (t.v === "nil" || t.v === "null") return { t: "lit", v: undefined };
        return { t: "path", parts: t.v.replace(/^\./, "").split(".") };
      case "op":
        if (t.v === "(") {
          const e = nested(t.at, or);
          if (!isOp(")")) fail("missing )", t.at);
          next();
          return e;
        }
        if (t.v === "-" && peek()?.k === "num") return { t: "lit", v: -Number(next().v) };
        return fail(`unexpected "${t.v}"`, t.at);
      default: {
        const never: never = t.k;
        return fail(`unexpected token ${String(never)}`, t.at);
      }
    }
  };

  if (tokens.length === 0) fail("empty expression", 0);
  const e = or();
  const rest = peek();
  if (rest) fail(`unexpected "${rest.v}"`, rest.at);
  return e;
};

/** Every path an expression reads, for static reference checks. */
export const pathsOf = (e: Expr, out: string[][] = []): string[][] => {
  switch (e.t) {
    case "lit":
      break;
    case "path":
      out.push(e.parts);
      break;
    case "bin":
      pathsOf(e.l, out);
      pathsOf(e.r, out);
      break;
    case "not":
      pathsOf(e.e, out);
      break;
    case "call":
      for (const a of e.args) pathsOf(a, out);
      break;
    default: {
      const never: never = e;
      throw new AppError("SYSTEM.INTERNAL", `unknown expression ${JSON.stringify(never)}`);
    }
  }
  return out;
};
