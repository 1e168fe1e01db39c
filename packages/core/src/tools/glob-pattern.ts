/**
 * Glob patterns for Glob and Grep's `glob`: `**` crosses folders, `*` and `?` stay inside
 * one name, `{a,b}` alternates (nested too) and `[...]` is a character class (`[!...]`
 * negates); dotfiles are not special. A pattern comes from a model, so it is compiled to
 * an automaton and matched by simulating every state at once: time grows with path length
 * times pattern length, never exponentially, whatever the braces and stars. A regular
 * expression would backtrack (`{*,*}` eight times then `!` took minutes on one name).
 */
import { AppError } from "../errors/app-error";
import { PATTERN_INVALID, PATTERN_TOO_COMPLEX } from "../patterns/pattern-errors";

export const GLOB_MAX_LENGTH = 4096;
export const GLOB_MAX_NESTING = 32;

type Piece =
  | { t: "char"; c: number }
  | { t: "name-char" } // `?`
  | { t: "name-run" } // `*`: any run of characters but `/`
  | { t: "folders" } // `**/`: zero or more whole folders
  | { t: "anything" } // a trailing `**`
  | { t: "class"; test: (c: number) => boolean }
  | { t: "alt"; alts: Piece[][] };

const SLASH = 47;

const classOf = (body: string): ((c: number) => boolean) => {
  const source = body.startsWith("!") ? `^${body.slice(1)}` : body;
  let re: RegExp;
  try {
    // One bracket expression tested on one character: no backtracking is possible.
    re = new RegExp(`[${source.replace(/\\/g, "\\\\")}]`);
  } catch (error) {
    throw new AppError(
      PATTERN_INVALID,
      `[${body}] is not a valid character class: ${(error as Error).message}`,
    );
  }
  const ascii = Array.from({ length: 128 }, (_, c) => re.test(String.fromCharCode(c)));
  return (c) => (c < 128 ? ascii[c]! : re.test(String.fromCharCode(c)));
};

const parse = (pattern: string): Piece[] => {
  if (pattern.length > GLOB_MAX_LENGTH)
    throw new AppError(
      PATTERN_TOO_COMPLEX,
      `the glob pattern is longer than ${GLOB_MAX_LENGTH} characters`,
    );
  const root: Piece[] = [];
  const groups: { alts: Piece[][]; outer: Piece[] }[] = [];
  let seq = root;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        const atStart = i === 0 || pattern[i - 1] === "/";
        const atEnd = i + 2 === pattern.length || pattern[i + 2] === "/";
        if (atStart && atEnd) {
          if (pattern[i + 2] === "/") {
            seq.push({ t: "folders" });
            i += 2;
          } else {
            seq.push({ t: "anything" });
            i += 1;
          }
          continue;
        }
        i += 1;
      }
      seq.push({ t: "name-run" });
    } else if (c === "?") {
      seq.push({ t: "name-char" });
    } else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) seq.push({ t: "char", c: c.charCodeAt(0) });
      else {
        seq.push({ t: "class", test: classOf(pattern.slice(i + 1, close)) });
        i = close;
      }
    } else if (c === "{") {
      if (groups.length >= GLOB_MAX_NESTING)
        throw new AppError(
          PATTERN_TOO_COMPLEX,
          `the glob pattern nests braces deeper than ${GLOB_MAX_NESTING}`,
        );
      groups.push({ alts: [], outer: seq });
      seq = [];
    } else if (c === "}" && groups.length > 0) {
      const group = groups.pop()!;
      group.alts.push(seq);
      seq = group.outer;
      seq.push({ t: "alt", alts: group.alts });
    } else if (c === "," && groups.length > 0) {
      groups.at(-1)!.alts.push(seq);
      seq = [];
    } else {
      seq.push({ t: "char", c: pattern.charCodeAt(i) });
    }
  }
  // An unclosed brace closes at the end, as it always has.
  while (groups.length > 0) {
    const group = groups.pop()!;
    group.alts.push(seq);
    seq = group.outer;
    seq.push({ t: "alt", alts: group.alts });
  }
  return root;
};

