/**
 * One attempt of a step or agent, between the step recorder's attemptStarted and
 * attemptFinished: the engine records attempts itself, so their numbers and paths are the
 * engine's own, the same after a resume. An attempt that throws (a process that cannot
 * start, a provider that fails) is recorded as failed with its error, which is then raised
 * again; an attempt whose end cannot be recorded fails with the recorder's error. An
 * attempt that had finished before the run was resumed is not run again: its recorded end
 * is taken. An attempt that parks the run (RunParked) is not ended: the recorder marks it
 * suspended and the error goes up through the engine to the run's executor.
 */
import { isAppError } from "../../errors/app-error";
import { isRunParked } from "../../governance/waits";
import type { Scrubber } from "../../secrets/scrubber";
import type {
  AttemptFinished,
  AttemptStarted,
  StateResult,
  StepRecorder,
} from "../model/engine-ports";

type RecordedAttempt = { result: StateResult; record: AttemptFinished };

export const recordedStatus = (status: StateResult["status"]): AttemptFinished["status"] => {
  switch (status) {
    case "success":
      return "succeeded";
    case "failure":
      return "failed";
    case "cancelled":
      return "cancelled";
    default: {
      const never: never = status;
      return never;
    }
  }
};

/** The state result's status of a recorded end. */
export const resultStatus = (status: AttemptFinished["status"]): StateResult["status"] => {
  switch (status) {
    case "succeeded":
      return "success";
    case "failed":
      return "failure";
    case "cancelled":
      return "cancelled";
    default: {
      const never: never = status;
      return never;
    }
  }
};

export const recordAttempt = async (
  deps: { recorder?: StepRecorder; scrubber: Scrubber },
  start: AttemptStarted,
  attempt: (attemptId: string | undefined) => Promise<RecordedAttempt>,
  /** The state's result from an end recorded before a resume (StepRecorder.earlier). */
  adopt: (earlier: AttemptFinished) => StateResult,
): Promise<StateResult> => {
  const { recorder } = deps;
  const earlier = recorder?.earlier?.(start);
  if (earlier) return adopt(earlier);
  const handle = await recorder?.attemptStarted(start);
  let done: RecordedAttempt;
  try {
    done = await attempt(handle?.id);
  } catch (error) {
    // Parked on a person's answer: the attempt has not ended, it waits with the run.
    if (isRunParked(error)) {
      if (recorder && handle) await recorder.attemptSuspended?.(handle, error.waitId);
      throw error;
    }
    if (recorder && handle) {
      const message = error instanceof Error ? error.message : String(error);
      const code = isAppError(error) ? error.code : "EXECUTION.STEP_ERROR";
      // The attempt's own error is the one to raise, whether or not its end was recorded.
      await recorder
        .attemptFinished(handle, {
          status: "failed",
          exitCode: null,
          stdout: "",
          stderr: "",
          error: { code, message: deps.scrubber.scrub(message) },
        })
        .catch(() => undefined);
    }
    throw error;
  }
  if (recorder && handle) await recorder.attemptFinished(handle, done.record);
  return done.result;
};
