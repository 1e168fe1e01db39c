/**
 * Which commands parse one of their arguments (or their standard input) as code, and
 * which argument: shells with `-c`, `eval`, `ssh host …`, `su -c`, `watch`, interpreters
 * with `-c`/`-e`, awk and sed programs, and so on. Wrappers (`env`, `sudo`, `timeout`,
 * `xargs`, `docker exec`, `find -exec`, ...) are looked through: every later word that
 * names a known command is analysed as a command of its own, which errs on refusing.
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
const GIT_CODE_KEYS =
  /^(core\.(sshcommand|editor|pager|fsmonitor)|alias\..*|credential\..*|sequence\.editor|diff\.external|.*\.(command|driver|clean|smudge|process|textconv|cmd|program))=/i;

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

export const isKnownCommand = (name: string | undefined) =>
  name !== undefined &&
  (SHELLS.has(name) ||
    OTHER_SHELLS.has(name) ||
    WRAPPERS.has(name) ||
    name in INTERPRETERS ||
    name in SPECIAL);

const tainted = (w: Word) => w.parts.some((p) => p.kind !== "text");
/** A word not fully known that could still start with "-": a value or variable comes first. */
const mayBeOption = (w: Word) => {
  const first = w.parts[0];
  return first === undefined || first.kind !== "text" || /^[-+]/.test(first.text);
};
const isOption = (lit: string | undefined) =>
  lit !== undefined && /^[-+]./.test(lit) && lit !== "--";

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

