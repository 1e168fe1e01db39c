/**
 * Finds where a `{{ }}` value would be parsed as code a second time. The outer `sh -c`
 * never parses a value (it travels in an environment variable), but `sh -c '…'`, `eval`,
 * `ssh host …`, `python -c`, a pipe into `sh` and the like parse their argument or their
 * input again. Each such argument is read as shell in its turn (level 1, 2, ...), so a value
 * is accepted there only when it arrives escaped (`{{escape x}}`) and unquoted, or as a
 * variable the inner shell expands itself. Variables assigned from values are followed
 * too, as are values in bash arithmetic, which runs subscripts' command substitutions.
 */
import type { MarkInfo } from "./mark-info";
import { hintFor } from "./nested-shell-hints";
import type { Lang } from "./shell-args";
import { analyzeCommand, CODE_VARIABLES, commandName } from "./shell-commands";
import {
  literalOf,
  parseShell,
  ShellSyntaxError,
  type Command,
  type MarkAt,
  type Part,
  type Script,
  type Word,
} from "./shell-syntax";

export type NestedShellFinding = { at: number; message: string };

const PUA = 0xe000;
const MAX_LEVELS = 16;
const ARITH_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
const DECLARE = new Set(["export", "local", "declare", "typeset", "readonly"]);
const IDENT = /[A-Za-z_]\w*/g;

type Source = { at: number; numeric: boolean; label: string; mark?: number; param?: string };
type Ctx = {
  level: number;
  /** Where findings inside an inner level are reported: the outermost code argument. */
  anchor: number;
  /** What standard input carries a value, if it does. */
  stdin?: Source;
  report: boolean;
  taint: Map<string, boolean>;
  /** The command whose code this level is, for messages. */
  within?: string;
};

class Checker {
  readonly findings: NestedShellFinding[] = [];
  changed = false;

  constructor(
    readonly marks: MarkInfo[],
    readonly numericVariables: Set<string>,
  ) {}

  label(m: number) {
    return `{{${this.marks[m]!.source}}}`;
  }

  report(ctx: Ctx, at: number, message: string) {
    if (!ctx.report) return;
    // One finding a place: the first (most specific) explanation is enough.
    if (this.findings.some((f) => f.at === at)) return;
    this.findings.push({ at, message });
  }

  /** Where a piece at `at` of the current level is reported. */
  where(ctx: Ctx, at: number) {
    return ctx.level === 0 ? at : ctx.anchor;
  }

  /** A variable is a value when it is an SY_ variable, a positional one, or assigned one. */
  taintOf(name: string, ctx: Ctx): boolean | undefined {
    if (/^(\d+|[@*])$/.test(name)) return false;
    if (name.startsWith("SY_")) return this.numericVariables.has(name);
    return ctx.taint.get(name);
  }

  // ---- sources: what in a word carries a value ---------------------------------------

  sources(parts: Part[], ctx: Ctx): Source[] {
    const out: Source[] = [];
    for (const p of parts) {
      switch (p.kind) {
        case "text":
          break;
        case "mark": {
          const m = this.marks[p.id]!;
          out.push({ at: m.at, numeric: m.numeric, label: this.label(p.id), mark: p.id });
          break;
        }
        case "param": {
          if (p.length) break;
          const ref = /^SY_REF_(\d+)$/.exec(p.name);
          if (ref) {
            const id = Number(ref[1]);
            out.push({
              at: this.marks[id]!.at,
              numeric: this.marks[id]!.numeric,
              label: this.label(id),
              mark: id,
            });
            break;
          }
          const numeric = this.taintOf(p.name, ctx);
          if (numeric !== undefined)
            out.push({ at: this.where(ctx, p.at), numeric, label: `$${p.name}`, param: p.name });
          break;
        }
        case "subst": {
          const inner = this.scriptSources(p.body, ctx);
          if (inner.length) out.push({ ...inner[0]!, numeric: inner.every((s) => s.numeric) });
          break;
        }
        case "arith":
          break;
        default: {
          const never: never = p;
          return never;
        }
      }
    }
    return out;
  }

