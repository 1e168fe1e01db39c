/**
 * Reads shell text into commands, words and quoted pieces: enough of POSIX sh, and of the
 * bash forms scripts use, to tell for every `{{ }}` (a "mark") which word of which command
 * it sits in and how it is quoted there. The renderer picks each value's reference from
 * this; the nested-shell check finds the arguments a second shell parses again. Nothing
 * is executed. Text it cannot read raises ShellSyntaxError with the offset.
 */

import {
  MAX_DEPTH,
  ShellSyntaxError,
  WordReader,
  type Assign,
  type Command,
  type MarkAt,
  type MarkSeen,
  type Part,
  type Pipeline,
  type Redirect,
  type Script,
  type Word,
} from "./shell-words";

export { literalOf, ShellSyntaxError } from "./shell-words";
export type {
  Assign,
  Command,
  MarkAt,
  MarkSeen,
  Part,
  Pipeline,
  Quote,
  Redirect,
  Script,
  Word,
} from "./shell-words";

const KEYWORDS = new Set([
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "while",
  "until",
  "do",
  "done",
  "for",
  "select",
  "in",
  "case",
  "esac",
  "function",
  "time",
  "{",
  "}",
  "!",
  "[[",
  "]]",
]);
const REDIRECT = /(\d+|\{[A-Za-z_]\w*\})?(<<<|<<-|<<|<>|<&|>&|>>|>\||&>>|&>|<|>)/y;
const KEYWORD = /(\[\[|\]\]|[{}!]|[a-z]+)(?=[\s;&|()<>]|$)/y;
const EMPTY_PARENS = /\(\s*\)/y;
const ASSIGN = /^([A-Za-z_]\w*)(\[[^\]]*\])?\+?=/;

class Reader extends WordReader {
  sub(src: string, markAt: MarkAt, seen: Map<number, MarkSeen>, origin: (i: number) => number) {
    return new Reader(src, markAt, seen, origin);
  }

  keyword(): string | undefined {
    const m = this.match(KEYWORD);
    return m && KEYWORDS.has(m[1]!) ? m[1] : undefined;
  }

  expectKeyword(kw: string, start: number) {
    this.blanks(true);
    while (this.ch() === ";") {
      this.i++;
      this.blanks(true);
    }
    if (this.keyword() !== kw) this.fail(`missing "${kw}"`, start);
    this.i += kw.length;
  }

  // ---- commands --------------------------------------------------------------------

  script(stops: string[]): Script {
    if (++this.depth > MAX_DEPTH) this.fail("nested too deeply");
    try {
      return this.list(stops);
    } finally {
      this.depth--;
    }
  }

  list(stops: string[]): Script {
    const out: Script = [];
    for (;;) {
      this.blanks(true);
      const c = this.ch();
      if (this.i >= this.end) return out;
      if (this.at(";;") || this.at(";&")) {
        if (stops.includes(";;")) return out;
        this.fail('unexpected ";;"');
      }
      if (c === ";" || c === "&") {
        this.i += this.at("&&") ? 2 : 1;
        continue;
      }
      if (this.at("||")) {
        this.i += 2;
        continue;
      }
      if (c === ")") {
        if (stops.includes(")")) return out;
        this.fail('unexpected ")"');
      }
      const kw = this.keyword();
      if (kw !== undefined && stops.includes(kw)) return out;
      out.push(this.pipeline());
    }
  }

  pipeline(): Pipeline {
    const commands = [this.command()];
    for (;;) {
      this.blanks();
      if (this.at("||") || this.ch() !== "|") return { commands };
      this.i += this.at("|&") ? 2 : 1;
      this.blanks(true);
      commands.push(this.command());
    }
  }

  redirects(): Redirect[] {
    const out: Redirect[] = [];
    for (;;) {
      this.blanks();
      const r = this.redirect();
      if (!r) return out;
      out.push(r);
    }
  }

