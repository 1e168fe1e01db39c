export { parseWorkflow } from "./parse-workflow";
export type { ParseResult } from "./parse-workflow";
export { runWorkflow } from "./run-workflow";
export type { RunOutcome, RunWorkflowDeps, StepOutcome } from "./run-workflow";
export type { State, StepState, TerminalState, Workflow } from "./workflow-types";
