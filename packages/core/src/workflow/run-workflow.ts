/**
 * The run engine's state machine: from `initial`, execute each state through the
 * injected executor and follow its transitions until a terminal state. It knows nothing
 * of processes, databases or queues.
 */
import { AppError } from "../errors/app-error";
import type { StepState, Workflow } from "./workflow-types";

export type StepOutcome = {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut?: boolean;
};

export type RunOutcome = {
  status: "succeeded" | "failed" | "cancelled";
  finalState?: string;
  errorCode?: string;
  errorMessage?: string;
};

export type RunWorkflowDeps = {
  executeStep: (state: StepState, signal: AbortSignal) => Promise<StepOutcome>;
  signal: AbortSignal;
  /** Bound on state transitions, so a cyclic workflow cannot run forever. */
  maxTransitions?: number;
};

export const runWorkflow = async (workflow: Workflow, deps: RunWorkflowDeps): Promise<RunOutcome> => {
  const max = deps.maxTransitions ?? 10_000;
  let current = workflow.initial;
  for (let transitions = 0; transitions < max; transitions++) {
    if (deps.signal.aborted) {
      return { status: "cancelled", finalState: current, errorCode: "EXECUTION.CANCELLED", errorMessage: "run cancelled" };
    }
    const state = workflow.states.get(current);
    if (!state) {
      return { status: "failed", finalState: current, errorCode: "WORKFLOW.VALIDATION_FAILED", errorMessage: `state "${current}" does not exist` };
    }
    switch (state.kind) {
      case "terminal":
        return state.status === "success"
          ? { status: "succeeded", finalState: state.name }
          : { status: "failed", finalState: state.name, errorCode: "EXECUTION.TERMINAL_FAILURE", errorMessage: state.message ?? `reached terminal state "${state.name}"` };
      case "step": {
        const outcome = await deps.executeStep(state, deps.signal);
        if (deps.signal.aborted) {
          return { status: "cancelled", finalState: state.name, errorCode: "EXECUTION.CANCELLED", errorMessage: "run cancelled" };
        }
        const ok = outcome.exitCode === 0 && !outcome.timedOut;
        const next = ok || state.continueOnError ? state.onSuccess : state.onFailure;
        if (!next) {
          if (ok) return { status: "succeeded", finalState: state.name };
          return {
            status: "failed",
            finalState: state.name,
            errorCode: outcome.timedOut ? "EXECUTION.TIMEOUT" : "EXECUTION.COMMAND_FAILED",
            errorMessage: outcome.timedOut
              ? `step "${state.name}" timed out`
              : `step "${state.name}" exited with code ${outcome.exitCode}`,
          };
        }
        current = next;
        break;
      }
      default: {
        const exhaustive: never = state;
        throw new AppError("SYSTEM.INTERNAL", `unhandled state ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return { status: "failed", finalState: current, errorCode: "EXECUTION.INFINITE_LOOP_GUARD", errorMessage: `more than ${max} transitions` };
};
