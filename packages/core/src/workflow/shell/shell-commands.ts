/**
 * Which commands parse one of their arguments (or their standard input) as code, and
 * which argument: shells with `-c`, `eval`, `ssh host …`, `su -c`, `watch`, interpreters
 * with `-c`/`-e`, awk and sed programs, and so on. Wrappers (`env`, `sudo`, `timeout`,
 * `xargs`, `docker exec`, `find -exec`, ...) are looked through: every later word that
 * names a known command is analysed as a command of its own, which errs on refusing.
 */
import {
  flagValues,
  isOption,
  mayBeOption,
  tainted,
  type Analysis,
  type Lang,
  type Use,
} from "./shell-args";
import { SPECIAL } from "./shell-command-rules";
import { literalOf, type Word } from "./shell-syntax";

const SHELLS = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "ksh93",
  "mksh",
  "pdksh",
  "ash",
  "yash",
  "posh",
  "rbash",
]);
/** Shells that read POSIX quoting, so a value escaped for one is safe in their code. */
export const isPosixShell = (name: string) => SHELLS.has(name);
/** Shells whose quoting differs from POSIX: an escaped value is not safe in their code. */
const OTHER_SHELLS = new Set([
  "csh",
  "tcsh",
  "fish",
  "nu",
  "elvish",
  "xonsh",
  "pwsh",
  "powershell",
]);
const WRAPPERS = new Set([
  "env",
  "exec",
  "command",
  "builtin",
  "nice",
  "nohup",
  "time",
  "timeout",
  "stdbuf",
  "setsid",
  "ionice",
  "chrt",
  "taskset",
  "chroot",
  "unshare",
  "nsenter",
  "sudo",
  "doas",
  "xargs",
  "find",
  "docker",
  "podman",
  "nerdctl",
  "kubectl",
  "oc",
  "firejail",
  "bwrap",
  "strace",
  "ltrace",
  "fakeroot",
  "xvfb-run",
  "systemd-run",
  "gosu",
  "su-exec",
  "busybox",
  "npx",
  "flock",
  "runuser",
  "watch",
  "caffeinate",
  "unbuffer",
  "catchsegv",
  "valgrind",
  "proot",
  "sg",
]);
/**
 * Interpreters: the flags whose argument is a program, those that take some other
 * argument, and whether the arguments after the program are the program's own (`stop`).
 */
const INTERPRETERS: Record<
  string,
  { code: string; takesArg: string; long?: string[]; stop?: boolean }
> = {
  python: { code: "c", takesArg: "mWXQ", stop: true },
  pypy: { code: "c", takesArg: "mWXQ", stop: true },
  node: { code: "ep", takesArg: "rC", long: ["--eval", "--print"], stop: true },
  bun: { code: "ep", takesArg: "r", long: ["--eval", "--print"], stop: true },
  php: { code: "rBRE", takesArg: "cdfzt", stop: true },
  perl: { code: "eE", takesArg: "" },
  ruby: { code: "e", takesArg: "IrECx" },
  lua: { code: "e", takesArg: "l" },
  luajit: { code: "e", takesArg: "lbj" },
  Rscript: { code: "e", takesArg: "" },
  R: { code: "e", takesArg: "" },
  osascript: { code: "e", takesArg: "l" },
  expect: { code: "c", takesArg: "f" },
  tclsh: { code: "", takesArg: "" },
  awk: { code: "e", takesArg: "FvfiE", long: ["--source"] },
};
/** Variables another program runs as a shell command. */
export const CODE_VARIABLES = new Set([
  "GIT_SSH_COMMAND",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_PAGER",
  "GIT_EXTERNAL_DIFF",
  "GIT_PROXY_COMMAND",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "LESSOPEN",
  "LESSCLOSE",
  "PROMPT_COMMAND",
  "PS1",
  "PS2",
  "PS3",
  "PS4",
  "RSYNC_RSH",
  "CVS_RSH",
]);
/** The command name a word names: its last path segment, versions dropped (python3.12). */
export const commandName = (w: Word | undefined): string | undefined => {
  const lit = literalOf(w);
  if (lit === undefined) return undefined;
  const base = lit.slice(lit.lastIndexOf("/") + 1);
  const m = /^(python|pypy|lua|ruby|perl|php|node)[\d.]*$/.exec(base);
  if (m) return m[1];
  if (/^[gmn]?awk$/.test(base)) return "awk";
  if (base === "gsed") return "sed";
  if (base === "nodejs") return "node";
  if (base === "slogin") return "ssh";
  if (base === "gmake" || base === "bmake") return "make";
  return base;
};

const isKnownCommand = (name: string | undefined) =>
  name !== undefined &&
  (SHELLS.has(name) ||
    OTHER_SHELLS.has(name) ||
    WRAPPERS.has(name) ||
    name in INTERPRETERS ||
    name in SPECIAL);

