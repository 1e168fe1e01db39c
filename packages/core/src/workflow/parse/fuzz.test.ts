/**
 * Hostile workflow YAML: parseWorkflow never throws and never hangs, and whatever it
 * refuses carries a known code and a place (file, line, column) a person can go to.
 * Property-based over arbitrary text, YAML-shaped token soup and mutations of valid
 * workflows (fixed seed: a failure prints the seed and the shrunk input), plus a corpus of
 * known attacks and odd encodings (testing/hostile-yaml/ and generated ones below).
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, stringify } from "yaml";
import { isErrorCode } from "../../errors/error-codes";
import { parseWorkflow, type ParseResult } from "./parse-workflow";

const SEED = 20261201;
/** Generous, to catch a hang on a loaded machine: a few kilobytes parse in milliseconds, a megabyte in seconds. */
const BOUND_MS = 3000;
const BIG_BOUND_MS = 20_000;

/** Parses `source` and checks the invariants every result must hold; returns the result. */
const parseChecked = (source: string, file = "fuzz.yaml", boundMs = BOUND_MS): ParseResult => {
  const started = performance.now();
  const result = parseWorkflow(source, file);
  const took = performance.now() - started;
  if (took > boundMs) throw new Error(`parseWorkflow took ${Math.round(took)} ms`);
  const lines = source.split(/\r\n|\r|\n/).length;
  for (const e of [...result.errors, ...result.warnings]) {
    const where = `${e.code} ${e.message}`;
    if (!isErrorCode(e.code)) throw new Error(`unknown code: ${where}`);
    if (!e.message) throw new Error(`no message: ${e.code}`);
    const loc = e.location;
    if (loc?.file !== file) throw new Error(`no file: ${where}`);
    if (!loc.path) throw new Error(`no path: ${where}`);
    if (!Number.isInteger(loc.line) || loc.line! < 1 || loc.line! > lines)
      throw new Error(`line ${loc.line} outside 1..${lines}: ${where}`);
    if (!Number.isInteger(loc.column) || loc.column! < 1)
      throw new Error(`column ${loc.column}: ${where}`);
  }
  if (result.errors.length === 0 && !result.workflow) throw new Error("no errors and no workflow");
  if (result.errors.length > 0 && result.workflow) throw new Error("errors and a workflow");
  return result;
};

const fixtures = path.join(import.meta.dirname, "fixtures");
const valid = readdirSync(fixtures)
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => readFileSync(path.join(fixtures, f), "utf8"));
const validFull = readFileSync(path.join(fixtures, "valid-full.yaml"), "utf8");

