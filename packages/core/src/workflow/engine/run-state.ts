/**
 * Executes one non-terminal state for the engine and records its result: steps and agents
 * with hooks, timeout and retry; parallel branches up to max_concurrent under their
 * strategy; for_each and while loops; call_workflow through the resolver. Each keeps its
 * position in a checkpoint cursor so a resumed run skips what already finished.
 */
import { isRunParked } from "../../governance/waits";
import { AppError, isAppError } from "../../errors/app-error";
import type { StateResult } from "../model/engine-ports";
import { runAgentStep, runHooks, runShellStep } from "./execute-action";
import { runLoop } from "./run-loop";
import { runOperationStep } from "./run-operation";
import { runParallel } from "./run-parallel";
import type { LoopFrame } from "./run-scope";
import { retryDelay, shouldRetry } from "./retry-delay";
import { parseDuration, timeoutOrNone } from "../parse/parse-duration";
import { emptyResult, type RunStateFn, type StateRun } from "./state-run";
import { renderTemplate } from "../expression/template";
import type { CallWorkflowState, ExecutableState } from "../model/workflow-types";

const withTimeout = (signal: AbortSignal, ms: number | undefined) =>
  ms === undefined || ms <= 0 ? signal : AbortSignal.any([signal, AbortSignal.timeout(ms)]);

const callWorkflow = async (
  run: StateRun,
  state: CallWorkflowState,
  key: string,
  signal: AbortSignal,
  loop?: LoopFrame,
): Promise<StateResult> => {
  const stack = [...(run.deps.callStack ?? []), run.workflow.name];
  if (stack.includes(state.workflow)) {
    throw new AppError(
      "WORKFLOW.VALIDATION.CYCLE_DETECTED",
      `call_workflow cycle: ${[...stack, state.workflow].join(" -> ")}`,
    );
  }
  if (stack.length >= 10)
    throw new AppError(
      "EXECUTION.CALL_DEPTH_EXCEEDED",
      `call_workflow nesting deeper than 10 (${stack.join(" -> ")})`,
    );
  const child = await run.deps.resolver?.resolve(state.workflow, { file: run.workflow.file });
  if (!child)
    throw new AppError(
      "WORKFLOW.VALIDATION.UNDEFINED_SUBWORKFLOW",
      `sub-workflow "${state.workflow}" was not found`,
    );
  const inputs: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(state.inputs)) inputs[k] = renderTemplate(v, run.scope(loop));
  const cursor = run.cp.cursors[key];
  const outcome = await run.runWorkflow(child, {
    ...run.deps,
    // The child reads its own bundle's files (script_file, prompt_file), not the caller's.
    files: run.deps.resolver?.filesOf?.(child) ?? run.deps.files,
    signal: withTimeout(signal, state.timeoutMs),
    inputs,
    runId: `${run.cp.runId}/${state.name}`,
    callStack: stack,
    calledFrom: run.pathOf(key, loop),
    checkpoint: cursor?.kind === "call" ? cursor.child : undefined,
    events: run.deps.events,
    store: {
      save: async (childCp) => {
        run.cp.cursors[key] = { kind: "call", child: childCp };
        await run.save();
      },
    },
  });
  for (const [parentVar, childOutput] of Object.entries(state.outputs)) {
    run.cp.context[parentVar] = outcome.outputs[childOutput] ?? outcome.outputs[parentVar];
  }
  const ok = outcome.status === "succeeded";
  const output = JSON.stringify(outcome.outputs);
  return {
    ...emptyResult(
      outcome.status === "cancelled" && !signal.aborted
        ? "failure"
        : ok
          ? "success"
          : outcome.status === "cancelled"
            ? "cancelled"
            : "failure",
      outcome.errorMessage,
      output,
    ),
    response: outcome.outputs,
  };
};

const resolveTimeout = (
  run: StateRun,
  state: ExecutableState,
  loop?: LoopFrame,
): ExecutableState => {
  if (state.timeoutTemplate === undefined) return state;
  const text = renderTemplate(state.timeoutTemplate, run.scope(loop));
  const timeoutMs = parseDuration(text.trim());
  if (timeoutMs === undefined)
    throw new AppError(
      "EXECUTION.INVALID_TIMEOUT",
      `timeout of "${state.name}" resolved to "${text}", not a duration`,
    );
  return { ...state, timeoutMs: timeoutOrNone(timeoutMs) };
};

