/**
 * What every kind of state runs with: the run's workflow, ports, checkpoint and scope, and
 * the engine's own entry points. Loops and parallel branches run their body states, and
 * call_workflow runs a child workflow, through `runState` and `runWorkflow` given here, so
 * that the engine's modules recurse into each other without importing each other.
 */
import type { Scrubber } from "../../secrets/scrubber";
import type {
  Checkpoint,
  Clock,
  RunOutcome,
  RunWorkflowDeps,
  StateResult,
  StepPath,
} from "../model/engine-ports";
import type { EvalEnv } from "../expression/evaluate-expression";
import type { ActionDeps } from "./execute-action";
import type { LoopFrame, RunError } from "./run-scope";
import type { ExecutableState, Workflow } from "../model/workflow-types";

/** Runs a state once (with its retries), records the result and capture, and saves. */
export type RunStateFn = (
  run: StateRun,
  state: ExecutableState,
  key: string,
  signal: AbortSignal,
  loop?: LoopFrame,
  /** Runs synchronously once the result is recorded, before it is saved: the caller moves its cursor here. */
  onRecorded?: (result: StateResult) => void,
) => Promise<StateResult>;

export type StateRun = {
  workflow: Workflow;
  deps: RunWorkflowDeps;
  cp: Checkpoint;
  clock: Clock;
  actions: ActionDeps;
  scrubber: Scrubber;
  scope: (loop?: LoopFrame, error?: RunError) => EvalEnv;
  /** The path of the state at `key` (step-path.ts). */
  pathOf: (key: string, loop?: LoopFrame) => StepPath;
  save: () => Promise<void>;
  /** Runs a nested state: a loop body's or a parallel branch's (run-state.ts). */
  runState: RunStateFn;
  /** Runs a called workflow (run-workflow.ts). */
  runWorkflow: (workflow: Workflow, deps: RunWorkflowDeps) => Promise<RunOutcome>;
};

export const emptyResult = (
  status: StateResult["status"],
  error?: string,
  output = "",
): StateResult => ({
  status,
  output,
  stdout: output,
  stderr: "",
  exitCode: status === "success" ? 0 : 1,
  attempts: 1,
  error,
});
