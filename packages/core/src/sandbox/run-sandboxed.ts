/**
 * Runs one step command inside the sandbox to completion: feeds stdin, streams and caps
 * stdout/stderr, applies the timeout and cancellation, and returns the exit status with
 * timing. Shell steps and hooks go through here.
 */
import type { SandboxHost, SandboxResult, SandboxSpec } from "./sandbox-types";
import { DEFAULT_LIMITS } from "./sandbox-types";
import { startSandboxed } from "./start-sandboxed";

export type RunSandboxedOptions = {
  stdin?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Every chunk as it arrives (before the cap), e.g. for live logs. */
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
};

/** Keeps the first `cap` bytes of a stream and counts the rest. */
export const capture = (cap: number) => {
  const chunks: Buffer[] = [];
  let bytes = 0;
  return {
    push(chunk: Buffer) {
      if (bytes < cap)
        chunks.push(bytes + chunk.length > cap ? chunk.subarray(0, cap - bytes) : chunk);
      bytes += chunk.length;
    },
    get bytes() {
      return bytes;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
  };
};

/** Runs a command in a sandbox to its end. */
export const runSandboxed = async (
  host: SandboxHost,
  spec: SandboxSpec,
  options: RunSandboxedOptions = {},
): Promise<SandboxResult> => {
  const cap = spec.limits?.outputBytes ?? DEFAULT_LIMITS.outputBytes;
  const out = capture(cap);
  const err = capture(cap);
  const proc = await startSandboxed(host, spec, {
    signal: options.signal,
    timeoutMs: options.timeoutMs,
  });
  proc.stdout.on("data", (chunk: Buffer) => {
    out.push(chunk);
    options.onStdout?.(chunk);
  });
  proc.stderr.on("data", (chunk: Buffer) => {
    err.push(chunk);
    options.onStderr?.(chunk);
  });
  proc.stdin.end(options.stdin ?? "");
  const exit = await proc.exited;
  return {
    ...exit,
    stdout: out.text(),
    stderr: err.text(),
    truncated: out.bytes > cap || err.bytes > cap,
    stdoutBytes: out.bytes,
    stderrBytes: err.bytes,
  };
};
