/**
 * `switchyard run` without a required input, as a person on a laptop: uid 65534 (when the
 * suite is root) with a HOME of its own, through the real bin. At a real pseudo-terminal
 * (python3's pty module) AWF's prompts ask for each input not given, a wrong choice or value
 * is said and asked again, Enter takes an optional input's default, and the run goes on
 * with the answers; Ctrl+C ends the collection with AWF's words and exit 1. With stdin a pipe
 * the run is refused with AWF's non-terminal error, before any step.
 */
import { spawn } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildCli, cliForOthers } from "@switchyard/testing/sandbox";
import { deployInputsWorkflow } from "@switchyard/testing/workflow";
import { afterAll, beforeAll, expect, it } from "vitest";

const asRoot = process.getuid?.() === 0;
const PERSON = asRoot ? 65534 : (process.getuid?.() ?? 0);

/**
 * Runs a command at a pseudo-terminal and plays a script: each step waits for its text in
 * the output (ANSI escapes left out), then types its keys. Prints the whole output, and exits
 * with the command's exit status.
 */
const PTY_DRIVER = String.raw`
import json, os, pty, re, select, sys, time
script = json.loads(sys.argv[1]); argv = sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
out = b""
def text():
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode("utf-8", "replace"))
def pump(timeout):
    global out
    r, _, _ = select.select([fd], [], [], timeout)
    if not r: return True
    try: chunk = os.read(fd, 4096)
    except OSError: return False
    if not chunk: return False
    out += chunk; return True
seen = 0
for expect, keys in script:
    deadline = time.time() + 60
    while text().find(expect, seen) < 0:
        if time.time() > deadline or not pump(0.5):
            sys.stdout.write(text()); sys.stdout.write("\n[driver] did not see: " + expect + "\n"); sys.exit(99)
    seen = text().find(expect, seen) + len(expect)
    os.write(fd, keys.encode())
while pump(60): pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(text())
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 98)
`;

let base: string;
let bin: string;
let flow: string;
let workspace: string;

beforeAll(async () => {
  await buildCli();
  base = mkdtempSync(path.join(tmpdir(), "sy-run-inputs-"));
  chmodSync(base, 0o755);
  bin = cliForOthers(base);
  for (const dir of ["home", "work"]) {
    mkdirSync(path.join(base, dir), { mode: 0o755 });
    chownSync(path.join(base, dir), PERSON, PERSON);
  }
  workspace = path.join(base, "work");
  flow = path.join(base, "deploy.yaml");
  writeFileSync(flow, deployInputsWorkflow("deploy"), { mode: 0o644 });
}, 300_000);
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** `switchyard run <flow> ...args` as the person; stdin a pipe holding `stdin`, or a terminal playing `script`. */
const runAsPerson = (args: string[], how: { stdin: string } | { script: [string, string][] }) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const person = [
      ...(asRoot ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []),
      process.execPath,
      bin,
      "run",
      flow,
      ...args,
    ];
    const argv =
      "script" in how
        ? ["python3", "-c", PTY_DRIVER, JSON.stringify(how.script), ...person]
        : person;
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: workspace,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: path.join(base, "home"),
        TERM: "dumb",
      },
      timeout: 120_000,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.stdin.end("stdin" in how ? how.stdin : "");
    child.on("close", (code) => resolve({ code, out, err }));
  });

it("prompts at a terminal as AWF does, retries what is wrong, and runs with the answers", async () => {
  const r = await runAsPerson(["--input", "dry_run=false"], {
    script: [
      ["Select option (1-3): ", "7\r"],
      ['Error: invalid selection "7" (valid: 1-3)', ""],
      ["Select option (1-3): ", "2\r"],
      ["Pattern: ^v\\d+\\.\\d+\\.\\d+$", ""],
      ["> ", "1.2.3\r"],
      ['Error: value "1.2.3" does not match pattern', ""],
      ["> ", "v1.2.3\r"],
    ],
  });
  expect(r.out).toContain("Enter value for 'environment' (string, required)");
  expect(r.out).toContain("Description: Target environment");
  expect(r.out).toMatch(/Options:\r?\n {2}1\. dev\r?\n {2}2\. staging\r?\n {2}3\. prod/);
  expect(r.out).toContain("✓ Selected: staging");
  expect(r.out).toContain("✓ Accepted");
  expect(r.out).not.toContain("'dry_run'");
  expect(r.out).toContain("deploying v1.2.3 to staging dry=false");
  expect(r.code).toBe(0);
}, 120_000);

it("takes an optional input's default on Enter, and Ctrl+C ends the collection with exit 1", async () => {
  const ok = await runAsPerson(["--input", "environment=dev", "--input", "version=v2.0.0"], {
    stdin: "",
  });
  expect(ok.code).toBe(0);
  const defaulted = await runAsPerson(["--input", "environment=prod"], {
    script: [
      ["> ", "v3.1.4\r"],
      ["Press Enter to use default", ""],
      ["> ", "\r"],
    ],
  });
  expect(defaulted.out).toContain("Enter value for 'dry_run' (boolean, optional, default: false)");
  expect(defaulted.out).toContain("✓ Using default: false");
  expect(defaulted.out).toContain("deploying v3.1.4 to prod dry=false");
  expect(defaulted.code).toBe(0);

  const cancelled = await runAsPerson([], { script: [["Select option (1-3): ", "\x03"]] });
  expect(cancelled.out).toContain("Error: input collection cancelled by user");
  expect(cancelled.out).not.toContain("deploying");
  expect(cancelled.code).toBe(1);
}, 120_000);

it("refuses with AWF's error when stdin is not a terminal", async () => {
  const r = await runAsPerson([], { stdin: "prod\n" });
  expect(r.err).toContain(
    "Error: missing required inputs and stdin is not a terminal; provide inputs via --input flags",
  );
  expect(r.err).not.toContain("Enter value for");
  expect(r.out).not.toContain("deploying");
  expect(r.code).toBe(1);
}, 60_000);
