/**
 * For tests of the built `switchyard` command as a person on a laptop: uid 65534 when the
 * suite is root (else the suite's own user), with a HOME of their own and only the
 * variables the test gives, through the real bin copied where they can run it
 * (cli-for-others.ts). stdin is a pipe, or a real pseudo-terminal playing a script
 * (pty-driver.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildCli, cliForOthers } from "./cli-for-others";
import { PTY_DRIVER } from "./pty-driver";

export const asRoot = process.getuid?.() === 0;
/** Who runs the command: uid 65534 when the suite is root, else the suite's own user. */
export const PERSON = asRoot ? 65534 : (process.getuid?.() ?? 0);

/** A folder of the person's (0755). */
export const personFolder = (dir: string) => {
  mkdirSync(dir, { mode: 0o755, recursive: true });
  chownSync(dir, PERSON, PERSON);
  return dir;
};

/** Builds the CLI, then a fresh folder anyone may enter with the bin copied in and the person's HOME. */
export const openPersonCli = async (prefix: string) => {
  await buildCli();
  const base = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(base, 0o755);
  return { base, bin: cliForOthers(base), home: personFolder(path.join(base, "home")) };
};

export type PersonRun = {
  bin: string;
  args: string[];
  cwd: string;
  /** The person's variables; PATH is the suite's unless given. */
  env: Record<string, string>;
  /** stdin a pipe holding `stdin`, or a terminal playing `script` ([text to wait for, keys]). */
  how: { stdin: string } | { script: [string, string][] };
  timeoutMs: number;
};

/** `switchyard ...args` as the person; at a terminal `out` is all it printed. */
export const runAsPerson = (run: PersonRun) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const person = [
      ...(asRoot ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []),
      process.execPath,
      run.bin,
      ...run.args,
    ];
    const argv =
      "script" in run.how
        ? ["python3", "-c", PTY_DRIVER, JSON.stringify(run.how.script), ...person]
        : person;
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: run.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...run.env },
      timeout: run.timeoutMs,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.stdin.end("stdin" in run.how ? run.how.stdin : "");
    child.on("close", (code) => resolve({ code, out, err }));
  });

export type PersonProcess = {
  child: ChildProcess;
  /** Resolves once stderr has said `text`. */
  said: (text: string) => Promise<void>;
  ended: Promise<{ code: number | null; out: string; err: string }>;
};

/**
 * Starts `switchyard ...args` as the person in `cwd`, with HOME `<base>/home` and `env`, for a
 * test that acts while it runs (waits for a line on stderr, sends a signal).
 */
export const startAsPerson = (
  { base, bin }: { base: string; bin: string },
  cwd: string,
  args: string[],
  env: Record<string, string>,
): PersonProcess => {
  const argv = [process.execPath, bin, ...args];
  const child = spawn(
    asRoot ? "setpriv" : argv[0]!,
    asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups", ...argv] : argv.slice(1),
    {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: path.join(base, "home"), ...env },
      timeout: 240_000,
    },
  );
  let out = "";
  let err = "";
  const waiting: { text: string; then: () => void }[] = [];
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString();
    for (const w of waiting.splice(0))
      if (err.includes(w.text)) w.then();
      else waiting.push(w);
  });
  return {
    child,
    said: (text) =>
      new Promise<void>((then) => (err.includes(text) ? then() : waiting.push({ text, then }))),
    ended: new Promise((resolve) => child.on("close", (code) => resolve({ code, out, err }))),
  };
};
