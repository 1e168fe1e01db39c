/**
 * Runs one process to completion in its own process group, with an explicit environment,
 * capped output, a timeout and cancellation. Stopping follows one escalation everywhere:
 * end stdin, SIGTERM the group, SIGKILL the group after the grace period.
 */
import { spawn } from "node:child_process";

type RunProcessOptions = {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Bytes kept of each stream; the rest is counted and dropped.
   * @default 1024 * 1024 (1 MiB)
   */
  outputCap?: number;
  /**
   * How long the process has after SIGTERM before it gets SIGKILL.
   * @default 5000
   */
  killGraceMs?: number;
};

type ProcessResult = {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
};

const DEFAULT_CAP = 1024 * 1024;

/** Runs a command to its end and answers its exit and its captured output. */
export const runProcess = (opts: RunProcessOptions): Promise<ProcessResult> => {
  const [file, ...args] = opts.argv;
  if (!file) throw new Error("runProcess: empty argv");
  const cap = opts.outputCap ?? DEFAULT_CAP;
  const grace = opts.killGraceMs ?? 5000;
  const started = performance.now();

  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: opts.cwd,
      // The web app's types (Next.js) require NODE_ENV in every environment; Node's own do not.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      env: opts.env as NodeJS.ProcessEnv,
      detached: true,
      shell: false,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    let timedOut = false;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;

    const keep = (chunks: Buffer[], size: number, chunk: Buffer): number => {
      if (size < cap)
        chunks.push(size + chunk.length > cap ? chunk.subarray(0, cap - size) : chunk);
      if (size + chunk.length > cap) truncated = true;
      return size + chunk.length;
    };
    child.stdout.on("data", (c: Buffer) => (outBytes = keep(out, outBytes, c)));
    child.stderr.on("data", (c: Buffer) => (errBytes = keep(err, errBytes, c)));
    child.stdin.on("error", () => undefined);

    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // the group is already gone
      }
    };
    const stop = () => {
      child.stdin.end();
      killGroup("SIGTERM");
      killTimer ??= setTimeout(() => killGroup("SIGKILL"), grace);
    };
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            stop();
          }, opts.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });

    child.on("error", (e) => {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      reject(e);
    });
    child.on("close", (exitCode, signal) => {
      if (timer) clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener("abort", onAbort);
      // Whatever the step left in its group goes with it.
      killGroup("SIGKILL");
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        truncated,
        timedOut,
        cancelled,
        durationMs: Math.round(performance.now() - started),
      });
    });
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
};
