/**
 * The `switchyard validate` and `switchyard run` commands, through the real bin.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../bin/switchyard.mjs");
const cli = (args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    // `run` binds the current folder into its sandbox as the workspace.
    cwd: dir,
    env: { ...process.env, ...env },
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "cli-"));
  mkdirSync(path.join(dir, "scripts"));
  writeFileSync(
    path.join(dir, "main.yaml"),
    `name: main
inputs: [{ name: who, required: true }]
env: [CLI_TEST_TOKEN]
states:
  initial: hello
  hello: { type: step, command: 'echo "hi {{.inputs.who}} {{.env.CLI_TEST_TOKEN}}"', on_success: sub }
  sub:
    type: call_workflow
    workflow: child
    inputs: { name: "{{.inputs.who}}" }
    on_success: script
  script: { type: step, script_file: scripts/s.sh, on_success: done }
  done: { type: terminal }
`,
  );
  writeFileSync(path.join(dir, "scripts/s.sh"), '#!/bin/sh\necho "script sees {{.inputs.who}}"\n');
  writeFileSync(
    path.join(dir, "child.yaml"),
    "name: child\ninputs: [{ name: name }]\nstates:\n  initial: c\n  c: { type: step, command: 'echo child {{.inputs.name}}', on_success: done }\n  done: { type: terminal }\n",
  );
  writeFileSync(
    path.join(dir, "bad.yaml"),
    "name: bad\nstates:\n  initial: a\n  a:\n    type: step\n    comand: echo\n    on_success: dne\n",
  );
  writeFileSync(
    path.join(dir, "fails.yaml"),
    "name: fails\nstates:\n  initial: a\n  a: { type: step, command: exit 1, on_failure: { message: nope, status: 7 } }\n",
  );
});

describe("switchyard validate", () => {
  it("prints every error as file:line:col CODE message and exits 2 for workflow errors", () => {
    const r = cli(["validate", path.join(dir, "bad.yaml"), path.join(dir, "main.yaml")]);
    expect(r.code).toBe(2);
    expect(r.out).toContain(
      `${path.join(dir, "bad.yaml")}:6:5: WORKFLOW.PARSE.UNKNOWN_FIELD states.a.comand: unknown key "comand" (did you mean "command"?)`,
    );
    expect(r.out).toContain("WORKFLOW.VALIDATION.MISSING_STATE");
    expect(r.out).toContain(`${path.join(dir, "main.yaml")}: valid`);
  });

  it("reports in JSON and exits 1 for a missing file", () => {
    const r = cli(["validate", "--json", path.join(dir, "nope.yaml")]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject([
      { valid: false, errors: [{ code: "USER.INPUT.MISSING_FILE" }] },
    ]);
  });
});

describe("switchyard run", () => {
  it("runs shell steps, sub-workflows and scripts, passing hostile inputs safely and masking secrets", () => {
    const r = cli(["run", path.join(dir, "main.yaml"), "--input", "who=Bob's; $(touch pwned)"], {
      CLI_TEST_TOKEN: "tok-123456",
    });
    expect(r.err).toContain("● succeeded");
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      "hi Bob's; $(touch pwned) [REDACTED]\nchild Bob's; $(touch pwned)\nscript sees Bob's; $(touch pwned)\n",
    );
  });

  it("exits 1 on missing inputs and with the run's exit status on failure", () => {
    expect(cli(["run", path.join(dir, "main.yaml")]).code).toBe(1);
    const r = cli(["run", path.join(dir, "fails.yaml")]);
    expect(r.code).toBe(7);
    expect(r.err).toContain("nope");
  });

  it("stops a validation pattern that backtracks exponentially at its budget and exits 1 naming the input", () => {
    writeFileSync(
      path.join(dir, "pattern.yaml"),
      "name: pattern\ninputs: [{ name: code, validation: { pattern: '^(a+)+$' } }]\nstates:\n  initial: a\n  a: { type: step, command: echo ran, on_success: done }\n  done: { type: terminal }\n",
    );
    const r = cli(["run", path.join(dir, "pattern.yaml"), "--input", `code=${"a".repeat(40)}!`]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^USER\.PATTERN\.TIMEOUT inputs\.code: pattern took longer than 1000 ms/m,
    );
    expect(r.out).not.toContain("ran");
  });
});
