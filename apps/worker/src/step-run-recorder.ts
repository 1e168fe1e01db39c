/**
 * The engine's step recorder in the worker: every attempt of a step or agent the engine
 * starts is a StepRun row, opened as it starts and closed as it ends, with the attempt
 * number and path the engine gives it and the output as the engine scrubbed it. Both go
 * through the run's writer (with the events pending then, in one statement each). A row
 * whose end cannot be stored is still closed, as failed (EXECUTION.OUTPUT_NOT_STORED), and
 * the attempt fails with that error.
 */
import type { StepRecorder } from "@switchyard/core/workflow";
import { newRowId } from "@switchyard/db";
import type { RunWriter } from "./run-writer";

export const stepRunRecorder = (writer: RunWriter, sandboxLevel: string): StepRecorder => ({
  attemptStarted: async (attempt) => {
    const id = newRowId();
    await writer.open({
      id,
      stateName: attempt.state,
      stepType: attempt.kind === "agent" ? "agent" : "step",
      attempt: attempt.attempt,
      path: attempt.path,
      provider: attempt.provider,
      sandboxLevel,
    });
    return { id };
  },
  attemptFinished: ({ id }, end) =>
    writer.close({
      id,
      status: end.status,
      exitCode: end.exitCode,
      stdout: end.stdout,
      stderr: end.stderr,
      output: end.output ?? end.stdout,
      inputTokens: end.tokensInput,
      outputTokens: end.tokensOutput,
      costUsd: end.costUsd,
      agentSessionId: end.sessionId,
      errorCode: end.error?.code,
      errorMessage: end.error?.message,
    }),
});
