/**
 * A process that races a walk of a folder: a perl loop, as another uid, in that folder, as
 * fast as syscalls go (no fork per change). For tests that a walk by descriptor never
 * follows what the racer swaps in. Needs root (setpriv).
 */
import { spawn, type ChildProcess } from "node:child_process";

/** Starts `program` (perl) as `uid` in `dir`. */
export const startRacer = (uid: number, dir: string, program: string): ChildProcess =>
  spawn(
    "/usr/bin/setpriv",
    [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--", "/usr/bin/perl", "-e", program],
    { cwd: dir, stdio: "ignore" },
  );

/** Kills the racer and waits for it to be gone. */
export const stopRacer = async (racer: ChildProcess) => {
  const gone = new Promise((resolve) => racer.once("exit", resolve));
  racer.kill("SIGKILL");
  await gone;
};
