/**
 * `switchyard run` and values that would reach a second shell: a workflow that pastes a
 * value into `sh -c '…'` is refused before any step runs; one that reads the value from
 * its environment variable or quotes it with `escape` prints a hostile value literally.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../bin/switchyard.mjs");
const hostile = 'it\'s "$(touch pwned1)" `touch pwned2`; touch pwned3\n$HOME # \\ *';

let dir: string;
const run = (file: string) => {
  const r = spawnSync(
    process.execPath,
    [bin, "run", path.join(dir, file), "--input", `msg=${hostile}`],
    {
      encoding: "utf8",
      cwd: dir,
      env: process.env,
      timeout: 60_000,
    },
  );
  return { code: r.status, out: r.stdout, err: r.stderr };
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "cli-nested-"));
  writeFileSync(
    path.join(dir, "refused.yaml"),
    `name: refused
inputs: [{ name: msg }]
states:
  initial: first
  first: { type: step, command: touch first-ran, on_success: nested }
  nested:
    type: step
    command: |
      echo outer {{.inputs.msg}}
      sh -c 'echo {{.inputs.msg}}'
    on_success: done
  done: { type: terminal }
`,
  );
  writeFileSync(
    path.join(dir, "safe.yaml"),
    `name: safe
inputs: [{ name: msg }]
states:
  initial: nested
  nested:
    type: step
    command: |
      sh -c 'printf "env:%s|\\n" "$SY_INPUTS_MSG"'
      sh -c "printf 'escape:%s|\\n' {{escape .inputs.msg}}"
      bash -c 'printf "%s:%s|\\n" shellQuote '{{shellQuote .inputs.msg}}
      sh -c 'printf "arg:%s|\\n" "$1"' sh {{.inputs.msg}}
    on_success: done
  done: { type: terminal }
`,
  );
});

it("refuses a value inside a nested shell's code before any step runs, naming line and column", () => {
  const r = run("refused.yaml");
  expect(r.code).toBe(1);
  expect(r.err).toContain(
    `${path.join(dir, "refused.yaml")}:10:19: USER.TEMPLATE.NESTED_SHELL states.nested.command:`,
  );
  expect(r.err).toContain("SY_INPUTS_MSG");
  expect(existsSync(path.join(dir, "first-ran"))).toBe(false);
  for (const f of ["pwned1", "pwned2", "pwned3"]) expect(existsSync(path.join(dir, f))).toBe(false);
});

it("prints a hostile value literally through the environment variable, escape and positional arguments", () => {
  const r = run("safe.yaml");
  expect(r.err).toContain("● succeeded");
  expect(r.code).toBe(0);
  expect(r.out).toBe(
    ["env", "escape", "shellQuote", "arg"].map((k) => `${k}:${hostile}|\n`).join(""),
  );
  for (const f of ["pwned1", "pwned2", "pwned3"]) expect(existsSync(path.join(dir, f))).toBe(false);
});
