/**
 * One sandbox for a run's steps instead of one per step: a resident launcher
 * (resident-launcher.ts) runs in a sandbox with the run's uid, namespaces, folders and
 * limits, and starts each step there with a fork and exec. A step keeps what it has in a
 * sandbox of its own: its environment and working folder, its output captured and capped,
 * its exit code, the timeout and cancellation (SIGTERM to its process group and everything
 * carrying its tag, SIGKILL after the grace period), and nothing of it left once it has
 * ended. What it no longer has is a PID namespace, /tmp and /dev/shm of its own: see
 * docs/sandbox.md, "The per-run launcher".
 *
 * The launcher starts with the first step and starts again if it has died; `close()` ends
 * it and everything in its sandbox.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../errors";
import { buildLauncherStep } from "./build-launch";
import { prepareStepDirs } from "./prepare-step-dirs";
import { RESIDENT_LAUNCHER } from "./resident-launcher";
import { capture, type RunSandboxedOptions } from "./run-sandboxed";
import {
  DEFAULT_LIMITS,
  type SandboxHost,
  type SandboxResult,
  type SandboxSpec,
} from "./sandbox-types";
import { startSandboxed, type SandboxProcess } from "./start-sandboxed";

/** What the run's steps share: fixed when the launcher starts. */
type LauncherSpec = Omit<SandboxSpec, "argv" | "cwd" | "env" | "killGraceMs">;

/** One step: what differs between the steps of a run. */
type LauncherStep = Pick<SandboxSpec, "argv" | "cwd" | "env" | "killGraceMs"> & {
  /** Bytes kept of each output stream; the launcher's `limits.outputBytes` unless told. */
  outputBytes?: number;
};

export type StepLauncher = {
  run: (step: LauncherStep, options?: RunSandboxedOptions) => Promise<SandboxResult>;
  /** Ends the launcher and every process of its sandbox; resolves once none is left. */
  close: () => Promise<void>;
};

const FRAME = { ready: 0, stdout: 1, stderr: 2, exit: 3 } as const;
const HEAD = 9;
const DEFAULT_GRACE_MS = 5000;

type Pending = {
  onStdout: (chunk: Buffer) => void;
  onStderr: (chunk: Buffer) => void;
  onExit: (exit: { exitCode: number | null; error?: string }) => void;
  fail: (error: Error) => void;
};

type Instance = {
  proc: SandboxProcess;
  pending: Map<number, Pending>;
  dead: boolean;
  send: (message: object) => void;
};

const unavailable = (message: string) => new AppError("SYSTEM.SANDBOX_UNAVAILABLE", message);

const startInstance = async (host: SandboxHost, spec: LauncherSpec): Promise<Instance> => {
  const proc = await startSandboxed(host, {
    ...spec,
    argv: [process.execPath, "-e", RESIDENT_LAUNCHER],
  });
  const pending = new Map<number, Pending>();
  const instance: Instance = {
    proc,
    pending,
    dead: false,
    send: (message) => proc.stdin.write(`${JSON.stringify(message)}\n`),
  };
  let buffered: Buffer = Buffer.alloc(0);
  proc.stdout.on("data", (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    while (buffered.length >= HEAD) {
      const length = buffered.readUInt32BE(5);
      if (buffered.length < HEAD + length) break;
      const kind = buffered.readUInt8(0);
      const id = buffered.readUInt32BE(1);
      const payload = buffered.subarray(HEAD, HEAD + length);
      buffered = buffered.subarray(HEAD + length);
      const step = pending.get(id);
      if (kind === FRAME.stdout) step?.onStdout(payload);
      else if (kind === FRAME.stderr) step?.onStderr(payload);
      else if (kind === FRAME.exit && step) {
        pending.delete(id);
        step.onExit(
          JSON.parse(payload.toString("utf8")) as { exitCode: number | null; error?: string },
        );
      }
    }
  });
  let errors = "";
  proc.stderr.on(
    "data",
    (chunk: Buffer) => (errors = (errors + chunk.toString("utf8")).slice(-2000)),
  );
  void proc.exited.then(
    (exit) => {
      instance.dead = true;
      const why = unavailable(
        `the run's step launcher ended (exit ${exit.exitCode ?? exit.signal ?? "?"})${errors ? `: ${errors.trim()}` : ""}`,
      );
      for (const step of pending.values()) step.fail(why);
      pending.clear();
    },
    (error: unknown) => {
      instance.dead = true;
      for (const step of pending.values())
        step.fail(error instanceof Error ? error : new Error(String(error)));
      pending.clear();
    },
  );
  return instance;
};

