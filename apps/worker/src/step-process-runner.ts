/**
 * The engine's process port in the worker: every process a run starts (steps, hooks) runs
 * through the step sandbox in the run's private folders as the run's step uid, its output
 * scrubbed as it is read and capped; each process gets a span under the run span. Which
 * attempt a process is, and its StepRun row, are the engine's (step-run-recorder.ts).
 */
import type { Context } from "@opentelemetry/api";
import { runSandboxed, type SandboxHost, type StepFolders } from "@switchyard/core/sandbox";
import { scrubbedCapture, type Scrubber } from "@switchyard/core/secrets";
import type { ProcessRequest, ProcessRunner } from "@switchyard/core/workflow";
import type { Logger } from "./logger";
import { stepOutputStream, type StepOutputAttempt, type StepOutputChunk } from "./step-output-stream";
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
};

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const OUTPUT_CAP = 256 * 1024;

const PURPOSE: Record<ProcessRequest["purpose"], string> = { step: "step", hook: "hook", workflow_hook: "workflow hook" };

export const createStepProcessRunner = (deps: StepRunnerDeps): ProcessRunner => async (request: ProcessRequest) => {
  const { runId, sandbox } = deps;
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const name = `${PURPOSE[request.purpose]} ${request.stateName}`;
  const attributes = { "switchyard.run.id": runId, "switchyard.step.attempt": request.attempt, "switchyard.step.path": request.path.key, "switchyard.sandbox.level": sandbox.level };
  return withChildSpan(deps.trace, name, attributes, async (span) => {
    if (request.attemptId) span.setAttribute("switchyard.step_run.id", request.attemptId);
    // Output is scrubbed as it is read, chunk by chunk, and capped after: a secret split
    // between chunks or cut by the cap is never stored in part.
    // A step's own process (not a hook) streams what is kept to live views as it runs.
    const { attemptId } = request;
    const live =
      deps.onOutput && request.purpose === "step" && attemptId
        ? stepOutputStream((chunk) => deps.onOutput?.({ stepRunId: attemptId, state: request.stateName, attempt: request.attempt }, chunk))
        : undefined;
    const out = scrubbedCapture(deps.scrubber, OUTPUT_CAP, live?.stdout);
    const err = scrubbedCapture(deps.scrubber, OUTPUT_CAP, live?.stderr);
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
    const stdout = out.text();
    const stderr = err.text();
    live?.close();
    span.setAttribute("process.exit.code", result.exitCode ?? -1);
    for (const warning of result.warnings) deps.log.warn(deps.scrubber.scrub(warning), { runId, step: request.stateName });
    deps.log.info(`${name} finished`, { runId, exitCode: result.exitCode, ms: result.durationMs, sandboxLevel: sandbox.level });
    return { exitCode: result.exitCode, stdout, stderr, timedOut: result.timedOut, cancelled: result.cancelled, signal: result.signal };
  });
};
