/**
 * Commands with rules of their own: `eval`, `trap`, `alias`, `ssh`/`scp`/`rsync`, `su -c`,
 * `watch`, `flock -c`, `parallel`, `sed`, `git -c`, `make VAR=`, and the builtins that read
 * standard input into variables (`read`, `mapfile`) or evaluate arithmetic (`let`).
 */
import {
  codeWord,
  flagValues,
  mayBeOption,
  only,
  operandsAfterOptions,
  tainted,
  type Analysis,
  type Use,
} from "./shell-args";
import { literalOf, type Word } from "./shell-syntax";

const GIT_CODE_KEYS =
  /^(core\.(sshcommand|editor|pager|fsmonitor)|alias\..*|credential\..*|sequence\.editor|diff\.external|.*\.(command|driver|clean|smudge|process|textconv|cmd|program))=/i;

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

export const SPECIAL: Record<string, (args: Word[]) => Analysis> = {
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
