/**
 * `switchyard` as a person who is not root, as on a laptop: uid 65534 with a HOME of its own
 * when the suite is root, else the suite's own user. The built command is copied where that
 * person can read it (cliForOthers), under a world-readable folder of the test's, and runs
 * with only PATH, HOME and the variables the test gives.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cliForOthers } from "./cli-for-others";

const BUILD = path.resolve(import.meta.dirname, "../../../cli/bin/build.mjs");
const asRoot = process.getuid?.() === 0;

/** Who runs the command: uid 65534 when the suite is root, else the suite's own user. */
export const PERSON = asRoot ? 65534 : (process.getuid?.() ?? 0);

/** A folder the person owns (0755). */
export const ownFolder = (dir: string) => {
  mkdirSync(dir, { mode: 0o755, recursive: true });
  chownSync(dir, PERSON, PERSON);
  return dir;
};

/** Builds the CLI, then makes `base` (world-readable) with the person's copy of it and their HOME. */
export const personBase = async (prefix: string): Promise<{ base: string; bin: string }> => {
  const built = spawn(process.execPath, [BUILD], { stdio: "ignore" });
  await new Promise<void>((resolve, reject) =>
    built.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`build exit ${code}`)))),
  );
  const base = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(base, 0o755);
  const bin = cliForOthers(base);
  ownFolder(path.join(base, "home"));
  return { base, bin };
};

export type PersonRun = {
  child: ChildProcess;
  /** Resolves once stderr has said `text`. */
  said: (text: string) => Promise<void>;
  ended: Promise<{ code: number | null; out: string; err: string }>;
};

/** Starts `switchyard ...args` as the person in `cwd`, with HOME `<base>/home` and `env`. */
export const startAsPerson = (
  { base, bin }: { base: string; bin: string },
  cwd: string,
  args: string[],
  env: Record<string, string>,
): PersonRun => {
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
