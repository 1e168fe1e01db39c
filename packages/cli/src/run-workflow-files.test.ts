/**
 * `switchyard run` reads the workflow's own files (script_file, readFile, sub-workflows) from
 * a folder its steps can write, often as root. Through the real bin: what a step plants there
 * (a symlink to a root-only file or to /dev/zero, a FIFO, a symlinked folder) is never read
 * through and never hangs the run; files named literally are the ones from before the first step.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../bin/switchyard.mjs");
const SECRET = "root-only-secret-5c1e";

let ws: string;
let outside: string;
let secretFile: string;

/** Runs the bin in the workspace; a read that blocks would hit the deadline and fail the test. */
const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    cwd: ws,
    env: { ...process.env, SWITCHYARD_SANDBOX: "" },
    timeout: 45_000,
    killSignal: "SIGKILL",
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** A workflow in the workspace (so its steps can write its folder). */
const workflow = (states: string) => {
  const file = path.join(ws, "wf.yaml");
  writeFileSync(file, `name: wf\nstates:\n  initial: plant\n${states}  done: { type: terminal }\n`);
  return file;
};

beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), "sy-files-ws-"));
  outside = mkdtempSync(path.join(tmpdir(), "sy-files-outside-"));
  secretFile = path.join(outside, "secret.txt");
  writeFileSync(secretFile, `echo ${SECRET}\n`, { mode: 0o600 });
});
afterEach(() => {
  for (const d of [ws, outside]) rmSync(d, { recursive: true, force: true });
});

describe("switchyard run and the workflow's own files", () => {
  it("runs a script_file as it was before the first step, whatever a step replaced it with", () => {
    writeFileSync(path.join(ws, "s.sh"), "#!/bin/sh\necho original-script\n");
    for (const target of [secretFile, "/dev/zero"]) {
      const file = workflow(
        `  plant: { type: step, command: 'rm s.sh && ln -s ${target} s.sh', on_success: run }\n` +
          "  run: { type: step, script_file: s.sh, on_success: done }\n",
      );
      const r = cli(["run", file]);
      expect(r.code).toBe(0);
      expect(r.out).toBe("original-script\n");
      expect(r.out + r.err).not.toContain(SECRET);
      rmSync(path.join(ws, "s.sh"));
      writeFileSync(path.join(ws, "s.sh"), "#!/bin/sh\necho original-script\n");
    }
  });

  it("runs a sub-workflow as it was before the first step", () => {
    writeFileSync(
      path.join(ws, "child.yaml"),
      "name: child\nstates:\n  initial: c\n  c: { type: step, command: echo original-child, on_success: done }\n  done: { type: terminal }\n",
    );
    writeFileSync(
      path.join(outside, "child.yaml"),
      `name: child\nstates:\n  initial: c\n  c: { type: step, command: echo ${SECRET}, on_success: done }\n  done: { type: terminal }\n`,
      { mode: 0o600 },
    );
    const file = workflow(
      `  plant: { type: step, command: 'rm child.yaml && ln -s ${path.join(outside, "child.yaml")} child.yaml', on_success: call }\n` +
        "  call: { type: call_workflow, workflow: child, on_success: done }\n",
    );
    const r = cli(["run", file]);
    expect(r.code).toBe(0);
    expect(r.out).toBe("original-child\n");
    expect(r.out + r.err).not.toContain(SECRET);
  });

  it.each([
    ["a symlink to a root-only file", () => `ln -s ${secretFile} data.txt`, "symlink"],
    ["a symlink to /dev/zero", () => "ln -s /dev/zero data.txt", "symlink"],
    ["a FIFO", () => "mkfifo data.txt", "not a regular file"],
    [
      "a folder swapped for a symlink",
      () => `mkdir -p real && mv sub real/ && ln -s ${outside} sub`,
      "symlink",
    ],
  ])(
    "fails readFile of %s with a clear error naming the file, never reading it",
    (_, plant, why) => {
      writeFileSync(path.join(ws, "data.txt"), "original-data\n");
      mkdirSync(path.join(ws, "sub"));
      writeFileSync(path.join(ws, "sub", "data.txt"), "original-data\n");
      writeFileSync(path.join(outside, "data.txt"), `${SECRET}\n`, { mode: 0o600 });
      const read = plant().includes("sub") ? "sub/data.txt" : "data.txt";
      const file = workflow(
        `  plant: { type: step, command: 'rm -f data.txt && ${plant()}', on_success: read }\n` +
          `  read:\n    type: step\n    command: echo "got {{readFile "${read}"}}"\n    on_success: done\n`,
      );
      const r = cli(["run", file]);
      expect(r.code).not.toBeNull();
      expect(r.code).not.toBe(0);
      expect(r.err).toContain("USER.INPUT.FILE_REFUSED");
      expect(r.err).toContain(read);
      expect(r.err).toContain(why);
      expect(r.out).not.toContain("got");
      expect(r.out + r.err).not.toContain(SECRET);
    },
  );

  it("refuses a FIFO or a symlink named by the workflow before any step runs", () => {
    writeFileSync(path.join(ws, "s.sh"), "#!/bin/sh\necho original-script\n");
    const file = workflow(
      "  plant: { type: step, command: 'echo step-ran', on_success: run }\n" +
        "  run: { type: step, script_file: s.sh, on_success: done }\n",
    );
    rmSync(path.join(ws, "s.sh"));
    spawnSync("mkfifo", [path.join(ws, "s.sh")]);
    const fifo = cli(["run", file]);
    expect(fifo.code).toBe(1);
    expect(fifo.err).toContain("USER.INPUT.FILE_REFUSED");
    expect(fifo.err).toContain("s.sh");
    expect(fifo.out).not.toContain("step-ran");
    const validate = cli(["validate", file]);
    expect(validate.code).toBe(1);
    expect(validate.out).toMatch(/wf\.yaml:\d+:\d+: USER\.INPUT\.FILE_REFUSED .*s\.sh/);
    rmSync(path.join(ws, "s.sh"));
    spawnSync("ln", ["-s", "/dev/zero", path.join(ws, "s.sh")]);
    const link = cli(["run", file]);
    expect(link.code).toBe(1);
    expect(link.err).toContain("USER.INPUT.FILE_REFUSED");
    expect(link.err).toContain("symlink");
  });

  it("refuses a prompt_file or a workflow file that is a symlink or a FIFO, without hanging", () => {
    writeFileSync(
      path.join(ws, "agent.yaml"),
      "name: a\nstates:\n  initial: ask\n  ask: { type: agent, provider: claude, prompt_file: p.md, on_success: done }\n  done: { type: terminal }\n",
    );
    symlinkSync(secretFile, path.join(ws, "p.md"));
    const prompt = cli(["validate", path.join(ws, "agent.yaml")]);
    expect(prompt.code).toBe(1);
    expect(prompt.out).toMatch(/agent\.yaml:4:\d+: USER\.INPUT\.FILE_REFUSED .*p\.md.*symlink/);
    expect(prompt.out + prompt.err).not.toContain(SECRET);
    spawnSync("mkfifo", [path.join(ws, "fifo.yaml")]);
    for (const command of ["validate", "run"]) {
      const r = cli([command, path.join(ws, "fifo.yaml")]);
      expect(r.code).toBe(1);
      expect(r.out + r.err).toContain("USER.INPUT.FILE_REFUSED");
      expect(r.out + r.err).toContain("fifo.yaml");
    }
  });
});
