/**
 * What the command table says about a command's arguments, and the small readers of
 * argument lists it is written with: options before operands, a flag's value, a word that
 * may still be an option because a value or a variable starts it.
 */
import { literalOf, type Word } from "./shell-syntax";

/** `sh`: the text is shell, so an escaped value is safe in it; `other`: any language else. */
export type Lang = "sh" | "other";
export type Use =
  /** The words (joined by spaces) are parsed as code. */
  | { kind: "code"; words: Word[]; lang: Lang; what: string }
  /** No value may appear in this word at all. */
  | { kind: "opaque"; word: Word; why: string };
export type Analysis = {
  uses: Use[];
  /** The command reads its program from standard input. */
  stdin?: { lang: Lang; what: string };
  /** `-c` given but the code is missing: it would come from what follows (xargs). */
  codeMissing?: boolean;
  /** Indexes of later words that start a command of their own (wrappers). */
  nested: number[];
  /** `read`, `mapfile`: the variables that receive standard input. */
  reads?: string[];
  /** Arguments evaluated as arithmetic (`let`, `declare -i`). */
  arith?: Word[];
  /** The words after the code are the program's own arguments, not commands of a wrapper. */
  ownsRest?: boolean;
};

export const tainted = (w: Word) => w.parts.some((p) => p.kind !== "text");
/** A word not fully known that could still start with "-": a value or variable comes first. */
export const mayBeOption = (w: Word) => {
  const first = w.parts[0];
  return first === undefined || first.kind !== "text" || /^[-+]/.test(first.text);
};
export const isOption = (lit: string | undefined) =>
  lit !== undefined && /^[-+]./.test(lit) && lit !== "--";

/** Options before the first operand, skipping the ones that take an argument. */
export const operandsAfterOptions = (
  args: Word[],
  takesArg: string,
  longWithArg: string[] = [],
) => {
  let j = 0;
  for (; j < args.length; j++) {
    const lit = literalOf(args[j]);
    if (lit === "--") return { options: args.slice(0, j), operands: args.slice(j + 1) };
    if (lit === undefined || !lit.startsWith("-") || lit === "-") break;
    if (lit.startsWith("--")) {
      if (!lit.includes("=") && longWithArg.includes(lit)) j++;
      continue;
    }
    const flags = lit.slice(1);
    const k = [...flags].findIndex((f) => takesArg.includes(f));
    if (k === flags.length - 1) j++;
  }
  return { options: args.slice(0, j), operands: args.slice(j) };
};

/** The word after `flag` (or a cluster ending in it, or `--long=`), wherever it stands. */
export const flagValues = (args: Word[], short: string, long: string[]): Word[] => {
  const out: Word[] = [];
  for (let j = 0; j < args.length; j++) {
    const lit = literalOf(args[j]);
    if (lit === undefined) continue;
    if (long.some((l) => lit.startsWith(`${l}=`))) out.push(args[j]!);
    else if (long.includes(lit) || (short && /^-[A-Za-z]+$/.test(lit) && lit.endsWith(short))) {
      if (args[j + 1]) out.push(args[j + 1]!);
      j++;
    } else if (short && new RegExp(`^-[A-Za-z]*${short}.`).test(lit) && !lit.startsWith("--"))
      out.push(args[j]!);
  }
  return out;
};

/** One word parsed as code, for `.map`. */
export const codeWord =
  (lang: Lang, what: string) =>
  (w: Word): Use => ({ kind: "code", words: [w], lang, what });
export const only = (uses: Use[]): Analysis => ({ uses, nested: [] });
