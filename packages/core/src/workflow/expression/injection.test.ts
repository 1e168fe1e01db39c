/**
 * Property: whatever text a value holds (quotes, `$( )`, backticks, newlines, `{{ }}`,
 * any code point but NUL, which no environment variable or argument can carry), a shell
 * command rendered from a template and run by a real `sh` prints it back unchanged: bare,
 * in double or single quotes, inside `$( )`, in a here-document, and through a second shell
 * with `escape`. A plain template inserts it once and never renders it again.
 */
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EvalEnv } from "./evaluate-expression";
import { renderShell, renderTemplate } from "./template";

const SEED = 20261201;

const envOf = (values: Record<string, string>): EvalEnv => ({
  resolve: (parts) => (parts[0] === "inputs" ? values[parts[1]!] : undefined),
  readFile: () => "READ",
  paths: () => Object.keys(values).map((k) => ["inputs", k]),
});

const run = (template: string, value: string) => {
  const { script, env } = renderShell(template, envOf({ v: value, other: "EXPANDED" }));
  return execFileSync("sh", ["-c", script], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    encoding: "utf8",
  });
};

const SHELLISH = [
  "$(",
  ")",
  "`",
  "'",
  '"',
  "\\",
  ";",
  "|",
  "&",
  "\n",
  "$",
  "{",
  "}",
  "{{",
  "}}",
  "EOF",
  "*",
  "~",
  "#",
  " ",
  "\t",
];
/** Text built mostly from shell and template syntax, with any other code point mixed in. */
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...SHELLISH), fc.string({ unit: "binary", maxLength: 4 })), {
    maxLength: 20,
  })
  .map((parts) => parts.join("").replaceAll("\0", ""));

const PLACES: [string, string, (v: string) => string][] = [
  ["bare", "printf '%s' {{.inputs.v}}", (v) => v],
  ["double quotes", `printf '%s' "<{{.inputs.v}}>"`, (v) => `<${v}>`],
  ["single quotes", "printf '%s' '<{{.inputs.v}}>'", (v) => `<${v}>`],
  ["inside a word", "printf '%s' a{{.inputs.v}}b", (v) => `a${v}b`],
  ["command substitution", `printf '%s' "$(printf '%s.' {{.inputs.v}})"`, (v) => `${v}.`],
  ["here-document", "cat <<EOF\n{{.inputs.v}}\nEOF", (v) => `${v}\n`],
  ["second shell through escape", `sh -c "printf '%s' {{escape .inputs.v}}"`, (v) => v],
];

describe("property: values reach a real shell as data", () => {
  it.each(PLACES)("%s", (_name, template, expected) => {
    fc.assert(
      fc.property(hostile, (value) => {
        expect(run(template, value)).toBe(expected(value));
      }),
      { seed: SEED, numRuns: 30 },
    );
  });

  it("a plain template inserts a value once and never renders it again", () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const env = envOf({ v: value, other: "EXPANDED" });
        expect(renderTemplate("<{{.inputs.v}}>", env)).toBe(`<${value}>`);
        expect(
          renderTemplate("<{{.inputs.v}}>", envOf({ v: "{{.inputs.other}}", other: "x" })),
        ).toBe("<{{.inputs.other}}>");
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});
