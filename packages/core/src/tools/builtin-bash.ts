/**
 * The `Bash` built-in: runs a shell command in the workspace through the injected
 * ShellRunner, with a timeout, capped output and the exit code in the result. Output is
 * scrubbed by the caller (the proxy scrubs every result).
 */
import { z } from "zod";
import { lstat } from "node:fs/promises";
import { PathRefused, type Confinement } from "./confine-path";
import type { ShellRunner } from "./shell-runner";
import { toolError, type ToolResult } from "./tool-provider";

/** Bytes kept of stdout and of stderr; the proxy cuts what the agent sees far shorter. */
const BASH_OUTPUT_CAP = 2 * 1024 * 1024;
const DEFAULT_TIMEOUT_SECONDS = 120;
const MAX_TIMEOUT_SECONDS = 600;

export const bashArgs = z.object({
  command: z
    .string()
    .min(1)
    .describe("The shell command (bash -c). Runs non-interactively; stdin is empty."),
  cwd: z
    .string()
    .optional()
    .describe("Working folder relative to the workspace root. Default: the root."),
  timeout_seconds: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_SECONDS)
    .optional()
    .describe(
      `Kill the command after this many seconds. Default ${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS}.`,
    ),
});

export const BASH_DESCRIPTION = [
  "Run a shell command with bash in the workspace and return its exit code, stdout and stderr.",
  "Up to 2 MiB of each stream is kept; a long result is cut with a note naming the workspace file that holds all of it (Read it in parts).",
  "The command is killed at its timeout.",
  "Prefer Read, Write, Edit, Glob and Grep for files; use Bash for builds, tests, git and other programs.",
].join(" ");

/** Linux's limit on one argument (MAX_ARG_STRLEN, with its NUL): the command is bash's `-c` argument. */
const MAX_COMMAND_BYTES = 128 * 1024 - 1;

type BashDeps = {
  confinement: Confinement;
  shell: ShellRunner;
  env: Record<string, string>;
};

export const runBash = async (
  deps: BashDeps,
  args: z.infer<typeof bashArgs>,
  signal: AbortSignal,
): Promise<ToolResult> => {
  const bytes = Buffer.byteLength(args.command);
  if (bytes > MAX_COMMAND_BYTES)
    return toolError(
      `Bash refused: the command is ${bytes.toLocaleString("en-US")} bytes; at most ${MAX_COMMAND_BYTES.toLocaleString("en-US")} fit in one command. Write it to a script file with Write, then run that script with Bash.`,
    );
  const cwd = await deps.confinement.resolve(args.cwd);
  if (!cwd.exists || !(await lstat(cwd.real)).isDirectory())
    throw new PathRefused(`${args.cwd ?? "."}: not a folder`);
  const timeoutSeconds = args.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
  const result = await deps.shell({
    command: args.command,
    cwd: cwd.real,
    env: deps.env,
    timeoutMs: Math.round(timeoutSeconds * 1000),
    signal,
    outputCap: BASH_OUTPUT_CAP,
  });
  const status = result.timedOut
    ? `timed out after ${timeoutSeconds} s`
    : result.cancelled
      ? "cancelled"
      : result.exitCode === null
        ? `killed by ${result.signal ?? "a signal"}`
        : `exit code ${result.exitCode}`;
  const parts = [status];
  if (result.stdout) parts.push(`stdout:\n${result.stdout}`);
  if (result.stderr) parts.push(`stderr:\n${result.stderr}`);
  if (result.truncated)
    parts.push(`[output truncated to ${BASH_OUTPUT_CAP.toLocaleString("en-US")} bytes per stream]`);
  return {
    content: [{ type: "text", text: parts.join("\n") }],
    isError: result.exitCode !== 0,
  };
};
