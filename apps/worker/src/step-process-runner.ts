/**
 * The engine's process port in the worker: every process a run starts (steps, hooks) runs
 * through the step sandbox in the run's private folders as the run's step uid, its output
 * scrubbed as it is read and capped; each process gets a span under the run span. Which
 * attempt a process is, and its StepRun row, are the engine's (step-run-recorder.ts).
 *
 * How a process starts is SWITCHYARD_STEP_LAUNCHER: `per-step` (the default), a sandbox of
 * its own; `per-run`, a fork and exec by the run's resident launcher, in one sandbox for the
 * whole run (opened at the run's first process; the run's end reaps it with the rest of the
 * run, or `close()` ends it sooner). See docs/sandbox.md, "The per-run launcher", for what a
 * step gives up with it.
 */
import type { Context } from "@opentelemetry/api";
import { AppError } from "@switchyard/core/errors";
import {
  openStepLauncher,
  runSandboxed,
  type SandboxHost,
  type StepFolders,
  type StepLauncher,
} from "@switchyard/core/sandbox";
import { scrubbedCapture, type Scrubber } from "@switchyard/core/secrets";
import type { ProcessRequest, ProcessRunner } from "@switchyard/core/workflow";
import type { Logger } from "./logger";
import {
  stepOutputStream,
  type StepOutputAttempt,
  type StepOutputChunk,
} from "./step-output-stream";
import { withChildSpan } from "./tracing";

export type StepRunnerDeps = {
  log: Logger;
  runId: string;
  sandbox: SandboxHost;
  uid: number | undefined;
  folders: StepFolders;
  network: boolean;
  scrubber: Scrubber;
  trace: Context;
  /** A step's output while it runs (scrubbed, coalesced, capped), for live views. */
  onOutput?: (attempt: StepOutputAttempt, chunk: StepOutputChunk) => void;
  /** A sandbox per process, or one per run with a resident launcher; SWITCHYARD_STEP_LAUNCHER unless told. */
  launcher?: StepLauncherMode;
};

type StepLauncherMode = "per-step" | "per-run";

/** SWITCHYARD_STEP_LAUNCHER: `per-step` (unset) or `per-run`. */
export const stepLauncherMode = (value: string | undefined): StepLauncherMode => {
  if (value === undefined || value === "" || value === "per-step") return "per-step";
  if (value === "per-run") return "per-run";
  throw new AppError(
    "SYSTEM.CONFIG",
    `SWITCHYARD_STEP_LAUNCHER is ${JSON.stringify(value)}; use per-step or per-run`,
  );
};

/** The engine's process port, and `close()`: ends the run's launcher, if it has one (idempotent). */
type StepProcessRunner = ProcessRunner & { close: () => Promise<void> };

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const OUTPUT_CAP = 256 * 1024;

const PURPOSE: Record<ProcessRequest["purpose"], string> = {
  step: "step",
  hook: "hook",
  workflow_hook: "workflow hook",
};

export const createStepProcessRunner = (deps: StepRunnerDeps): StepProcessRunner => {
  const mode = deps.launcher ?? stepLauncherMode(process.env.SWITCHYARD_STEP_LAUNCHER);
  // Level none has no sandbox to share: every process then starts on its own, as per-step.
  let launcher: StepLauncher | undefined;
  const runOne = (request: ProcessRequest, options: Parameters<typeof runSandboxed>[2]) => {
    const step = {
      argv: request.argv,
      cwd: request.cwd,
      env: { ...request.env, SWITCHYARD_RUN_ID: deps.runId },
    };
    if (mode === "per-run" && deps.sandbox.level !== "none") {
      launcher ??= openStepLauncher(deps.sandbox, {
        workspace: deps.folders.workspace,
        home: deps.folders.home,
        tmp: deps.folders.tmp,
        network: deps.network,
        uid: deps.uid,
        limits: { outputBytes: OUTPUT_CAP },
      });
      return launcher.run(step, options);
    }
    return runSandboxed(
      deps.sandbox,
      {
        ...step,
        workspace: deps.folders.workspace,
        home: deps.folders.home,
        tmp: deps.folders.tmp,
        network: deps.network,
        uid: deps.uid,
        limits: { outputBytes: OUTPUT_CAP },
      },
      options,
    );
  };
  const run: ProcessRunner = (request) => runProcess(deps, request, runOne);
  return Object.assign(run, { close: async () => launcher?.close() });
};

const runProcess = async (
  deps: StepRunnerDeps,
  request: ProcessRequest,
  runOne: (
    request: ProcessRequest,
    options: Parameters<typeof runSandboxed>[2],
  ) => ReturnType<typeof runSandboxed>,
) => {
  const { runId, sandbox } = deps;
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const name = `${PURPOSE[request.purpose]} ${request.stateName}`;
  const attributes = {
    "switchyard.run.id": runId,
    "switchyard.step.attempt": request.attempt,
    "switchyard.step.path": request.path.key,
    "switchyard.sandbox.level": sandbox.level,
  };
  return withChildSpan(deps.trace, name, attributes, async (span) => {
    if (request.attemptId) span.setAttribute("switchyard.step_run.id", request.attemptId);
    // Output is scrubbed as it is read, chunk by chunk, and capped after: a secret split
    // between chunks or cut by the cap is never stored in part.
    // A step's own process (not a hook) streams what is kept to live views as it runs.
    const { attemptId } = request;
    const live =
      deps.onOutput && request.purpose === "step" && attemptId
        ? stepOutputStream((chunk) =>
            deps.onOutput?.(
              { stepRunId: attemptId, state: request.stateName, attempt: request.attempt },
              chunk,
            ),
          )
        : undefined;
    const out = scrubbedCapture(deps.scrubber, OUTPUT_CAP, live?.stdout);
    const err = scrubbedCapture(deps.scrubber, OUTPUT_CAP, live?.stderr);
    const result = await runOne(request, {
      stdin: request.stdin,
      timeoutMs,
      signal: request.signal,
      onStdout: out.push,
      onStderr: err.push,
    }).catch((error: unknown) => {
      // A process that cannot start (a bad `dir`, an environment value the sandbox refuses)
      // fails with a message the span records and the engine stores: scrubbed here.
      throw deps.scrubber.scrubError(error);
    });
    const stdout = out.text();
    const stderr = err.text();
    live?.close();
    span.setAttribute("process.exit.code", result.exitCode ?? -1);
    for (const warning of result.warnings)
      deps.log.warn(deps.scrubber.scrub(warning), { runId, step: request.stateName });
    deps.log.info(`${name} finished`, {
      runId,
      exitCode: result.exitCode,
      ms: result.durationMs,
      sandboxLevel: sandbox.level,
    });
    return {
      exitCode: result.exitCode,
      stdout,
      stderr,
      timedOut: result.timedOut,
      cancelled: result.cancelled,
      signal: result.signal,
    };
  });
};