describe("property: parseWorkflow on hostile text", () => {
  it("arbitrary strings, any code point", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (s) => {
        parseChecked(s);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it("arbitrary bytes, decoded as a file is (UTF-8 with replacement, and Latin-1)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        parseChecked(new TextDecoder("utf-8").decode(bytes));
        parseChecked(Buffer.from(bytes).toString("latin1"));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  const TOKENS = [
    ...["\n", "\n", "  ", "    ", " ", "\t", "\r\n", "- ", ": ", ":", ",", "? ", "#", "---", "..."],
    ...[
      "[",
      "]",
      "{",
      "}",
      "'",
      '"',
      "|",
      ">-",
      "&a ",
      "*a",
      "&b ",
      "*b",
      "<<: ",
      "!!str ",
      "!!binary ",
      "!x ",
    ],
    ...[
      "name",
      "states",
      "initial",
      "type",
      "step",
      "agent",
      "terminal",
      "parallel",
      "for_each",
      "while",
    ],
    ...[
      "command",
      "prompt",
      "provider",
      "claude",
      "on_success",
      "on_failure",
      "transitions",
      "goto",
      "when",
    ],
    ...[
      "body",
      "items",
      "loop",
      "inputs",
      "env",
      "hooks",
      "retry",
      "timeout",
      "mcp_proxy",
      "call_workflow",
    ],
    ...[
      "{{",
      "}}",
      ".inputs.x",
      ".states.a.Output",
      "escape",
      "(",
      ")",
      "$(",
      "`",
      "${X}",
      "'\"",
      ";",
      "&&",
    ],
    ...[
      "0",
      "-1",
      "1e999",
      "99999999999999999999",
      "true",
      "null",
      "~",
      "a",
      "done",
      "x: y",
      "\\u0000",
      "é",
      "\u2028",
    ],
  ];
  it("YAML-shaped token soup", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 120 }), (tokens) => {
        parseChecked(tokens.join(""));
      }),
      { seed: SEED, numRuns: 600 },
    );
  });

  it("a valid workflow with text cut, repeated or spliced anywhere", () => {
    const edit = fc.record({
      at: fc.nat(),
      len: fc.nat({ max: 40 }),
      kind: fc.constantFrom("delete", "duplicate", "insert", "line-dup", "line-drop", "indent"),
      text: fc.constantFrom(...TOKENS),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...valid),
        fc.array(edit, { minLength: 1, maxLength: 6 }),
        (base, edits) => {
          let s = base;
          for (const e of edits) {
            const at = e.at % (s.length + 1);
            const lines = s.split("\n");
            const li = e.at % lines.length;
            switch (e.kind) {
              case "delete":
                s = s.slice(0, at) + s.slice(at + e.len);
                break;
              case "duplicate":
                s = s.slice(0, at + e.len) + s.slice(at, at + e.len) + s.slice(at + e.len);
                break;
              case "insert":
                s = s.slice(0, at) + e.text + s.slice(at);
                break;
              case "line-dup":
                lines.splice(li, 0, lines[li]!);
                s = lines.join("\n");
                break;
              case "line-drop":
                lines.splice(li, 1);
                s = lines.join("\n");
                break;
              case "indent":
                lines[li] = `${" ".repeat(e.len % 5)}${lines[li]!.trimStart()}`;
                s = lines.join("\n");
                break;
              default:
                throw new Error(`unknown edit ${String(e.kind satisfies never)}`);
            }
          }
          parseChecked(s);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  /** Structural mutations of the full workflow: keys dropped, renamed with a typo, values of other types. */
  it("a valid workflow with keys dropped, misspelt or given values of other types", () => {
    const doc = parseYaml(validFull) as Record<string, unknown>;
    const paths: (string | number)[][] = [];
    const walk = (v: unknown, at: (string | number)[]) => {
      if (at.length > 0) paths.push(at);
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...at, i]));
      else if (v && typeof v === "object")
        for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
    };
    walk(doc, []);
    const anyValue = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 20 }),
      fc.constantFrom("{{", "}}", "{{ .inputs.nope }}", "$(id)", "states", "done", "-1", "1e309"),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
    );
    const mutation = fc.record({
      path: fc.constantFrom(...paths),
      kind: fc.constantFrom("drop", "typo", "retype", "swap"),
      value: anyValue,
      typo: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const copy = structuredClone(doc);
        for (const m of mutations) {
          const parent = m.path
            .slice(0, -1)
            .reduce<unknown>(
              (node, key) =>
                node && typeof node === "object"
                  ? (node as Record<string, unknown>)[key]
                  : undefined,
              copy,
            );
          if (!parent || typeof parent !== "object") continue;
          const obj = parent as Record<string | number, unknown>;
          const key = m.path[m.path.length - 1]!;
          if (!(key in obj)) continue;
          switch (m.kind) {
            case "drop":
              if (Array.isArray(obj)) obj.splice(Number(key), 1);
              else delete obj[key];
              break;
            case "typo": {
              if (Array.isArray(obj) || typeof key !== "string" || key.length === 0) break;
              const i = m.typo % key.length;
              const typo = key.slice(0, i) + key.slice(i + 1) + (m.typo % 2 ? key[i] : "");
              obj[typo === key ? `${key}_` : typo] = obj[key];
              delete obj[key];
              break;
            }
            case "retype":
              obj[key] = m.value;
              break;
            case "swap":
              obj[key] = copy;
              break;
            default:
              throw new Error(`unknown mutation ${String(m.kind satisfies never)}`);
          }
        }
        const text = stringify(copy, { aliasDuplicateObjects: true });
        const result = parseChecked(text);
        // A misspelt key is named with the key it was meant to be, where the validator can tell.
        for (const e of result.errors.filter((x) => x.code === "WORKFLOW.PARSE.UNKNOWN_FIELD"))
          expect(e.message).toMatch(/unknown key "/);
      }),
      { seed: SEED, numRuns: 80 },
    );
  });
});

