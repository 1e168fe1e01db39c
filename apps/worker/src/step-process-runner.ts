/**
 * The engine's process port in the worker: every process a run starts (steps, hooks)
 * runs through the step sandbox in the run's private folders as the run's step uid. A
 * step process is recorded as a StepRun (one per attempt) with its output scrubbed; each
 * process gets a span under the run span.
 */
import type { Context } from "@opentelemetry/api";
import { runSandboxed, type SandboxHost, type StepFolders } from "@switchyard/core/sandbox";
import { scrubbedCapture, type Scrubber } from "@switchyard/core/secrets";
import type { ProcessRequest, ProcessRunner } from "@switchyard/core/workflow";
import { AppError, isAppError } from "@switchyard/core/errors";
import { failRunningStepRun, finishStepRun, startStepRun, type Db } from "@switchyard/db";
import type { Logger } from "./logger";
import { withChildSpan } from "./tracing";

export type StepRunnerDeps = {
  db: Db;
  log: Logger;
  teamId: string;
  runId: string;
  sandbox: SandboxHost;
  uid: number | undefined;
  folders: StepFolders;
  network: boolean;
  scrubber: Scrubber;
  trace: Context;
  /** Which attempt the next process of a state is (kept from the engine's retry events). */
  attemptOf: (state: string) => number;
  /** Tells live views the run's steps changed. */
  notify: () => void;
};

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const OUTPUT_CAP = 256 * 1024;

const failure = (r: { timedOut: boolean; cancelled: boolean; exitCode: number | null; signal: string | null }, timeoutMs: number) => {
  if (r.cancelled) return { code: "EXECUTION.CANCELLED", message: "cancelled" };
  if (r.timedOut) return { code: "EXECUTION.TIMEOUT", message: `timed out after ${timeoutMs} ms` };
  if (r.exitCode === 0) return undefined;
  return { code: "EXECUTION.COMMAND_FAILED", message: `exited with code ${r.exitCode ?? r.signal}` };
};

/** An error's last line, short: a database error can carry the whole statement before it. */
const briefly = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  const last = text.trim().split("\n").pop() ?? "";
  return last.length > 300 ? `${last.slice(0, 300)}…` : last;
};

export const createStepProcessRunner = (deps: StepRunnerDeps): ProcessRunner => async (request: ProcessRequest) => {
  const { db, teamId, runId, sandbox } = deps;
  const isStep = request.purpose === "step";
  const attempt = deps.attemptOf(request.stateName);
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const step = isStep
    ? await startStepRun(db, { teamId, runId, stateName: request.stateName, stepType: "step", attempt, sandboxLevel: sandbox.level })
    : undefined;
  if (step) deps.notify();
  const name = `${isStep ? "step" : request.purpose === "hook" ? "hook" : "workflow hook"} ${request.stateName}`;
  const ran = withChildSpan(deps.trace, name, { "switchyard.run.id": runId, "switchyard.step.attempt": attempt, "switchyard.sandbox.level": sandbox.level }, async (span) => {
    if (step) span.setAttribute("switchyard.step_run.id", step.id);
    // Output is scrubbed as it is read, chunk by chunk, and capped after: a secret split
    // between chunks or cut by the cap is never stored in part.
    const out = scrubbedCapture(deps.scrubber, OUTPUT_CAP);
    const err = scrubbedCapture(deps.scrubber, OUTPUT_CAP);
    const result = await runSandboxed(
      sandbox,
      {
        argv: request.argv,
        workspace: deps.folders.workspace,
        home: deps.folders.home,
        tmp: deps.folders.tmp,
        cwd: request.cwd,
        env: { ...request.env, SWITCHYARD_RUN_ID: runId },
        network: deps.network,
        uid: deps.uid,
        limits: { outputBytes: OUTPUT_CAP },
      },
      { stdin: request.stdin, timeoutMs, signal: request.signal, onStdout: out.push, onStderr: err.push },
    ).catch((error: unknown) => {
      // A process that cannot start (a bad `dir`, an environment value the sandbox refuses)
      // fails with a message the span records and the engine stores: scrubbed here.
      throw deps.scrubber.scrubError(error);
    });
    span.setAttribute("process.exit.code", result.exitCode ?? -1);
    const stdout = out.text();
    const stderr = err.text();
    const failed = failure(result, timeoutMs);
    for (const warning of result.warnings) deps.log.warn(deps.scrubber.scrub(warning), { runId, step: request.stateName });
    if (step) {
      await finishStepRun(db, teamId, step.id, {
        status: result.cancelled ? "cancelled" : failed ? "failed" : "succeeded",
        exitCode: result.exitCode,
        stdout,
        stderr,
        errorCode: failed?.code,
        errorMessage: failed ? deps.scrubber.scrub(failed.message) : undefined,
      }).catch((error: unknown) => {
        throw new AppError("EXECUTION.OUTPUT_NOT_STORED", `the step's output could not be stored: ${deps.scrubber.scrub(briefly(error))}`, { cause: error });
      });
      deps.notify();
    }
    deps.log.info(`${name} finished`, { runId, exitCode: result.exitCode, ms: result.durationMs, sandboxLevel: sandbox.level });
    return { exitCode: result.exitCode, stdout, stderr, timedOut: result.timedOut, cancelled: result.cancelled };
  });
  if (!step) return ran;
  // Whatever went wrong once the row was opened (the process could not start, its output
  // could not be stored), the row is closed as failed with the error, and the state fails.
  return ran.catch(async (error: unknown) => {
    const code = isAppError(error) ? error.code : "EXECUTION.STEP_ERROR";
    await failRunningStepRun(db, teamId, step.id, { code, message: deps.scrubber.scrub(briefly(error)) })
      .then(() => deps.notify())
      .catch((closing: unknown) => deps.log.error("a step run could not be closed", { runId, step: request.stateName, error: deps.scrubber.scrub(briefly(closing)) }));
    throw error;
  });
};
