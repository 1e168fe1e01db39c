/**
 * The port through which a provider starts its agent CLI. The worker passes a spawn that
 * runs the CLI in the step sandbox (a SandboxProcess from startSandboxed fits as is); tests
 * pass a plain one. The port owns the working folder, the confinement and the stop: a
 * provider only hands it the argument list and the environment, reads stdout and stderr,
 * and asks it to stop.
 */
import type { Readable, Writable } from "node:stream";

export type AgentSpawnRequest = { argv: string[]; env: Record<string, string> };

export type AgentExit = { exitCode: number | null; signal: NodeJS.Signals | null };

export type AgentProcess = {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /**
   * Stops the CLI and everything it started (its MCP server, their commands): end stdin,
   * SIGTERM the group, SIGKILL after the grace period. Idempotent; settles as `exited` does.
   */
  stop: () => Promise<unknown>;
  /** Settles once the CLI has exited, everything it started is gone, and stdout and stderr are closed. */
  exited: Promise<AgentExit>;
};

export type AgentSpawn = (request: AgentSpawnRequest) => Promise<AgentProcess>;