/** `# expect: CODE [line:col] ["text the message contains"]` headers, as in fixtures/. */
const expectationsOf = (source: string) =>
  [...source.matchAll(/^# expect: (\S+)(?: (\d+):(\d+))?(?: "([^"]*)")?\s*$/gm)].map((m) => ({
    code: m[1]!,
    line: m[2] ? Number(m[2]) : undefined,
    column: m[3] ? Number(m[3]) : undefined,
    text: m[4],
  }));

describe("corpus: hostile files", () => {
  const dir = path.join(import.meta.dirname, "testing", "hostile-yaml");
  const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));

  it.each(files)("%s gives its expected result", (file) => {
    const bytes = readFileSync(path.join(dir, file));
    // Read as the CLI and the API read a file: UTF-8, bad bytes replaced.
    const source = new TextDecoder("utf-8").decode(bytes);
    const result = parseChecked(source, file);
    // The header is read from the bytes as Latin-1, so it survives any encoding.
    const expected = expectationsOf(
      bytes
        .toString("latin1")
        .replace(/^(\xFF\xFE|\xEF\xBB\xBF)/, "")
        .replaceAll("\0", ""),
    );
    if (expected.every((x) => x.code === "ok")) {
      expect(result.errors).toEqual([]);
      return;
    }
    for (const want of expected) {
      const match = result.errors.find(
        (e) =>
          e.code === want.code &&
          (want.line === undefined || e.location?.line === want.line) &&
          (want.column === undefined || e.location?.column === want.column) &&
          (want.text === undefined || e.message.includes(want.text)),
      );
      expect(
        match,
        `${JSON.stringify(want)} in ${result.errors.map((e) => `${e.code} ${e.location?.line}:${e.location?.column} ${e.message}`).join("; ")}`,
      ).toBeDefined();
    }
  });
});

const lines = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i)).join("\n");
const step = (command: string) =>
  `name: s\nstates:\n  initial: a\n  a:\n    type: step\n    command: ${JSON.stringify(command)}\n    on_success: done\n  done:\n    type: terminal\n`;
const when = (expression: string) =>
  `name: s\nstates:\n  initial: a\n  a:\n    type: step\n    command: echo\n    transitions:\n      - when: ${JSON.stringify(expression)}\n        goto: done\n  done:\n    type: terminal\n`;
const letter = (i: number) => String.fromCharCode(97 + i);

