/**
 * The engine's step recorder in the worker: every attempt of a step or agent the engine
 * starts is a StepRun row, opened as it starts and closed as it ends, with the attempt
 * number and path the engine gives it and the output as the engine scrubbed it. Both go
 * through the run's writer (with the events pending then, in one statement each). A row
 * whose end cannot be stored is still closed, as failed (EXECUTION.OUTPUT_NOT_STORED), and
 * the attempt fails with that error. A resumed run is given the attempts that had ended
 * before (finishedAttemptsOf): the engine takes their recorded ends instead of running
 * them again, so a worker stopped between an attempt's end and the checkpoint past it
 * never makes a step succeed twice.
 */
import type { ErrorCode } from "@switchyard/core/errors";
import type {
  AttemptFinished,
  AttemptStarted,
  ConversationState,
  StepRecorder,
} from "@switchyard/core/workflow";
import { newRowId, type finishedAttemptsOf } from "@switchyard/db";
import type { RunWriter } from "./run-writer";

type FinishedAttempt = Awaited<ReturnType<typeof finishedAttemptsOf>>[number];

/** JSON with every object's keys sorted: jsonb gives a stored path's keys back in its own order. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
const placeOf = (state: string, attempt: number, path: unknown) =>
  `${attempt} ${state} ${canonical(path)}`;

const endOf = (row: FinishedAttempt): AttemptFinished => ({
  status: row.status === "succeeded" ? "succeeded" : "failed",
  exitCode: row.exitCode,
  stdout: row.stdout,
  stderr: row.stderr,
  output: row.output,
  ...(row.inputTokens === null ? {} : { tokensInput: row.inputTokens }),
  ...(row.outputTokens === null ? {} : { tokensOutput: row.outputTokens }),
  ...(row.costUsd === null ? {} : { costUsd: Number(row.costUsd) }),
  ...(row.agentSessionId === null ? {} : { sessionId: row.agentSessionId }),
  ...(row.conversation === null
    ? {}
    : { conversation: row.conversation as unknown as ConversationState }),
  ...(row.errorCode === null
    ? {}
    : { error: { code: row.errorCode as ErrorCode, message: row.errorMessage ?? "" } }),
});

/**
 * Attempts that wait with their run (suspended on a person's answer): `suspend` marks one,
 * and the attempt that resumes it at the same place continues its row (`resume`), so a
 * step's attempt stays one row however many times it waited.
 */
export type WaitingAttempts = {
  waiting: { id: string; stateName: string; attempt: number; path: unknown }[];
  suspend: (stepRunId: string) => Promise<void>;
  resume: (stepRunId: string) => Promise<void>;
};

export const stepRunRecorder = (
  writer: RunWriter,
  sandboxLevel: string,
  finished: FinishedAttempt[] = [],
  waits?: WaitingAttempts,
): StepRecorder => {
  const ends = new Map(finished.map((row) => [placeOf(row.stateName, row.attempt, row.path), row]));
  const waiting = new Map(
    (waits?.waiting ?? []).map((row) => [placeOf(row.stateName, row.attempt, row.path), row.id]),
  );
  // An agent attempt's step key, for a conversation's end to take its kept session along.
  const stepKeys = new Map<string, string>();
  const earlier = (attempt: AttemptStarted) => {
    const place = placeOf(attempt.state, attempt.attempt, attempt.path);
    const row = ends.get(place);
    if (!row) return undefined;
    ends.delete(place);
    return endOf(row);
  };
  return {
    ...(ends.size === 0 ? {} : { earlier }),
    ...(waits ? { attemptSuspended: ({ id }: { id: string }) => waits.suspend(id) } : {}),
    attemptStarted: async (attempt) => {
      const place = placeOf(attempt.state, attempt.attempt, attempt.path);
      const continued = waiting.get(place);
      if (continued && waits) {
        waiting.delete(place);
        await waits.resume(continued);
        if (attempt.kind === "agent") stepKeys.set(continued, attempt.path.key);
        return { id: continued };
      }
      const id = newRowId();
      if (attempt.kind === "agent") stepKeys.set(id, attempt.path.key);
      await writer.open({
        id,
        stateName: attempt.state,
        stepType:
          attempt.kind === "agent" ? "agent" : attempt.kind === "operation" ? "operation" : "step",
        attempt: attempt.attempt,
        path: attempt.path,
        provider: attempt.provider,
        // An operation runs in the worker's own network code, not in a step sandbox.
        sandboxLevel: attempt.kind === "operation" ? undefined : sandboxLevel,
      });
      return { id };
    },
    attemptFinished: ({ id }, end) => {
      const stepKey = stepKeys.get(id);
      stepKeys.delete(id);
      return writer.close({
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
        agentVersion: end.agentVersion,
        conversation: end.conversation,
        errorCode: end.error?.code,
        errorMessage: end.error?.message,
        // A conversation's end (it says how it stopped) ends the session it kept between turns.
        ...(end.conversation?.stopped_by !== undefined && stepKey !== undefined
          ? { endsSessionsOf: stepKey }
          : {}),
      });
    },
  };
};