  redirect(): Redirect | undefined {
    const m = this.match(REDIRECT);
    if (!m) return undefined;
    const op = m[2]!;
    if ((op === "<" || op === ">") && this.src[this.i + m[0].length] === "(") return undefined;
    const at = this.origin(this.i);
    this.i += m[0].length;
    this.blanks();
    const targetStart = this.i;
    const target = this.word();
    if (!target) this.fail(`missing target after ${op}`);
    const redirect: Redirect = { op, at, target };
    if (op === "<<" || op === "<<-") {
      redirect.quoted = /['"\\]/.test(this.src.slice(targetStart, this.i));
      const delim = target.parts.map((p) => (p.kind === "text" ? p.text : "")).join("");
      this.pending.push({ redirect, delim, strip: op === "<<-" });
    }
    return redirect;
  }

  compound(at: number, body: Script): Command {
    return { kind: "compound", at: this.origin(at), body, redirects: this.redirects() };
  }

  command(): Command {
    this.blanks();
    const start = this.i;
    if (this.at("((") && !this.notArith.has(start)) {
      try {
        this.i += 2;
        const body = this.arithWord("))", start);
        return { kind: "arith", at: this.origin(start), body, redirects: this.redirects() };
      } catch (e) {
        // `( (a) )`: a subshell in a subshell after all.
        if (!(e instanceof ShellSyntaxError)) throw e;
        this.notArith.add(start);
        this.i = start;
      }
    }
    if (this.ch() === "(") {
      this.i++;
      const body = this.script([")"]);
      if (this.ch() !== ")") this.fail("unclosed (", start);
      this.i++;
      return this.compound(start, body);
    }
    const kw = this.keyword();
    switch (kw) {
      case undefined:
        return this.simple();
      case "!":
      case "time":
        this.i += kw.length;
        this.blanks();
        if (kw === "time" && this.at("-p ")) this.i += 3;
        return this.command();
      case "{": {
        this.i++;
        const body = this.script(["}"]);
        this.expectKeyword("}", start);
        return this.compound(start, body);
      }
      case "if": {
        this.i += 2;
        const body = this.script(["then"]);
        this.expectKeyword("then", start);
        for (;;) {
          body.push(...this.script(["elif", "else", "fi"]));
          const next = this.keyword();
          if (next === "fi") break;
          if (next === undefined) this.fail('missing "fi"', start);
          this.i += next.length;
          body.push(...this.script(["then", "fi"]));
          if (next === "elif") this.expectKeyword("then", start);
        }
        this.i += 2;
        return this.compound(start, body);
      }
      case "while":
      case "until": {
        this.i += kw.length;
        const body = this.script(["do"]);
        this.expectKeyword("do", start);
        body.push(...this.script(["done"]));
        this.expectKeyword("done", start);
        return this.compound(start, body);
      }
      case "for":
      case "select":
        return this.forLoop(start, kw);
      case "case":
        return this.caseCommand(start);
      case "function": {
        this.i += kw.length;
        this.blanks();
        if (!this.word()) this.fail("missing function name", start);
        this.blanks();
        if (this.at("()")) this.i += 2;
        this.blanks(true);
        return this.compound(start, [{ commands: [this.command()] }]);
      }
      case "[[": {
        this.i += 2;
        const words: Word[] = [];
        for (;;) {
          this.blanks(true);
          if (this.keyword() === "]]") break;
          const w = this.word(true);
          if (!w) this.fail('missing "]]"', start);
          words.push(w);
        }
        this.i += 2;
        return { kind: "cond", at: this.origin(start), words, redirects: this.redirects() };
      }
      default:
        return this.fail(`unexpected "${kw}"`);
    }
  }

  forLoop(start: number, kw: string): Command {
    this.i += kw.length;
    this.blanks();
    if (this.at("((")) {
      this.i += 2;
      const arith = this.arithWord("))", start);
      this.expectKeyword("do", start);
      const body = this.script(["done"]);
      this.expectKeyword("done", start);
      return {
        kind: "compound",
        at: this.origin(start),
        body: [
          { commands: [{ kind: "arith", at: arith.at, body: arith, redirects: [] }] },
          ...body,
        ],
        redirects: this.redirects(),
      };
    }
    const nameWord = this.word();
    const name = nameWord?.parts.map((p) => (p.kind === "text" ? p.text : "")).join("") ?? "";
    if (!/^[A-Za-z_]\w*$/.test(name)) this.fail(`bad ${kw} variable`, start);
    this.blanks(true);
    const items: Word[] = [];
    if (this.keyword() === "in") {
      this.i += 2;
      for (;;) {
        this.blanks();
        const w = this.word();
        if (!w) break;
        items.push(w);
      }
    }
    this.expectKeyword("do", start);
    const body = this.script(["done"]);
    this.expectKeyword("done", start);
    return { kind: "for", at: this.origin(start), name, items, body, redirects: this.redirects() };
  }

  caseCommand(start: number): Command {
    this.i += 4;
    this.blanks();
    if (!this.word()) this.fail("missing case word", start);
    this.expectKeyword("in", start);
    const body: Script = [];
    for (;;) {
      this.blanks(true);
      if (this.keyword() === "esac") break;
      if (this.i >= this.end) this.fail('missing "esac"', start);
      if (this.ch() === "(") this.i++;
      for (;;) {
        this.blanks();
        if (!this.word()) this.fail("missing case pattern");
        this.blanks();
        if (this.ch() === "|") this.i++;
        else if (this.ch() === ")") {
          this.i++;
          break;
        } else this.fail("missing ) after case pattern");
      }
      body.push(...this.script([";;", "esac"]));
      if (this.at(";;&")) this.i += 3;
      else if (this.at(";;") || this.at(";&")) this.i += 2;
    }
    this.i += 4;
    return this.compound(start, body);
  }

  simple(): Command {
    const start = this.i;
    const assigns: Assign[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      this.blanks();
      const c = this.ch();
      if (this.i >= this.end || c === "\n" || c === ";" || c === ")" || c === "|") break;
      if (c === "&" && !this.at("&>")) break;
      const r = this.redirect();
      if (r) {
        redirects.push(r);
        continue;
      }
      if (c === "(") {
        if (words.length === 1 && assigns.length === 0 && this.match(EMPTY_PARENS)) {
          this.i = this.src.indexOf(")", this.i) + 1;
          this.blanks(true);
          return this.compound(start, [{ commands: [this.command()] }]);
        }
        this.fail('unexpected "("');
      }
      const w = this.word();
      if (!w) this.fail(`unexpected "${c}"`);
      const assign = words.length === 0 ? this.assignment(w) : undefined;
      if (assign) assigns.push(assign);
      else words.push(w);
    }
    return { kind: "simple", at: this.origin(start), assigns, words, redirects };
  }

  /** `name=value`, `name[sub]=value` or `name=(a b c)` at the start of a simple command. */
  assignment(w: Word): Assign | undefined {
    const flat = w.parts
      .map((p) => (p.kind === "text" && p.quote === "none" ? p.text : "\0"))
      .join("");
    const m = ASSIGN.exec(flat);
    if (!m) return undefined;
    let offset = 0;
    const subscript: Part[] = [];
    const value: Part[] = [];
    for (const p of w.parts) {
      const len = p.kind === "text" && p.quote === "none" ? p.text.length : 1;
      if (offset + len <= m[0].length) {
        if (p.kind !== "text") subscript.push(p);
      } else if (offset < m[0].length && p.kind === "text") {
        value.push({ ...p, text: p.text.slice(m[0].length - offset) });
      } else value.push(p);
      offset += len;
    }
    const assign: Assign = {
      name: m[1]!,
      at: w.at,
      value: [{ parts: value, at: w.at }],
      subscript,
    };
    if (value.length === 0 && this.ch() === "(") {
      this.i++;
      assign.value = [];
      for (;;) {
        this.blanks(true);
        if (this.ch() === ")") break;
        const item = this.word();
        if (!item) this.fail("unclosed array");
        assign.value.push(item);
      }
      this.i++;
    }
    return assign;
  }
}

/** Reads shell text; `markAt` tells where a mark starts and how long it is. */
export const parseShell = (
  src: string,
  markAt: MarkAt,
): { script: Script; seen: Map<number, MarkSeen> } => {
  const seen = new Map<number, MarkSeen>();
  const reader = new Reader(src, markAt, seen, (i) => i);
  const script = reader.script([]);
  if (reader.pending.length > 0) for (const p of reader.pending.splice(0)) reader.heredoc(p);
  return { script, seen };
};