  scriptSources(script: Script, ctx: Ctx): Source[] {
    return script.flatMap((pl) => pl.commands.flatMap((c) => this.commandSources(c, ctx)));
  }

  commandSources(c: Command, ctx: Ctx): Source[] {
    const redirects = c.redirects.flatMap((r) => [
      ...(r.target ? this.sources(r.target.parts, ctx) : []),
      ...(r.heredoc && !r.quoted ? this.sources(r.heredoc.parts, ctx) : []),
      ...(r.heredoc && r.quoted && ctx.level === 0 ? this.sources(r.heredoc.parts, ctx) : []),
    ]);
    switch (c.kind) {
      case "simple":
        return [
          ...c.assigns.flatMap((a) => a.value.flatMap((w) => this.sources(w.parts, ctx))),
          ...c.words.flatMap((w) => this.sources(w.parts, ctx)),
          ...redirects,
        ];
      case "compound":
        return [...this.scriptSources(c.body, ctx), ...redirects];
      case "for":
        return [
          ...c.items.flatMap((w) => this.sources(w.parts, ctx)),
          ...this.scriptSources(c.body, ctx),
          ...redirects,
        ];
      case "cond":
        return [...c.words.flatMap((w) => this.sources(w.parts, ctx)), ...redirects];
      case "arith":
        return redirects;
      default: {
        const never: never = c;
        return never;
      }
    }
  }

  hostile(sources: Source[]) {
    return sources.filter((s) => !s.numeric);
  }

  taintName(name: string, sources: Source[], ctx: Ctx) {
    if (sources.length === 0) return;
    const numeric = sources.every((s) => s.numeric);
    const before = ctx.taint.get(name);
    if (before === false || before === numeric) return;
    ctx.taint.set(name, numeric);
    this.changed = true;
  }

  // ---- messages -------------------------------------------------------------------

  /** How to get the value into that code safely instead. */
  pasted(ctx: Ctx, s: Source, lang: Lang, what: string) {
    const how = s.param
      ? `$${s.param} holds a {{ }} value and is expanded into the code that "${what}" runs`
      : `${s.label} is pasted into the code that "${what}" runs`;
    const danger =
      lang === "sh"
        ? `so that shell parses the value again and "x; rm -rf ~" in it would run as a command`
        : `which parses the value as a program${s.mark !== undefined && this.marks[s.mark]!.escapes > 0 ? " (escape quotes for a POSIX shell, not for this language)" : ""}`;
    this.report(
      ctx,
      s.at,
      `${how}, ${danger}: ${hintFor(s, s.mark === undefined ? undefined : this.marks[s.mark], lang, what)}`,
    );
  }

  // ---- the walk -------------------------------------------------------------------

  script(script: Script, ctx: Ctx) {
    for (const pl of script) {
      let upstream: Source | undefined;
      pl.commands.forEach((c, k) => {
        const stdin = k === 0 ? ctx.stdin : (upstream ?? ctx.stdin);
        this.command(c, { ...ctx, stdin });
        upstream ??= this.hostile(this.commandSources(c, ctx))[0];
      });
    }
  }

  /** Checks what a word holds at this level: substitutions, arithmetic, subscripts. */
  word(w: Word, ctx: Ctx) {
    this.parts(w.parts, ctx);
  }

  parts(parts: Part[], ctx: Ctx) {
    for (const p of parts) {
      if (p.kind === "subst") this.script(p.body, ctx);
      else if (p.kind === "arith") this.arith(p.body.parts, ctx);
      else if (p.kind === "param" && p.subscript) this.arith(p.subscript.parts, ctx);
    }
  }