/** Options before the first operand, skipping the ones that take an argument. */
const operandsAfterOptions = (args: Word[], takesArg: string, longWithArg: string[] = []) => {
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
const flagValues = (args: Word[], short: string, long: string[]): Word[] => {
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

/**
 * ssh's and scp's options: a value may not be an option itself, nor the argument of `-o`
 * (ProxyCommand, LocalCommand run commands); other option arguments are plain data.
 */
const sshOptions = (name: string, args: Word[], takesArg: string) => {
  const uses: Use[] = [];
  const why = `"${name}" reads options such as -oProxyCommand=… from it, which run commands`;
  let j = 0;
  let dashed = false;
  for (; j < args.length; j++) {
    const w = args[j]!;
    const first = w.parts[0];
    const lead = first?.kind === "text" ? first.text : "";
    if (literalOf(w) === "--") {
      dashed = true;
      j++;
      break;
    }
    if (!lead.startsWith("-")) break;
    const flags = lead.slice(1);
    const k = [...flags].findIndex((f) => takesArg.includes(f));
    if (k < 0) continue;
    const attached = k < flags.length - 1 || w.parts.length > 1;
    const value = attached ? w : args[++j];
    if (value && flags[k] === "o" && tainted(value))
      uses.push({ kind: "opaque", word: value, why });
  }
  return { uses, operands: args.slice(j), dashed };
};

/** One word parsed as code, for `.map`. */
const codeWord =
  (lang: Lang, what: string) =>
  (w: Word): Use => ({ kind: "code", words: [w], lang, what });
const only = (uses: Use[]): Analysis => ({ uses, nested: [] });

/** scp/rsync read `host:path` from an operand and the remote shell parses the path. */
const remotePathRule = (name: string, operands: Word[]): Use[] =>
  operands.flatMap((w): Use[] => {
    if (!tainted(w)) return [];
    const first = w.parts[0];
    const lead = first?.kind === "text" ? first.text : "";
    const slash = lead.indexOf("/");
    if (slash >= 0 && !lead.slice(0, slash).includes(":")) return [];
    return [
      {
        kind: "opaque",
        word: w,
        why: `"${name}" reads host:path from it, and the remote shell parses the path again (start a local path with ./ or /)`,
      },
    ];
  });

const SPECIAL: Record<string, (args: Word[]) => Analysis> = {
  eval: (args) => ({
    uses: args.length ? [{ kind: "code", words: args, lang: "sh", what: "eval" }] : [],
    nested: [],
  }),
  trap: (args) => {
    const ops = args.filter((w) => !/^-[lp-]?$/.test(literalOf(w) ?? "x"));
    return {
      uses: ops[0] ? [{ kind: "code", words: [ops[0]], lang: "sh", what: "trap" }] : [],
      nested: [],
    };
  },
  alias: (args) => ({
    uses: args.map((w): Use => ({ kind: "code", words: [w], lang: "sh", what: "alias" })),
    nested: [],
  }),
  su: (args) => suLike("su", args),
  runuser: (args) => suLike("runuser", args),
  ssh: (args) => {
    const { uses, operands, dashed } = sshOptions("ssh", args, "BbcDEeFIiJLlmOoPpQRSWw");
    const [host, ...command] = operands;
    if (host && !dashed && mayBeOption(host) && tainted(host))
      uses.push({
        kind: "opaque",
        word: host,
        why: 'a value starting with "-" would be an option of "ssh" (write ssh -- HOST)',
      });
    if (command.length) uses.push({ kind: "code", words: command, lang: "sh", what: "ssh host …" });
    return {
      uses,
      nested: [],
      stdin: host && !command.length ? { lang: "sh", what: "ssh host" } : undefined,
    };
  },
  scp: (args) => {
    const { uses, operands } = sshOptions("scp", args, "cFiJloPSX");
    return { uses: [...uses, ...remotePathRule("scp", operands)], nested: [] };
  },
  rsync: (args) => {
    const { operands } = operandsAfterOptions(args, "eBfT", [
      "--rsh",
      "--rsync-path",
      "--filter",
      "--exclude",
      "--include",
    ]);
    const code = flagValues(args, "e", ["--rsh", "--rsync-path"]);
    return {
      uses: [
        ...code.map((w): Use => ({ kind: "code", words: [w], lang: "sh", what: "rsync -e" })),
        ...remotePathRule("rsync", operands),
      ],
      nested: [],
    };
  },
  watch: (args) => {
    const { options, operands } = operandsAfterOptions(args, "nq", ["--interval"]);
    if (options.some((w) => ["-x", "--exec"].includes(literalOf(w) ?? "")))
      return { uses: [], nested: [] };
    return {
      uses: operands.length ? [{ kind: "code", words: operands, lang: "sh", what: "watch" }] : [],
      nested: [],
    };
  },
  flock: (args) => only(flagValues(args, "c", ["--command"]).map(codeWord("sh", "flock -c"))),
  script: (args) => only(flagValues(args, "c", ["--command"]).map(codeWord("sh", "script -c"))),
  npx: (args) => only(flagValues(args, "c", ["--call"]).map(codeWord("sh", "npx -c"))),
  parallel: (args) => {
    const end = args.findIndex((w) => /^:::/.test(literalOf(w) ?? ""));
    const { operands } = operandsAfterOptions(end < 0 ? args : args.slice(0, end), "jSaIdEn");
    return {
      uses: operands.length
        ? [{ kind: "code", words: operands, lang: "sh", what: "parallel" }]
        : [],
      nested: [],
    };
  },
  sed: (args) => {
    const scripts = flagValues(args, "e", ["--expression"]);
    const usesFile = flagValues(args, "f", ["--file"]).length > 0;
    const { operands } = operandsAfterOptions(args, "efl", [
      "--expression",
      "--file",
      "--line-length",
    ]);
    const program = scripts.length || usesFile ? scripts : operands.slice(0, 1);
    return {
      uses: program.map((w): Use => ({
        kind: "code",
        words: [w],
        lang: "other",
        what: "sed",
      })),
      nested: [],
    };
  },
  deno: (args) =>
    literalOf(args[0]) === "eval" && args[1]
      ? { uses: [{ kind: "code", words: [args[1]], lang: "other", what: "deno eval" }], nested: [] }
      : { uses: [], nested: [] },
  git: (args) => ({
    uses: flagValues(args, "c", [])
      .filter((w) =>
        GIT_CODE_KEYS.test(
          literalOf({ parts: w.parts.filter((p) => p.kind === "text"), at: 0 }) ?? "",
        ),
      )
      .map((w): Use => ({ kind: "code", words: [w], lang: "sh", what: "git -c" })),
    nested: [],
  }),
  make: (args) => ({
    uses: args
      .filter((w) =>
        /^[A-Za-z_][\w.]*\+?=/.test((w.parts[0]?.kind === "text" && w.parts[0].text) || ""),
      )
      .map((w): Use => ({
        kind: "opaque",
        word: w,
        why: 'make pastes a variable\'s text into its recipes, which the shell parses (read "$$NAME" from the environment in the recipe instead)',
      })),
    nested: [],
  }),
  read: (args) => ({
    uses: [],
    nested: [],
    reads: names(operandsAfterOptions(args, "adinNptu").operands),
  }),
  mapfile: (args) => ({
    uses: [],
    nested: [],
    reads: names(operandsAfterOptions(args, "dnOsuCc").operands),
  }),
  readarray: (args) => SPECIAL.mapfile!(args),
  let: (args) => ({ uses: [], nested: [], arith: args }),
};

const names = (words: Word[]) =>
  words.map((w) => literalOf(w) ?? "").filter((n) => /^[A-Za-z_]\w*$/.test(n));

const suLike = (name: string, args: Word[]): Analysis => {
  const code = flagValues(args, "c", ["--command", "--session-command"]);
  const uses = code.map((w): Use => ({ kind: "code", words: [w], lang: "sh", what: `${name} -c` }));
  const userOnly = name === "runuser" && args.some((w) => literalOf(w) === "-u");
  return {
    uses,
    nested: [],
    stdin: code.length || userOnly ? undefined : { lang: "sh", what: name },
  };
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