/** Generated attacks: each must be refused (or read) quickly, with a code and a place. */
const GENERATED: [string, () => string, string | undefined][] = [
  [
    "billion laughs (10 levels of 10 aliases)",
    () =>
      `${lines(
        10,
        (i) =>
          `${letter(i)}: &${letter(i)} [${
            i === 0
              ? Array(10).fill('"lol"').join(", ")
              : Array(10)
                  .fill(`*${letter(i - 1)}`)
                  .join(", ")
          }]`,
      )}\nname: bomb\nstates: {initial: a}\n`,
    "WORKFLOW.PARSE.LIMIT_EXCEEDED",
  ],
  [
    "aliases of a block map nested 30 deep",
    () =>
      `${lines(30, (i) => `k${i}: &k${i} {x: ${i === 0 ? "1" : `*k${i - 1}`}, y: ${i === 0 ? "1" : `*k${i - 1}`}}`)}\nname: a\nstates: {initial: a}\n`,
    "WORKFLOW.PARSE.LIMIT_EXCEEDED",
  ],
  [
    "a 10 MB file",
    () =>
      `name: big\nstates:\n  initial: done\n  done:\n    type: terminal\n    message: "${"x".repeat(10 * 1024 * 1024)}"\n`,
    "WORKFLOW.PARSE.LIMIT_EXCEEDED",
  ],
  [
    "10,000 nested flow sequences",
    () => `name: d\nstates: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`,
    "WORKFLOW.PARSE.LIMIT_EXCEEDED",
  ],
  [
    "10,000 nested flow mappings",
    () => `name: d\nstates: ${"{a: ".repeat(10_000)}1${"}".repeat(10_000)}\n`,
    "WORKFLOW.PARSE.LIMIT_EXCEEDED",
  ],
  [
    "10,000 nested block sequences on one line",
    () => `${"- ".repeat(10_000)}x\n`,
    "WORKFLOW.PARSE.LIMIT_EXCEEDED",
  ],
  [
    "1,000 nested block mappings",
    () => `name: d\nstates:\n${lines(1000, (i) => `${" ".repeat(i + 1)}k:`)} x\n`,
    "WORKFLOW.PARSE.LIMIT_EXCEEDED",
  ],
  [
    "an unclosed flow sequence 10,000 deep",
    () => `name: d\nstates: ${"[".repeat(10_000)}\n`,
    undefined,
  ],
  [
    "20,000 top-level keys",
    () => `name: k\nstates: {initial: a}\n${lines(20_000, (i) => `k${i}: 1`)}\n`,
    "WORKFLOW.PARSE.LIMIT_EXCEEDED",
  ],
  [
    "5,000 states in a chain",
    () =>
      `name: x\nstates:\n  initial: s0\n${lines(5000, (i) => `  s${i}: {type: step, command: echo, on_success: s${i + 1}}`)}\n  s5000: {type: terminal}\n`,
    "WORKFLOW.PARSE.LIMIT_EXCEEDED",
  ],
  [
    "a parallel state of 5,000 branches",
    () =>
      `name: x\nstates:\n  initial: p\n  p: {type: parallel, parallel: [${lines(5000, (i) => `s${i}`).replaceAll("\n", ",")}], on_success: d}\n  d: {type: terminal}\n`,
    undefined,
  ],
  [
    "an expression 20,000 parentheses deep",
    () => when(`${"(".repeat(20_000)}1${")".repeat(20_000)} == 1`),
    "WORKFLOW.VALIDATION.INVALID_EXPRESSION",
  ],
  [
    "an expression of 50,000 additions",
    () => when(`${"x + ".repeat(50_000)}1 == 2`),
    "WORKFLOW.VALIDATION.INVALID_EXPRESSION",
  ],
  [
    "an expression of 20,000 nots",
    () => when(`${"not ".repeat(20_000)}true`),
    "WORKFLOW.VALIDATION.INVALID_EXPRESSION",
  ],
  [
    "a template 5,000 parentheses deep",
    () => step(`echo {{${"(".repeat(5000)}.inputs.x${")".repeat(5000)}}}`),
    "WORKFLOW.VALIDATION.INVALID_EXPRESSION",
  ],
  [
    "a command of 20,000 templates",
    () => step(`echo ${"{{.inputs.x}} ".repeat(20_000)}`),
    "WORKFLOW.VALIDATION.INVALID_REFERENCE",
  ],
  [
    "a command 20,000 $( deep",
    () => step(`echo ${"$(".repeat(20_000)}x${")".repeat(20_000)}`),
    undefined,
  ],
  ["a command of 20,000 backticks", () => step(`echo ${"`".repeat(20_000)}`), undefined],
  [
    "a command of 3,000 nested sh -c quotes",
    () => step(`sh -c ${"'sh -c \"".repeat(3000)}`),
    undefined,
  ],
  ["two documents", () => "name: a\n---\nname: b\n", "WORKFLOW.PARSE.YAML_SYNTAX"],
  ["a cyclic alias", () => "name: c\nstates: &s\n  initial: a\n  a: *s\n", undefined],
  [
    "a merge key",
    () => "name: m\nstates:\n  initial: a\n  a:\n    <<: {type: terminal}\n",
    undefined,
  ],
  ["a complex key", () => "? [a, b]\n: c\nname: x\n", "WORKFLOW.PARSE.UNKNOWN_FIELD"],
  ["a null key and a tag on states", () => "~: x\nname: y\nstates: !!set {a}\n", undefined],
  [
    "an integer beyond 2^64",
    () => step("echo").replace("on_success", "timeout: 99999999999999999999999999\n    on_success"),
    "WORKFLOW.VALIDATION.INVALID_VALUE",
  ],
  [
    "a lone surrogate and a byte-order mark mid-file",
    () => "name: \uD800\nstates:\n  initial: a\uFEFF\n",
    undefined,
  ],
  [
    "NUL in a double-quoted escape",
    () => 'name: "a\\0b"\nstates:\n  initial: done\n  done:\n    type: terminal\n',
    "WORKFLOW.VALIDATION.INVALID_VALUE",
  ],
];

describe("corpus: generated attacks", () => {
  it.each(GENERATED)("%s", (_name, make, code) => {
    const result = parseChecked(make(), "fuzz.yaml", BIG_BOUND_MS);
    if (code) expect(result.errors.map((e) => e.code)).toContain(code);
    else expect(result.errors.length + (result.workflow ? 1 : 0)).toBeGreaterThan(0);
  });
});