  /** Bash evaluates arithmetic text as an expression and runs `$( )` inside subscripts. */
  arith(parts: Part[], ctx: Ctx) {
    this.parts(parts, ctx);
    const found = [...this.hostile(this.sources(parts, ctx))];
    for (const p of parts) {
      if (p.kind !== "text" || p.quote !== "none") continue;
      for (const m of p.text.matchAll(IDENT)) {
        // The target of an assignment (`n=…`, `(( n = … ))`) is not read.
        const after = p.text.slice(m.index + m[0].length).trimStart();
        if (after.startsWith("=") && !after.startsWith("==")) continue;
        const numeric = this.taintOf(m[0], ctx);
        if (numeric === false)
          found.push({ at: this.where(ctx, p.at), numeric, label: m[0], param: m[0] });
      }
    }
    for (const s of found)
      this.report(
        ctx,
        s.at,
        `${s.label}${s.param ? " holds a {{ }} value and" : ""} is evaluated as arithmetic, where bash runs the command substitutions an array subscript in the value may hold ("a[$(rm -rf ~)]"): declare the input "type: integer" or "type: number", or check it is digits first (case $n in *[!0-9]*) exit 1;; esac)`,
      );
  }

  ownStdin(
    c: Command,
    ctx: Ctx,
  ): { stdin?: Source; heredoc?: { word: Word; quoted: boolean } } | undefined {
    let out: { stdin?: Source; heredoc?: { word: Word; quoted: boolean } } | undefined;
    for (const r of c.redirects) {
      if (r.target && r.op !== "<<" && r.op !== "<<-") this.word(r.target, ctx);
      if (r.heredoc) this.parts(r.heredoc.parts, ctx);
      if (r.op === "<<<" && r.target)
        out = {
          stdin: this.hostile(this.sources(r.target.parts, ctx))[0],
          heredoc: { word: r.target, quoted: false },
        };
      else if (r.heredoc) {
        const counted = !r.quoted || ctx.level === 0;
        out = {
          stdin: counted ? this.hostile(this.sources(r.heredoc.parts, ctx))[0] : undefined,
          heredoc: { word: r.heredoc, quoted: r.quoted === true },
        };
      } else if (r.op === "<" && !/^\d/.test(r.op)) out = {};
    }
    return out;
  }

  command(c: Command, ctx: Ctx) {
    const own = this.ownStdin(c, ctx);
    const inner = { ...ctx, stdin: own ? own.stdin : ctx.stdin };
    switch (c.kind) {
      case "compound":
        this.script(c.body, inner);
        return;
      case "arith":
        this.arith(c.body.parts, ctx);
        return;
      case "for":
        c.items.forEach((w) => this.word(w, ctx));
        this.taintName(
          c.name,
          c.items.flatMap((w) => this.sources(w.parts, ctx)),
          ctx,
        );
        this.script(c.body, inner);
        return;
      case "cond": {
        c.words.forEach((w) => this.word(w, ctx));
        if (c.words.some((w) => ARITH_TESTS.has(literalOf(w) ?? "")))
          c.words.forEach((w) => this.arith(w.parts, ctx));
        return;
      }
      case "simple":
        this.simple(c, inner, own?.heredoc);
        return;
      default: {
        const never: never = c;
        return never;
      }
    }
  }

  simple(
    c: Extract<Command, { kind: "simple" }>,
    ctx: Ctx,
    heredoc?: { word: Word; quoted: boolean },
  ) {
    for (const a of c.assigns) {
      a.value.forEach((w) => this.word(w, ctx));
      this.arith(a.subscript, ctx);
      this.taintName(
        a.name,
        a.value.flatMap((w) => this.sources(w.parts, ctx)),
        ctx,
      );
      if (CODE_VARIABLES.has(a.name) && a.value[0]) this.code(a.value, "sh", a.name, ctx);
    }
    c.words.forEach((w) => this.word(w, ctx));
    const name = commandName(c.words[0]);
    if (name && (DECLARE.has(name) || name === "env")) this.declarations(c.words.slice(1), ctx);
    if (name === "printf") {
      const v = c.words.findIndex((w) => literalOf(w) === "-v");
      const target = literalOf(c.words[v + 1]);
      if (v > 0 && target)
        this.taintName(
          target,
          c.words.slice(v + 2).flatMap((w) => this.sources(w.parts, ctx)),
          ctx,
        );
    }
    const main = analyzeCommand(c.words);
    const analyses = [main, ...main.nested.map((k) => analyzeCommand(c.words.slice(k)))];
    if (name === "xargs" && ctx.stdin && !ctx.stdin.numeric) {
      const replace = c.words.some((w) => /^(-I|-i|--replace)/.test(literalOf(w) ?? ""));
      if (
        analyses
          .slice(1)
          .some(
            (a) => a.codeMissing || (replace && a.uses.some((u) => u.kind === "code")) || a.stdin,
          )
      )
        this.report(
          ctx,
          ctx.stdin.at,
          `${ctx.stdin.label} reaches "xargs", which hands it to a command that parses it as code: pass the value in the environment or as an argument after the code instead`,
        );
    }
    for (const a of analyses) {
      for (const u of a.uses) {
        if (u.kind === "code") this.code(u.words, u.lang, u.what, ctx);
        else
          for (const s of this.hostile(this.sources(u.word.parts, ctx)))
            this.report(ctx, s.at, `${s.label} cannot stand here: ${u.why}`);
      }
      if (a.arith) a.arith.forEach((w) => this.arith(w.parts, ctx));
      if (a.reads && ctx.stdin) for (const n of a.reads) this.taintName(n, [ctx.stdin], ctx);
      if (a.stdin) this.stdinCode(a.stdin.lang, a.stdin.what, ctx, heredoc);
    }
  }