/** Thompson automaton: consuming states have one `next`; Split has two; Match none. */
const Kind = { Char: 0, NameChar: 1, Any: 2, Class: 3, Split: 4, Match: 5 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

class Automaton {
  readonly kind: Kind[] = [];
  readonly next: number[] = [];
  readonly alt: number[] = [];
  readonly code: number[] = [];
  readonly tests: ((c: number) => boolean)[] = [];

  add(kind: Kind, next = -1, alt = -1, code = -1): number {
    this.kind.push(kind);
    this.next.push(next);
    this.alt.push(alt);
    this.code.push(code);
    return this.kind.length - 1;
  }

  /** A loop of `kind` that may run zero or more times before `exit`. */
  private loop(kind: Kind, exit: number): number {
    const split = this.add(Kind.Split, -1, exit);
    this.next[split] = this.add(kind, split);
    return split;
  }

  /** Compiles the pieces back to front, each given the state that follows it. */
  compile(pieces: Piece[], follow: number): number {
    let next = follow;
    for (let i = pieces.length - 1; i >= 0; i--) {
      const p = pieces[i]!;
      switch (p.t) {
        case "char":
          next = this.add(Kind.Char, next, -1, p.c);
          break;
        case "name-char":
          next = this.add(Kind.NameChar, next);
          break;
        case "name-run":
          next = this.loop(Kind.NameChar, next);
          break;
        case "anything":
          next = this.loop(Kind.Any, next);
          break;
        case "folders": {
          const outer = this.add(Kind.Split, -1, next);
          const slash = this.add(Kind.Char, outer, -1, SLASH);
          this.next[outer] = this.loop(Kind.NameChar, slash);
          next = outer;
          break;
        }
        case "class":
          this.tests.push(p.test);
          next = this.add(Kind.Class, next, -1, this.tests.length - 1);
          break;
        case "alt": {
          const starts = p.alts.map((a) => this.compile(a, next));
          next = starts.reduceRight((rest, start) => this.add(Kind.Split, start, rest));
          break;
        }
        default: {
          const never: never = p;
          return never;
        }
      }
    }
    return next;
  }
}

type GlobMatch = { test: (path: string) => boolean };

export const compileGlob = (pattern: string): GlobMatch => {
  const a = new Automaton();
  const match = a.add(Kind.Match);
  const start = a.compile(parse(pattern), match);
  const { kind, next, alt, code, tests } = a;
  const seen = new Uint32Array(kind.length);
  let generation = 0;
  const stack: number[] = [];

  /** Adds `from` and every state reachable from it without reading a character. */
  const close = (from: number, into: number[]) => {
    stack.push(from);
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (seen[s] === generation) continue;
      seen[s] = generation;
      if (kind[s] === Kind.Split) stack.push(alt[s]!, next[s]!);
      else into.push(s);
    }
  };
  const step = () => {
    if (++generation === 0xffffffff) {
      seen.fill(0);
      generation = 1;
    }
  };

  return {
    test: (path) => {
      step();
      let current: number[] = [];
      close(start, current);
      for (let i = 0; i < path.length && current.length > 0; i++) {
        const c = path.charCodeAt(i);
        step();
        const following: number[] = [];
        for (const s of current) {
          let ok: boolean;
          switch (kind[s]!) {
            case Kind.Char:
              ok = code[s] === c;
              break;
            case Kind.NameChar:
              ok = c !== SLASH;
              break;
            case Kind.Any:
              ok = true;
              break;
            case Kind.Class:
              ok = tests[code[s]!]!(c);
              break;
            case Kind.Split:
            case Kind.Match:
              ok = false;
              break;
          }
          if (ok) close(next[s]!, following);
        }
        current = following;
      }
      return current.includes(match);
    },
  };
};

/** A pattern without a slash matches a file's base name anywhere, as most tools do. */
export const globMatcher = (pattern: string): ((relativePath: string) => boolean) => {
  const glob = compileGlob(pattern);
  if (pattern.includes("/")) return (p) => glob.test(p);
  return (p) => glob.test(p.slice(p.lastIndexOf("/") + 1));
};
