/**
 * The pieces of shell text: the types the reader produces (words made of quoted text,
 * marks, parameter and command expansions, arithmetic) and the reader of words.
 */

export type Quote = "none" | "single" | "double" | "ansi" | "heredoc" | "heredoc-quoted";

export type Part =
  | { kind: "text"; text: string; quote: Quote; at: number }
  | { kind: "mark"; id: number; quote: Quote; at: number }
  | { kind: "param"; name: string; quote: Quote; at: number; length: boolean; subscript?: Word }
  | { kind: "subst"; body: Script; quote: Quote; at: number }
  | { kind: "arith"; body: Word; quote: Quote; at: number };

export type Word = { parts: Part[]; at: number };
export type Redirect = { op: string; at: number; target?: Word; heredoc?: Word; quoted?: boolean };
export type Assign = { name: string; at: number; value: Word[]; subscript: Part[] };
export type Command =
  | { kind: "simple"; at: number; assigns: Assign[]; words: Word[]; redirects: Redirect[] }
  | { kind: "compound"; at: number; body: Script; redirects: Redirect[] }
  | { kind: "arith"; at: number; body: Word; redirects: Redirect[] }
  | { kind: "cond"; at: number; words: Word[]; redirects: Redirect[] }
  | { kind: "for"; at: number; name: string; items: Word[]; body: Script; redirects: Redirect[] };
export type Pipeline = { commands: Command[] };
export type Script = Pipeline[];

/** Where a mark was found: its quoting, and whether it is inside arithmetic. */
export type MarkSeen = { quote: Quote; arith: boolean };
export type MarkAt = (i: number) => { id: number; len: number } | undefined;