/** The run's resident launcher, which starts each of its steps in one sandbox. */
export const openStepLauncher = (host: SandboxHost, spec: LauncherSpec): StepLauncher => {
  if (host.level === "none")
    throw new AppError(
      "SYSTEM.SANDBOX_INVALID_SPEC",
      "a resident step launcher needs a confined sandbox level",
    );
  let instance: Promise<Instance> | undefined;
  let closed = false;
  let nextId = 0;

  const current = async () => {
    const live = await instance?.catch(() => undefined);
    if (live && !live.dead) return live;
    instance = startInstance(host, spec);
    return instance;
  };

  const run = async (
    step: LauncherStep,
    options: RunSandboxedOptions = {},
  ): Promise<SandboxResult> => {
    if (closed) throw unavailable("the run's step launcher is closed");
    const stepId = randomBytes(12).toString("hex");
    const request = buildLauncherStep(host, step, stepId);
    // What an earlier step changed of its folders' owner and mode is put back, as for a sandbox per step.
    await prepareStepDirs(host, { ...spec, argv: step.argv });
    const launcher = await current();
    const cap = step.outputBytes ?? spec.limits?.outputBytes ?? DEFAULT_LIMITS.outputBytes;
    const out = capture(cap);
    const err = capture(cap);
    const grace = step.killGraceMs ?? DEFAULT_GRACE_MS;
    const id = ++nextId;
    const started = performance.now();
    let timedOut = false;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (killTimer) return;
      launcher.send({ op: "signal", id, signal: "SIGTERM" });
      killTimer = setTimeout(() => launcher.send({ op: "signal", id, signal: "SIGKILL" }), grace);
    };
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    const done = () => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
    };
    const exit = await new Promise<{ exitCode: number | null; error?: string }>(
      (resolve, reject) => {
        launcher.pending.set(id, {
          onStdout: (chunk) => {
            out.push(chunk);
            options.onStdout?.(chunk);
          },
          onStderr: (chunk) => {
            err.push(chunk);
            options.onStderr?.(chunk);
          },
          onExit: (result) => {
            done();
            resolve(result);
          },
          fail: (error) => {
            done();
            reject(error);
          },
        });
        launcher.send({ op: "start", id, ...request, stdin: options.stdin ?? "" });
        if (options.timeoutMs !== undefined)
          timer = setTimeout(() => {
            timedOut = true;
            stop();
          }, options.timeoutMs);
        if (options.signal?.aborted) onAbort();
        else options.signal?.addEventListener("abort", onAbort, { once: true });
      },
    );
    if (exit.error !== undefined)
      throw unavailable(`cannot start ${step.argv[0] ?? ""}: ${exit.error}`);
    return {
      level: host.level,
      warnings: host.warnings,
      exitCode: exit.exitCode,
      signal: null,
      timedOut,
      cancelled,
      durationMs: Math.round(performance.now() - started),
      stdout: out.text(),
      stderr: err.text(),
      truncated: out.bytes > cap || err.bytes > cap,
      stdoutBytes: out.bytes,
      stderrBytes: err.bytes,
    };
  };

  const close = async () => {
    closed = true;
    const live = await instance?.catch(() => undefined);
    if (live) await live.proc.stop();
  };

  return { run, close };
};
