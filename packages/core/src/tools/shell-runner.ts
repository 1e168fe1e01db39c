/**
 * The port `Bash` runs commands through, so the confinement of shell commands is decided in
 * one place. `sandboxShellRunner` runs a command as a plain child of the proxy, through the
 * sandbox module's process runner: right when the proxy itself runs inside a step sandbox
 * (`sandbox: "inherit"`), whose confinement the child shares. A proxy started by hand uses
 * `createSandboxedShell` (sandboxed-shell.ts), which gives each command a sandbox of its own.
 */
import { runProcess } from "../sandbox";

export type ShellRequest = {
  command: string;
  /** Real, already-confined working folder. */
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Bytes kept of stdout and of stderr. */
  outputCap: number;
};

export type ShellResult = {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
};

export type ShellRunner = (request: ShellRequest) => Promise<ShellResult>;

export const sandboxShellRunner: ShellRunner = async (request) => {
  const result = await runProcess({
    argv: ["/bin/bash", "--norc", "--noprofile", "-c", request.command],
    cwd: request.cwd,
    env: request.env,
    timeoutMs: request.timeoutMs,
    signal: request.signal,
    outputCap: request.outputCap,
    killGraceMs: 2000,
  });
  return toShellResult(result);
};

/** The part of a process or sandbox result that Bash reports. */
export const toShellResult = (result: ShellResult): ShellResult => ({
  exitCode: result.exitCode,
  signal: result.signal,
  stdout: result.stdout,
  stderr: result.stderr,
  truncated: result.truncated,
  timedOut: result.timedOut,
  cancelled: result.cancelled,
});