export class ShellSyntaxError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
const NAME = /([A-Za-z_]\w*|[0-9@*#?$!-])/y;
const BRACE_NAME = /([A-Za-z_]\w*|[0-9]+|[@*#?$!-])/y;
// Runs of characters that need no attention (a mark starts with "{" or is a private-use char).
const PLAIN_RUN = /[^\s;&|()<>\\'"$`{\ue000-\uf8ff]+/y;
const SINGLE_RUN = /[^'{\ue000-\uf8ff]+/y;
const DOUBLE_RUN = /[^"\\$`{\ue000-\uf8ff]+/y;
/** Deeper than this, text is refused rather than read (a stack is not unbounded). */
export const MAX_DEPTH = 100;
type Pending = { redirect: Redirect; delim: string; strip: boolean };

/**
 * The word-level half of the reader: quotes, expansions, marks, comments and
 * here-documents. The command grammar (shell-syntax.ts) extends it.
 */
export abstract class WordReader {
  i = 0;
  end: number;
  arith = 0;
  depth = 0;
  pending: Pending[] = [];
  /** Where `$((` or `((` turned out not to be arithmetic, so it is not tried twice. */
  readonly notArith = new Set<number>();

  constructor(
    readonly src: string,
    readonly markAt: MarkAt,
    readonly seen: Map<number, MarkSeen>,
    readonly origin: (i: number) => number,
  ) {
    this.end = src.length;
  }

  /** A list of commands up to one of `stops` (the grammar's part). */
  abstract script(stops: string[]): Script;

  /** A reader for the text of a backquoted command. */
  abstract sub(
    src: string,
    markAt: MarkAt,
    seen: Map<number, MarkSeen>,
    origin: (i: number) => number,
  ): WordReader;

  fail(message: string, at = this.i): never {
    throw new ShellSyntaxError(message, this.origin(Math.min(at, this.src.length)));
  }

  ch(k = 0) {
    return this.i + k < this.end ? this.src[this.i + k]! : "";
  }

  at(s: string) {
    return this.src.startsWith(s, this.i) && this.i + s.length <= this.end;
  }

  /** A sticky pattern matched at the cursor, within the current end. */
  match(re: RegExp, from = this.i): RegExpExecArray | undefined {
    re.lastIndex = from;
    const m = re.exec(this.src);
    return m && from + m[0].length <= this.end ? m : undefined;
  }

  // ---- pieces of words -------------------------------------------------------------

  text(parts: Part[], text: string, quote: Quote, at: number) {
    const last = parts[parts.length - 1];
    if (last?.kind === "text" && last.quote === quote) last.text += text;
    else parts.push({ kind: "text", text, quote, at: this.origin(at) });
  }

  mark(parts: Part[], quote: Quote): boolean {
    const m = this.markAt(this.i);
    if (!m) return false;
    this.seen.set(m.id, { quote, arith: this.arith > 0 });
    parts.push({ kind: "mark", id: m.id, quote, at: this.origin(this.i) });
    this.i += m.len;
    return true;
  }

  single(parts: Part[]) {
    const start = this.i++;
    while (this.ch() !== "'") {
      if (this.i >= this.end) this.fail("unclosed '", start);
      const run = this.match(SINGLE_RUN);
      if (run) {
        this.text(parts, run[0], "single", this.i);
        this.i += run[0].length;
      } else if (!this.mark(parts, "single"))
        this.text(parts, this.src[this.i++]!, "single", this.i - 1);
    }
    this.i++;
  }

  ansi(parts: Part[]) {
    const start = this.i;
    this.i += 2;
    while (this.ch() !== "'") {
      if (this.i >= this.end) this.fail("unclosed $'", start);
      if (this.mark(parts, "ansi")) continue;
      if (this.ch() === "\\" && this.i + 1 < this.end) {
        const e = this.ch(1);
        this.text(parts, e === "n" ? "\n" : e === "t" ? "\t" : e, "ansi", this.i);
        this.i += 2;
      } else this.text(parts, this.src[this.i++]!, "ansi", this.i - 1);
    }
    this.i++;
  }

  double(parts: Part[]) {
    const start = this.i++;
    while (this.ch() !== '"') {
      if (this.i >= this.end) this.fail('unclosed "', start);
      const run = this.match(DOUBLE_RUN);
      if (run) {
        this.text(parts, run[0], "double", this.i);
        this.i += run[0].length;
        continue;
      }
      if (this.mark(parts, "double")) continue;
      const c = this.ch();
      if (c === "\\") {
        const e = this.ch(1);
        if (e === "\n") this.i += 2;
        else if ('$`"\\'.includes(e) && e !== "") {
          this.text(parts, e, "double", this.i);
          this.i += 2;
        } else this.text(parts, this.src[this.i++]!, "double", this.i - 1);
      } else if (c === "$") this.dollar(parts, "double");
      else if (c === "`") this.backtick(parts, "double");
      else this.text(parts, this.src[this.i++]!, "double", this.i - 1);
    }
    this.i++;
  }

  dollar(parts: Part[], quote: Quote) {
    if (++this.depth > MAX_DEPTH) this.fail("nested too deeply");
    try {
      this.expansion(parts, quote);
    } finally {
      this.depth--;
    }
  }

  expansion(parts: Part[], quote: Quote) {
    const start = this.i;
    const n = this.ch(1);
    if (n === "(" && this.ch(2) === "(" && !this.notArith.has(start)) {
      const saved = { i: this.i, parts: parts.length };
      try {
        this.i += 3;
        const body = this.arithWord("))", start);
        parts.push({ kind: "arith", body, quote, at: this.origin(start) });
        return;
      } catch (e) {
        if (!(e instanceof ShellSyntaxError)) throw e;
        this.notArith.add(start);
        this.i = saved.i;
        parts.length = saved.parts;
      }
    }
    if (n === "(") {
      this.i += 2;
      const body = this.script([")"]);
      if (this.ch() !== ")") this.fail("unclosed $(", start);
      this.i++;
      parts.push({ kind: "subst", body, quote, at: this.origin(start) });
    } else if (n === "[") {
      this.i += 2;
      parts.push({
        kind: "arith",
        body: this.arithWord("]", start),
        quote,
        at: this.origin(start),
      });
    } else if (n === "{") this.braceParam(parts, quote);
    else if (n === "'" && quote === "none") this.ansi(parts);
    else if (n === '"' && quote === "none") {
      this.i++;
      this.double(parts);
    } else {
      const m = this.match(NAME, this.i + 1);
      if (!m) {
        this.text(parts, "$", quote, this.i++);
        return;
      }
      this.i += 1 + m[1]!.length;
      parts.push({ kind: "param", name: m[1]!, quote, at: this.origin(start), length: false });
    }
  }

  braceParam(parts: Part[], quote: Quote) {
    const start = this.i;
    this.i += 2;
    let length = false;
    if (this.ch() === "#" && this.ch(1) !== "}") {
      length = true;
      this.i++;
    }
    if (this.ch() === "!") this.i++;
    const m = this.match(BRACE_NAME);
    if (!m) this.fail("bad ${ } expansion", start);
    this.i += m[1]!.length;
    let subscript: Word | undefined;
    if (this.ch() === "[") {
      this.i++;
      subscript = this.arithWord("]", start);
    }
    const operand: Part[] = [];
    while (this.ch() !== "}") {
      if (this.i >= this.end) this.fail("unclosed ${", start);
      this.piece(operand, quote, "}");
    }
    this.i++;
    parts.push({ kind: "param", name: m[1]!, quote, at: this.origin(start), length, subscript });
    // What an operand (`${x:-word}`) expands is part of the word too.
    parts.push(...operand);
  }

  backtick(parts: Part[], quote: Quote) {
    const start = this.i++;
    let content = "";
    const map: number[] = [];
    while (this.ch() !== "`") {
      if (this.i >= this.end) this.fail("unclosed `", start);
      if (this.ch() === "\\" && "`$\\".includes(this.ch(1)) && this.ch(1) !== "") this.i++;
      map.push(this.i);
      content += this.src[this.i++];
    }
    map.push(this.i);
    this.i++;
    const sub = this.sub(
      content,
      (k) => (map[k] === undefined ? undefined : this.markAt(map[k])),
      this.seen,
      (k) => this.origin(map[Math.min(k, map.length - 1)]!),
    );
    sub.depth = this.depth;
    const body = sub.script([]);
    parts.push({ kind: "subst", body, quote, at: this.origin(start) });
  }

  /** Arithmetic text up to `close` at depth 0; identifiers stay text for the checker. */
  arithWord(close: "))" | "]", start: number): Word {
    const parts: Part[] = [];
    const at = this.origin(this.i);
    let depth = 0;
    this.arith++;
    try {
      for (;;) {
        if (this.i >= this.end) this.fail(`unclosed ${close === "]" ? "[" : "(("}`, start);
        if (depth === 0 && this.at(close)) {
          this.i += close.length;
          return { parts, at };
        }
        const c = this.ch();
        if (c === "(") depth++;
        if (c === ")") {
          if (depth === 0) this.fail("unbalanced ) in arithmetic");
          depth--;
        }
        this.piece(parts, "none", "");
      }
    } finally {
      this.arith--;
    }
  }

  /** One piece of a word in an unquoted-like context: a quote, an expansion, a mark or a char. */
  piece(parts: Part[], quote: Quote, _stop: string) {
    if (this.mark(parts, quote)) return;
    const c = this.ch();
    if (c === "\\") {
      const e = this.ch(1);
      if (e === "\n") this.i += 2;
      else if (e === "") this.text(parts, this.src[this.i++]!, quote, this.i - 1);
      else {
        this.text(parts, e, quote, this.i);
        this.i += 2;
      }
    } else if (c === "'" && quote === "none") this.single(parts);
    else if (c === '"') this.double(parts);
    else if (c === "$") this.dollar(parts, quote);
    else if (c === "`") this.backtick(parts, quote);
    else this.text(parts, this.src[this.i++]!, quote, this.i - 1);
  }

  /** A word at the cursor, or undefined when a metacharacter (or the end) is there. */
  word(cond = false): Word | undefined {
    const start = this.i;
    const parts: Part[] = [];
    if ((this.ch() === "<" || this.ch() === ">") && this.ch(1) === "(") {
      this.i += 2;
      const body = this.script([")"]);
      if (this.ch() !== ")") this.fail("unclosed process substitution", start);
      this.i++;
      parts.push({ kind: "subst", body, quote: "none", at: this.origin(start) });
    }
    while (this.i < this.end) {
      const c = this.ch();
      if (cond ? c === " " || c === "\t" || c === "\n" : META.has(c)) break;
      const run = this.match(PLAIN_RUN);
      if (run) {
        this.text(parts, run[0], "none", this.i);
        this.i += run[0].length;
      } else this.piece(parts, "none", "");
    }
    return this.i === start ? undefined : { parts, at: this.origin(start) };
  }

  // ---- separators, comments, here-documents -----------------------------------------

  blanks(newlines = false) {
    for (;;) {
      const c = this.ch();
      if (c === " " || c === "\t" || c === "\r") this.i++;
      else if (c === "\\" && this.ch(1) === "\n") this.i += 2;
      else if (c === "#") {
        while (this.i < this.end && this.ch() !== "\n") this.i++;
      } else if (c === "\n" && newlines) this.newline();
      else return;
    }
  }

  newline() {
    this.i++;
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) this.heredoc(p);
  }

  heredoc(p: Pending) {
    const start = this.i;
    let bodyEnd = this.end;
    let after = this.end;
    for (let line = start; line < this.end;) {
      const nl = this.src.indexOf("\n", line);
      const stop = nl < 0 || nl >= this.end ? this.end : nl;
      const text = this.src.slice(line, stop);
      if ((p.strip ? text.replace(/^\t+/, "") : text) === p.delim) {
        bodyEnd = line;
        after = Math.min(stop + 1, this.end);
        break;
      }
      line = stop + 1;
    }
    const parts: Part[] = [];
    const quote: Quote = p.redirect.quoted ? "heredoc-quoted" : "heredoc";
    const savedEnd = this.end;
    this.end = bodyEnd;
    while (this.i < this.end) {
      if (this.mark(parts, quote)) continue;
      const c = this.ch();
      if (quote === "heredoc" && c === "\\" && "$`\\\n".includes(this.ch(1)) && this.ch(1) !== "") {
        if (this.ch(1) !== "\n") this.text(parts, this.ch(1), quote, this.i);
        this.i += 2;
      } else if (quote === "heredoc" && c === "$") this.dollar(parts, quote);
      else if (quote === "heredoc" && c === "`") this.backtick(parts, quote);
      else this.text(parts, this.src[this.i++]!, quote, this.i - 1);
    }
    this.end = savedEnd;
    this.i = after;
    p.redirect.heredoc = { parts, at: this.origin(start) };
  }
}

/** The value of a word that holds nothing but unquoted or quoted text, else undefined. */
export const literalOf = (w: Word | undefined): string | undefined => {
  if (!w) return undefined;
  let out = "";
  for (const p of w.parts) {
    if (p.kind !== "text") return undefined;
    out += p.text;
  }
  return out;
};