const runAction = async (
  run: StateRun,
  original: ExecutableState,
  key: string,
  signal: AbortSignal,
  loop?: LoopFrame,
): Promise<StateResult> => {
  const state = resolveTimeout(run, original, loop);
  switch (state.kind) {
    case "parallel":
      return runParallel(run, state, key, signal, loop);
    case "for_each":
    case "while":
      return runLoop(run, state, key, signal, loop);
    case "call_workflow":
      return callWorkflow(run, state, key, signal, loop);
    case "step":
    case "agent":
    case "operation": {
      const cursor = run.cp.cursors[`${key}#attempt`];
      let attempt = cursor?.kind === "attempt" ? cursor.attempt : 1;
      const path = run.pathOf(key, loop);
      for (;;) {
        const scope = run.scope(loop);
        // A chat whose executor bounds each turn itself is not bounded as a whole.
        const untimed =
          state.kind === "step" ||
          (state.kind === "agent" &&
            state.mode === "conversation" &&
            run.deps.agents?.timesChatTurns === true);
        const attemptSignal = untimed ? signal : withTimeout(signal, state.timeoutMs);
        const at = { attempt, path };
        const result =
          state.kind === "step"
            ? await runShellStep(run.actions, state, scope, attemptSignal, at)
            : state.kind === "agent"
              ? await runAgentStep(run.actions, state, scope, attemptSignal, at, run.cp.results)
              : await runOperationStep(run.actions, state, scope, attemptSignal, at, {
                  name: run.workflow.name,
                  durationMs: Math.max(0, run.clock.now() - run.cp.startedAt),
                  outputs: Object.fromEntries(
                    Object.entries(run.cp.results).map(([n, r]) => [n, r.output]),
                  ),
                  status: Object.values(run.cp.results).some((r) => r.status === "failure")
                    ? "failure"
                    : "success",
                });
        if (
          result.status !== "failure" ||
          signal.aborted ||
          !shouldRetry(state.retry, attempt, result.exitCode)
        )
          return result;
        const delayMs = retryDelay(state.retry!, attempt, run.deps.random);
        run.actions.events({
          type: "step.retry",
          state: state.name,
          attempt,
          delayMs,
          exitCode: result.exitCode,
        });
        attempt++;
        run.cp.cursors[`${key}#attempt`] = { kind: "attempt", attempt };
        await run.save();
        await run.clock.sleep(delayMs, signal);
      }
    }
    default: {
      const never: never = state;
      return never;
    }
  }
};

/** Runs a state once (with its retries), records the result and capture, and saves. */
export const runState: RunStateFn = async (run, state, key, signal, loop, onRecorded) => {
  run.actions.events({ type: "state.started", state: state.name, kind: state.kind });
  const at = { state: state.name, path: run.pathOf(key, loop) };
  let result: StateResult;
  try {
    await runHooks(run.actions, state.hooks.pre, "pre", run.scope(loop), signal, at);
    result = await runAction(run, state, key, signal, loop);
  } catch (error) {
    // Parked on a person's answer: neither a result nor a failure; the run stops here and
    // resumes this state from the checkpoint once the answer comes.
    if (isRunParked(error)) throw error;
    if (signal.aborted) return emptyResult("cancelled");
    if (isAppError(error) && error.code.startsWith("SYSTEM.")) throw error;
    // A process that could not start (a missing `dir`, say) fails the state, not the engine.
    const text = isAppError(error)
      ? `${error.code}: ${error.message}`
      : `EXECUTION.STEP_ERROR: ${error instanceof Error ? error.message : String(error)}`;
    result = emptyResult("failure", run.scrubber.scrub(text));
  }
  if (result.status === "cancelled" || signal.aborted) return { ...result, status: "cancelled" };
  run.cp.results[state.name] = result;
  if (state.capture?.stdout) run.cp.context[state.capture.stdout] = result.output;
  if (state.capture?.stderr) run.cp.context[state.capture.stderr] = result.stderr;
  onRecorded?.(result);
  await runHooks(run.actions, state.hooks.post, "post", run.scope(loop), signal, at);
  run.actions.events({
    type: "state.finished",
    state: state.name,
    status: result.status,
    exitCode: result.exitCode,
    attempts: result.attempts,
  });
  await run.save();
  return result;
};
