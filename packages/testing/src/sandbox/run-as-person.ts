/**
 * `switchyard run` as a person on a laptop, for tests: uid 65534 (setpriv) when the suite is
 * root, else the suite's own user, in `cwd`, with only PATH, HOME and the variables given.
 */
import { spawn } from "node:child_process";

const asRoot = process.getuid?.() === 0;

/** Who the person is: 65534 when the suite is root, else the suite's own uid. */
export const PERSON_UID = asRoot ? 65534 : (process.getuid?.() ?? 0);

export type PersonRun = { code: number | null; out: string; err: string };

/** Runs `node <bin> ...args` as the person; `env` is all of the environment but PATH. */
export const runAsPerson = (
  bin: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
) =>
  new Promise<PersonRun>((resolve) => {
    const argv = [process.execPath, bin, ...args];
    const child = spawn(
      asRoot ? "setpriv" : argv[0]!,
      asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups", ...argv] : argv.slice(1),
      {
        cwd: opts.cwd,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...opts.env },
        timeout: opts.timeoutMs ?? 240_000,
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("close", (code) => resolve({ code, out, err }));
  });
