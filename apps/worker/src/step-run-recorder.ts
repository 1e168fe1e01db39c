/**
 * The engine's step recorder in the worker: every attempt of a step or agent the engine
 * starts is a StepRun row, opened as it starts and closed as it ends, with the attempt
 * number and path the engine gives it and the output as the engine scrubbed it. A row whose
 * end cannot be stored is still closed, as failed (EXECUTION.OUTPUT_NOT_STORED), and the
 * attempt fails with that error.
 */
import { AppError } from "@switchyard/core/errors";
import type { Scrubber } from "@switchyard/core/secrets";
import type { StepRecorder } from "@switchyard/core/workflow";
import { failRunningStepRun, finishStepRun, startStepRun, type Db } from "@switchyard/db";
import type { Logger } from "./logger";

export type StepRunRecorderDeps = {
  db: Db;
  log: Logger;
  teamId: string;
  runId: string;
  /** The sandbox level every process of the run runs at, recorded on each row. */
  sandboxLevel: string;
  scrubber: Scrubber;
  /** Tells live views the run's steps changed. */
  notify: () => void;
};

/** An error's last line, short: a database error can carry the whole statement before it. */
const briefly = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  const last = text.trim().split("\n").pop() ?? "";
  return last.length > 300 ? `${last.slice(0, 300)}…` : last;
};

export const stepRunRecorder = (deps: StepRunRecorderDeps): StepRecorder => {
  const { db, teamId, runId } = deps;
  return {
    attemptStarted: async (attempt) => {
      const row = await startStepRun(db, {
        teamId,
        runId,
        stateName: attempt.state,
        stepType: attempt.kind === "agent" ? "agent" : "step",
        attempt: attempt.attempt,
        path: attempt.path,
        provider: attempt.provider,
        sandboxLevel: deps.sandboxLevel,
      });
      deps.notify();
      return { id: row.id };
    },
    attemptFinished: async ({ id }, end) => {
      try {
        await finishStepRun(db, teamId, id, {
          status: end.status,
          exitCode: end.exitCode,
          stdout: end.stdout,
          stderr: end.stderr,
          output: end.output,
          inputTokens: end.tokensInput,
          outputTokens: end.tokensOutput,
          costUsd: end.costUsd,
          agentSessionId: end.sessionId,
          errorCode: end.error?.code,
          errorMessage: end.error?.message,
        });
      } catch (error) {
        const message = `the step's output could not be stored: ${deps.scrubber.scrub(briefly(error))}`;
        await failRunningStepRun(db, teamId, id, { code: "EXECUTION.OUTPUT_NOT_STORED", message }).catch((closing: unknown) =>
          deps.log.error("a step run could not be closed", { runId, stepRunId: id, error: deps.scrubber.scrub(briefly(closing)) }),
        );
        deps.notify();
        throw new AppError("EXECUTION.OUTPUT_NOT_STORED", message, { cause: error });
      }
      deps.notify();
    },
  };
};
