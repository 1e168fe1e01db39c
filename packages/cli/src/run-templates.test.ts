/**
 * `switchyard run` with AWF's local templates: a workflow's `use_template` is found in the
 * `.awf/templates/` folder next to it, run as a normal user (uid 65534, a HOME of its own)
 * when the test can switch to one, and a missing template is named at the using line.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cliForOthers } from "@switchyard/testing/sandbox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const asRoot = process.getuid?.() === 0;

let flows: string;
let home: string;
let ws: string;

const TEMPLATE = `name: shout
parameters:
  - name: word
    required: true
  - name: times
    default: 2
states:
  shout:
    type: step
    command: echo "{{parameters.word}} x{{parameters.times}}"
`;

const WORKFLOW = (template: string) => `name: uses-template
states:
  initial: s
  s:
    use_template: ${template}
    parameters:
      word: hey
    on_success: done
  done:
    type: terminal
`;

beforeEach(() => {
  flows = mkdtempSync(path.join(tmpdir(), "sy-tmpl-flows-"));
  home = mkdtempSync(path.join(tmpdir(), "sy-tmpl-home-"));
  ws = mkdtempSync(path.join(tmpdir(), "sy-tmpl-ws-"));
  mkdirSync(path.join(flows, ".awf/templates"), { recursive: true });
  writeFileSync(path.join(flows, ".awf/templates/shout.yaml"), TEMPLATE);
  writeFileSync(path.join(flows, "good.yaml"), WORKFLOW("shout"));
  writeFileSync(path.join(flows, "bad.yaml"), WORKFLOW("shoot"));
});
afterEach(() => {
  for (const d of [flows, home, ws]) rmSync(d, { recursive: true, force: true });
});

const run = (file: string) => {
  const cliDir = mkdtempSync(path.join(tmpdir(), "sy-tmpl-cli-"));
  try {
    const args = ["run", path.join(flows, file)];
    const r = asRoot
      ? (() => {
          for (const d of [home, ws]) chownSync(d, 65534, 65534);
          for (const d of [flows, path.join(flows, ".awf"), path.join(flows, ".awf/templates")])
            chmodSync(d, 0o755);
          return spawnSync(
            "setpriv",
            [
              "--reuid=65534",
              "--regid=65534",
              "--clear-groups",
              process.execPath,
              cliForOthers(cliDir),
              ...args,
            ],
            {
              encoding: "utf8",
              cwd: ws,
              env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
              timeout: 120_000,
            },
          );
        })()
      : spawnSync(
          process.execPath,
          [path.resolve(import.meta.dirname, "../bin/switchyard.mjs"), ...args],
          { encoding: "utf8", cwd: ws, env: { ...process.env, HOME: home }, timeout: 120_000 },
        );
    return { code: r.status, out: r.stdout, err: r.stderr };
  } finally {
    rmSync(cliDir, { recursive: true, force: true });
  }
};

describe("switchyard run with .awf/templates", () => {
  it("expands the template from the folder next to the workflow and runs it", () => {
    for (const f of ["good.yaml", "bad.yaml", ".awf/templates/shout.yaml"])
      chmodSync(path.join(flows, f), 0o644);
    const r = run("good.yaml");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("hey x2\n");
  }, 150_000);

  it("names a missing template at the using line, with the closest one", () => {
    chmodSync(path.join(flows, "bad.yaml"), 0o644);
    const r = run("bad.yaml");
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      "bad.yaml:5:19: WORKFLOW.TEMPLATE.NOT_FOUND states.s.use_template: template 'shoot' not found (did you mean 'shout'?)",
    );
  }, 150_000);
});