  /** `export NAME=value`, `local NAME=value`, `env NAME=value cmd`. */
  declarations(args: Word[], ctx: Ctx) {
    for (const w of args) {
      const first = w.parts[0];
      const m = first?.kind === "text" ? /^([A-Za-z_]\w*)=/.exec(first.text) : null;
      if (!m) continue;
      this.taintName(m[1]!, this.sources(w.parts, ctx), ctx);
      if (CODE_VARIABLES.has(m[1]!)) this.code([w], "sh", m[1]!, ctx);
    }
  }

  /** A program read from standard input: from a here-document it is checked as code. */
  stdinCode(lang: Lang, what: string, ctx: Ctx, heredoc?: { word: Word; quoted: boolean }) {
    const s = ctx.stdin;
    if (heredoc && lang === "sh" && !(heredoc.quoted && ctx.level > 0)) {
      // The document's text is the program; values expanded into it are pasted code.
      if (!heredoc.quoted) {
        for (const src of this.hostile(this.sources(heredoc.word.parts, ctx)))
          this.pasted(ctx, src, lang, what);
        if (this.hostile(this.sources(heredoc.word.parts, ctx)).length) return;
      }
      this.inner([heredoc.word], what, ctx, heredoc.quoted);
      return;
    }
    if (s && !s.numeric)
      this.report(
        ctx,
        s.at,
        `${s.label} reaches the standard input of "${what}", which reads it as ${lang === "sh" ? "shell code" : "a program"}: pass the value in the environment (${s.mark !== undefined && this.marks[s.mark]!.variable ? this.marks[s.mark]!.variable : "an exported variable"}) or as an argument instead`,
      );
  }

  /** Words another program parses as code (`lang`), joined by spaces. */
  code(words: Word[], lang: Lang, what: string, ctx: Ctx) {
    let bad = false;
    for (const w of words) {
      for (const s of this.hostile(this.sources(w.parts, ctx))) {
        // An escaped value is one quoted word for each shell it still has to pass.
        if (lang === "sh" && s.mark !== undefined && this.marks[s.mark]!.escapes > ctx.level)
          continue;
        this.pasted(ctx, s, lang, what);
        bad = true;
      }
    }
    if (!bad && lang === "sh") this.inner(words, what, ctx, false);
  }

