/**
 * A spawn port for tests: the CLI as a plain child process in its own process group, in a
 * given folder, stopped as the product stops processes (end stdin, SIGTERM the group, SIGKILL
 * after the grace period). What the group still holds once the CLI exits (its MCP server,
 * their commands) is stopped the same way before the CLI counts as exited, so a server
 * cleaning up on its SIGTERM is not cut short and nothing outlives the CLI. The worker's port
 * is the step sandbox; this one confines nothing.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { listPids } from "@switchyard/core/sandbox";
import type { AgentExit, AgentProcess, AgentSpawnRequest } from "@switchyard/core/providers";

export type PlainSpawnOptions = { cwd: string; killGraceMs?: number };

const CLOSE_WAIT_MS = 2000;
/** How long the group may take to vanish after its SIGKILL. */
const KILLED_WAIT_MS = 2000;
const POLL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** State (`S`, `Z`, ...) and process group of a process, from /proc; none once it is gone. */
export const procStat = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state, pgrp: Number(pgrp) };
  } catch {
    return undefined;
  }
};

/** Live (not zombie) members of process group `pgid`. */
const groupMembers = (pgid: number) =>
  listPids().filter((pid) => {
    const stat = procStat(pid);
    return stat !== undefined && stat.state !== "Z" && stat.pgrp === pgid;
  });

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
    const grace = options.killGraceMs ?? 5000;
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        // the group is gone
      }
    };
    let killAt: number | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    /** SIGTERM the group once, and SIGKILL it at the grace's end. */
    const stopGroup = () => {
      if (killAt !== undefined) return;
      killAt = Date.now() + grace;
      group("SIGTERM");
      killTimer = setTimeout(() => group("SIGKILL"), grace);
      killTimer.unref();
    };
    const groupGone = async () => {
      while (groupMembers(pid).length > 0 && Date.now() < killAt!) await sleep(POLL_MS);
      clearTimeout(killTimer);
      group("SIGKILL");
      const end = Date.now() + KILLED_WAIT_MS;
      while (groupMembers(pid).length > 0 && Date.now() < end) await sleep(POLL_MS);
    };
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));

    let gone = false;
    const exited = new Promise<AgentExit>((resolve) => {
      child.once("exit", (exitCode, signal) => {
        gone = true;
        child.stdin.end();
        stopGroup();
        void (async () => {
          await groupGone();
          await Promise.race([closed, sleep(CLOSE_WAIT_MS)]);
          for (const stream of child.stdio) stream?.destroy();
          resolve({ exitCode, signal });
        })();
      });
    });
    const stop = () => {
      if (!gone) {
        child.stdin.end();
        stopGroup();
      }
      return exited;
    };
    return { pid, stdin: child.stdin, stdout: child.stdout, stderr: child.stderr, stop, exited };
  };
