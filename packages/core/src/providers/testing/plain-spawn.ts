/**
 * A spawn port for tests: the CLI as a plain child process in its own process group, in a
 * given folder, stopped as the product stops processes (end stdin, SIGTERM the group, SIGKILL
 * after the grace period), and its group killed once it exits so nothing it left behind
 * outlives it. The worker's port is the step sandbox; this one confines nothing.
 */
import { spawn } from "node:child_process";
import type { AgentExit, AgentProcess, AgentSpawnRequest } from "../agent-process";

export type PlainSpawnOptions = { cwd: string; killGraceMs?: number };

const CLOSE_WAIT_MS = 2000;

export const plainSpawn =
  (options: PlainSpawnOptions) =>
  async ({ argv, env }: AgentSpawnRequest): Promise<AgentProcess & { pid: number }> => {
    const [file, ...args] = argv;
    if (!file) throw new Error("plainSpawn: empty argv");
    const child = spawn(file, args, {
      cwd: options.cwd,
      env,
      detached: true,
      shell: false,
      stdio: ["pipe", "pipe", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    const pid = child.pid!;
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        // the group is gone
      }
    };
    let gone = false;
    let killTimer: NodeJS.Timeout | undefined;
    const exited = new Promise<AgentExit>((resolve) => {
      child.once("exit", (exitCode, signal) => {
        gone = true;
        clearTimeout(killTimer);
        group("SIGKILL");
        const late = setTimeout(() => {
          for (const stream of child.stdio) stream?.destroy();
          resolve({ exitCode, signal });
        }, CLOSE_WAIT_MS);
        child.once("close", () => {
          clearTimeout(late);
          resolve({ exitCode, signal });
        });
      });
    });
    const stop = () => {
      if (!gone) {
        child.stdin.end();
        group("SIGTERM");
        killTimer ??= setTimeout(() => group("SIGKILL"), options.killGraceMs ?? 5000);
      }
      return exited;
    };
    return { pid, stdin: child.stdin, stdout: child.stdout, stderr: child.stderr, stop, exited };
  };