  /** Checks the text an inner shell parses, one level deeper. */
  inner(words: Word[], what: string, ctx: Ctx, referencesOnly: boolean) {
    if (!ctx.report) return;
    const text = words.map((w) => this.innerText(w, ctx, referencesOnly)).join(" ");
    const level = ctx.level + 1;
    const anchor = ctx.level === 0 ? (words[0]?.at ?? 0) : ctx.anchor;
    if (level > MAX_LEVELS) {
      this.report(ctx, anchor, `shells nested more than ${MAX_LEVELS} deep cannot be checked`);
      return;
    }
    let parsed: ReturnType<typeof parseShell>;
    try {
      parsed = parseShell(text, (i) => {
        const code = text.charCodeAt(i) - PUA;
        return code >= 0 && code < this.marks.length ? { id: code, len: 1 } : undefined;
      });
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      if (/[\ue000-\uf8ff]|SY_/.test(text))
        this.report(
          ctx,
          anchor,
          `the code that "${what}" runs is not valid shell (${error.message}), so where its values go cannot be checked`,
        );
      return;
    }
    for (const ch of text.matchAll(/[\ue000-\uf8ff]/g)) {
      const id = ch[0].charCodeAt(0) - PUA;
      const seen = parsed.seen.get(id);
      const m = this.marks[id]!;
      const label = this.label(id);
      const before = text[ch.index - 1];
      if (before === "$" || before === "\\")
        this.report(
          ctx,
          m.at,
          `${label} follows a "${before}" in the code that "${what}" runs, which changes how its quotes are read: put a space or other text before it`,
        );
      else if (!seen)
        this.report(
          ctx,
          m.at,
          `${label} stands in a comment of the code that "${what}" runs, where a newline in the value would end the comment and run the rest: move it out of the comment`,
        );
      else if (seen.quote !== "none" || seen.arith)
        this.report(
          ctx,
          m.at,
          `${label} is quoted for one more shell, but in the code that "${what}" runs it stands ${seen.arith ? "in arithmetic" : `inside ${seen.quote === "heredoc" ? "a here-document" : `${seen.quote} quotes`}`}, where its quotes are not removed and "$( )" in the value would run: put it outside any quotes in that code (sh -c "echo ${label}")`,
        );
    }
    this.level(parsed.script, {
      level,
      anchor,
      stdin: ctx.stdin,
      report: true,
      taint: new Map(ctx.taint),
      within: what,
    });
  }

  /** The text a word becomes when this level hands it on: marks stay marks, values a placeholder. */
  innerText(w: Word, ctx: Ctx, referencesOnly: boolean): string {
    return w.parts
      .map((p) => {
        switch (p.kind) {
          case "text":
            return p.text.replace(/[\ue000-\uf8ff]/g, "_");
          case "mark":
            if (this.marks[p.id]!.numeric) return "0";
            // In a quoted here-document the outer shell leaves the reference for the inner one.
            return referencesOnly ? `"\${SY_REF_${p.id}}"` : String.fromCharCode(PUA + p.id);
          case "param":
            return p.length || this.taintOf(p.name, ctx) === true ? "0" : "_";
          case "subst":
            return "_";
          case "arith":
            return "0";
          default: {
            const never: never = p;
            return never;
          }
        }
      })
      .join("");
  }

  /** One shell's text: variables are followed to a fixed point, then findings reported. */
  level(script: Script, ctx: Ctx) {
    for (let pass = 0; pass < 5; pass++) {
      this.changed = false;
      this.script(script, { ...ctx, report: false });
      if (!this.changed) break;
    }
    this.script(script, ctx);
  }
}

type NestedShellOptions = {
  marks: MarkInfo[];
  /** Where a mark starts in `text` and how long it is. */
  markAt: MarkAt;
  /** SY_ variables whose values are numbers. */
  numericVariables?: Set<string>;
};

/** Every place in a shell text where a value would be parsed as code again. */
export const findNestedShells = (
  text: string,
  options: NestedShellOptions,
): NestedShellFinding[] => {
  // Without a value or a variable holding one, nothing can reach a second shell.
  if (options.marks.length === 0 && !text.includes("SY_")) return [];
  const checker = new Checker(options.marks, options.numericVariables ?? new Set());
  let script: Script;
  try {
    script = parseShell(text, options.markAt).script;
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    return [
      {
        at: error.at,
        message: `the command is not valid shell (${error.message}), so where its {{ }} values go cannot be checked`,
      },
    ];
  }
  checker.level(script, { level: 0, anchor: 0, report: true, taint: new Map() });
  return checker.findings.sort((a, b) => a.at - b.at);
};