/** A shell (`sh -c CODE name args`): options, then the code or the script, then arguments. */
const shell = (name: string, args: Word[]): Analysis => {
  const lang: Lang = SHELLS.has(name) ? "sh" : "other";
  const out: Analysis = { uses: [], nested: [] };
  let hasC = false;
  let stdinFlag = false;
  let j = 0;
  for (; j < args.length; j++) {
    const w = args[j]!;
    const lit = literalOf(w);
    if (lit === undefined) {
      // After -c the first operand is the code, whatever it starts with.
      if (!hasC && tainted(w) && mayBeOption(w))
        out.uses.push({
          kind: "opaque",
          word: w,
          why: `it may be read as an option of "${name}" (put -- before it)`,
        });
      break;
    }
    if (lit === "--" || lit === "-") {
      j += lit === "--" ? 1 : 0;
      break;
    }
    if (!isOption(lit)) break;
    if (lit.startsWith("--")) {
      if (lit === "--rcfile" || lit === "--init-file") j++;
      continue;
    }
    for (const flag of lit.slice(1)) {
      if (flag === "c") hasC = true;
      if (flag === "s" || flag === "i") stdinFlag = true;
      if (flag === "o" || flag === "O") j++;
    }
  }
  const first = args[j];
  if (hasC) {
    if (first) out.uses.push({ kind: "code", words: [first], lang, what: `${name} -c` });
    else out.codeMissing = true;
    out.ownsRest = first !== undefined;
  } else if (stdinFlag || !first || literalOf(first) === "-" || literalOf(first) === "/dev/stdin")
    out.stdin = { lang, what: name };
  return out;
};

/** An interpreter: a code flag's argument is a program; else the first operand is a script. */
const interpreter = (name: string, args: Word[]): Analysis => {
  const spec = INTERPRETERS[name]!;
  const out: Analysis = { uses: [], nested: [] };
  const code = (words: Word[], flag: string) =>
    out.uses.push({ kind: "code", words, lang: "other", what: flag ? `${name} ${flag}` : name });
  // A program given by a flag, or a script file named by one (`awk -f`, `python -m`).
  let program = false;
  let j = 0;
  options: for (; j < args.length; j++) {
    const w = args[j]!;
    const lit = literalOf(w);
    if (lit === undefined) {
      // awk takes no options after its first operand, so a value here is a file or x=y.
      if (tainted(w) && mayBeOption(w) && name !== "awk")
        out.uses.push({
          kind: "opaque",
          word: w,
          why: `it may be read as an option of "${name}" (put -- before it)`,
        });
      break;
    }
    if (lit === "--") {
      j++;
      break;
    }
    if (!lit.startsWith("-") || lit === "-") break;
    if (lit.startsWith("--")) {
      const flag = lit.split("=")[0]!;
      if (spec.long?.includes(flag)) {
        program = true;
        if (lit.includes("=")) code([w], flag);
        else if (args[j + 1]) code([args[++j]!], flag);
        if (spec.stop) break;
      }
      continue;
    }
    const flags = lit.slice(1);
    for (let k = 0; k < flags.length; k++) {
      const f = flags[k]!;
      if (spec.code.includes(f)) {
        program = true;
        if (k < flags.length - 1) code([w], `-${f}`);
        else if (args[j + 1]) code([args[++j]!], `-${f}`);
        else out.codeMissing = true;
        if (spec.stop) break options;
        continue options;
      }
      if (spec.takesArg.includes(f)) {
        if ((name === "awk" && "fE".includes(f)) || (spec.stop && f === "m")) program = true;
        if (k === flags.length - 1) j++;
        if (spec.stop && f === "m") break options;
        continue options;
      }
    }
  }
  out.ownsRest = program && spec.stop;
  if (name === "awk") {
    if (!program && args[j]) code([args[j]!], "");
    return out;
  }
  const first = args[j];
  if (!program && (!first || literalOf(first) === "-" || literalOf(first) === "/dev/stdin"))
    out.stdin = { lang: "other", what: name };
  return out;
};

/** Declaration builtins with `-i` evaluate their assignments as arithmetic. */
const DECLARE = new Set(["declare", "typeset", "local", "readonly", "export"]);

/** What the command starting at `words[0]` does with its arguments. */
export const analyzeCommand = (words: Word[]): Analysis => {
  const name = commandName(words[0]);
  const args = words.slice(1);
  if (name === undefined) return { uses: [], nested: [] };
  if (SHELLS.has(name) || OTHER_SHELLS.has(name)) return shell(name, args);
  if (name in INTERPRETERS) return interpreter(name, args);
  if (DECLARE.has(name)) {
    const integer = args.some((w) => /^-[a-zA-Z]*i/.test(literalOf(w) ?? ""));
    return {
      uses: [],
      nested: [],
      arith: integer ? args.filter((w) => !/^-/.test(literalOf(w) ?? "")) : undefined,
    };
  }
  const out = SPECIAL[name]?.(args) ?? { uses: [], nested: [] };
  if (WRAPPERS.has(name)) {
    for (let k = 1; k < words.length; k++) {
      const inner = commandName(words[k]);
      if (!isKnownCommand(inner) || WRAPPERS.has(inner!)) continue;
      out.nested.push(k);
      // `sh -c CODE sh ARGS`: the second "sh" is $0, not a command.
      if (analyzeCommand(words.slice(k)).ownsRest) break;
    }
    if (name === "env")
      out.uses.push(
        ...flagValues(args, "S", ["--split-string"]).map((w): Use => ({
          kind: "code",
          words: [w],
          lang: "other",
          what: "env -S",
        })),
      );
    if (name === "sudo" || name === "doas") {
      const shellFlag = args.some((w) =>
        /^-[A-Za-z]*[si]$|^--(shell|login)$/.test(literalOf(w) ?? ""),
      );
      if (
        shellFlag &&
        out.nested.length === 0 &&
        !args.some((w) => !/^-/.test(literalOf(w) ?? "-"))
      )
        out.stdin = { lang: "sh", what: `${name} -s` };
    }
  }
  return out;
};
