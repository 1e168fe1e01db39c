/**
 * Executes one run: loads its pinned workflow version, walks the state machine, runs each
 * shell step in the run's private workspace and records every step, then the run's end.
 */
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@switchyard/core/errors";
import { runProcess } from "@switchyard/core/sandbox";
import { parseWorkflow, runWorkflow, type ProcessRequest } from "@switchyard/core/workflow";
import { finishRun, finishStepRun, getRun, loadBundle, markRunRunning, startStepRun, type Db } from "@switchyard/db";
import type { Logger } from "./logger";

export type ExecuteRunDeps = {
  db: Db;
  log: Logger;
  workerId: string;
  workspacesDir: string;
};

const STEP_ENV_BASE = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  LANG: "C.UTF-8",
};
const DEFAULT_STEP_TIMEOUT_MS = 30 * 60_000;
const OUTPUT_CAP = 256 * 1024;

export const executeRun = async (deps: ExecuteRunDeps, job: { runId: string; teamId: string }, signal: AbortSignal) => {
  const { db, log } = deps;
  const { runId, teamId } = job;
  const run = await getRun(db, teamId, runId);
  if (!run) throw new AppError("NOT_FOUND", `run ${runId} not found`);
  if (run.status !== "queued" && run.status !== "running") {
    log.warn("run is not runnable", { runId, status: run.status });
    return run.status;
  }
  if (!(await markRunRunning(db, teamId, runId, deps.workerId))) return "skipped";

  const runDir = path.resolve(deps.workspacesDir, runId);
  const workspace = path.join(runDir, "workspace");
  const home = path.join(runDir, "home");
  const tmp = path.join(runDir, "tmp");
  try {
    const bundle = await loadBundle(db, teamId, run.workflowVersionId);
    if (!bundle) throw new AppError("NOT_FOUND", `workflow version ${run.workflowVersionId} not found`);
    const parsed = parseWorkflow(bundle.entry, bundle.version.entryPath);
    if (!parsed.workflow) {
      const first = parsed.errors[0];
      await finishRun(db, teamId, runId, {
        status: "failed",
        errorCode: first?.code ?? "WORKFLOW.VALIDATION_FAILED",
        errorMessage: parsed.errors.map((e) => e.message).join("\n"),
      });
      return "failed";
    }
    await Promise.all([workspace, home, tmp].map((d) => mkdir(d, { recursive: true, mode: 0o700 })));

    const runStepProcess = async (request: ProcessRequest) => {
      const state = { name: request.stateName, timeoutMs: request.timeoutMs };
      const step = await startStepRun(db, { teamId, runId, stateName: state.name, stepType: "step", sandboxLevel: "none" });
      log.info("step started", { runId, step: state.name });
      const result = await runProcess({
        argv: request.argv,
        cwd: workspace,
        env: { ...request.env, ...STEP_ENV_BASE, HOME: home, TMPDIR: tmp, SWITCHYARD_RUN_ID: runId },
        stdin: request.stdin,
        timeoutMs: state.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
        signal: request.signal,
        outputCap: OUTPUT_CAP,
      });
      const ok = result.exitCode === 0 && !result.timedOut && !result.cancelled;
      await finishStepRun(db, teamId, step.id, {
        status: result.cancelled ? "cancelled" : ok ? "succeeded" : "failed",
        exitCode: result.exitCode,
        stdout: result.stdout,
        stderr: result.stderr,
        errorCode: ok ? undefined : result.timedOut ? "EXECUTION.TIMEOUT" : result.cancelled ? "EXECUTION.CANCELLED" : "EXECUTION.COMMAND_FAILED",
        errorMessage: ok
          ? undefined
          : result.timedOut
            ? `timed out after ${state.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS} ms`
            : result.cancelled
              ? "cancelled"
              : `exited with code ${result.exitCode ?? result.signal}`,
      });
      log.info("step finished", { runId, step: state.name, exitCode: result.exitCode, ms: result.durationMs });
      return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, timedOut: result.timedOut, cancelled: result.cancelled };
    };

    const entryDir = path.posix.dirname(bundle.version.entryPath);
    const files = { read: (p: string) => bundle.files[path.posix.normalize(path.posix.join(entryDir, p))] };
    const outcome = await runWorkflow(parsed.workflow, { runProcess: runStepProcess, signal, runId, files });
    await finishRun(db, teamId, runId, { status: outcome.status, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage });
    log.info("run finished", { runId, status: outcome.status });
    return outcome.status;
  } catch (error) {
    const code = error instanceof AppError ? error.code : "SYSTEM.INTERNAL";
    const message = error instanceof Error ? error.message : String(error);
    await finishRun(db, teamId, runId, { status: "failed", errorCode: code, errorMessage: message });
    log.error("run failed", { runId, code, error: message });
    return "failed";
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
};
