/**
 * The run engine: walks a parsed workflow from `initial` (or from a checkpoint) through
 * steps, agents, parallel branches, loops and sub-workflows, following transitions until a
 * terminal. Every process, agent, file, variable and clock comes through a port
 * (engine-ports.ts); progress is saved as a serialisable checkpoint at every transition,
 * and an engine given that checkpoint continues exactly where the last one stopped.
 */
import { AppError, isAppError } from "../../errors/app-error";
import { isRunParked } from "../../governance/waits";
import type { Checkpoint, RunOutcome, RunWorkflowDeps, StateResult } from "../model/engine-ports";
import { freshCheckpoint } from "./fresh-checkpoint";
import { realClock } from "./real-clock";
import { parseExpression } from "../expression/expression";
import { evaluate, truthy } from "../expression/evaluate-expression";
import { runHooks, type ActionDeps } from "./execute-action";
import { resolveInputs } from "./resolve-inputs";
import { resolveRunEnv } from "./resolve-run-env";
import { runState } from "./run-state";
import { scopeEnv, type LoopFrame, type RunError } from "./run-scope";
import type { StateRun } from "./state-run";
import { stepPath } from "./step-path";
import { renderTemplate } from "../expression/template";
import type { TerminalState, Workflow } from "../model/workflow-types";

export type { RunOutcome, RunWorkflowDeps } from "../model/engine-ports";

type ChainEnd =
  | { kind: "terminal"; state: TerminalState }
  | {
      kind: "end";
      state: string;
      ok: boolean;
      error?: RunError;
      timedOut?: boolean;
      exitCode?: number | null;
    }
  | { kind: "inline"; state: string; message: string; status: number }
  | { kind: "cancelled"; state?: string }
  | { kind: "guard"; state: string };

export const runWorkflow = async (
  workflow: Workflow,
  deps: RunWorkflowDeps,
): Promise<RunOutcome> => {
  const clock = deps.clock ?? realClock;
  const now = () => clock.now();
  const scrubber = deps.scrubber;
  const events = (e: Parameters<NonNullable<RunWorkflowDeps["events"]>>[0]) => deps.events?.(e);
  const resumed = deps.checkpoint !== undefined;
  if (
    deps.checkpoint &&
    (deps.checkpoint.version !== 1 || deps.checkpoint.workflow !== workflow.name)
  ) {
    throw new AppError(
      "SYSTEM.CHECKPOINT_MISMATCH",
      `the checkpoint belongs to workflow "${deps.checkpoint.workflow}", not "${workflow.name}"`,
    );
  }
  const inputs = resumed
    ? { values: {}, errors: [] }
    : await resolveInputs(workflow.inputs, deps.inputs ?? {});
  const cp: Checkpoint = deps.checkpoint
    ? (JSON.parse(JSON.stringify(deps.checkpoint)) as Checkpoint)
    : freshCheckpoint(workflow, deps.runId ?? crypto.randomUUID(), inputs.values, clock.now());
  const files = deps.files;
  const readFile = (p: string) => files?.read(p);

  const env = await resolveRunEnv(workflow, deps.variables, scrubber, (values) =>
    scopeEnv({ checkpoint: cp, workflowName: workflow.name, env: values, now, readFile }),
  );
  const actions: ActionDeps = {
    runProcess: deps.runProcess,
    agents: deps.agents,
    operations: deps.operations,
    // A checkpoint from before visits were counted cannot tell a cycle's visits apart, so
    // earlier ends are not taken on its resume (an ended attempt may then run again).
    recorder:
      deps.checkpoint && deps.checkpoint.visits === undefined && deps.recorder
        ? { ...deps.recorder, earlier: undefined }
        : deps.recorder,
    files,
    ...(deps.skills ? { skills: deps.skills } : {}),
    events,
    scrubber,
    env: Object.fromEntries(workflow.env.map((e) => [e.name, env[e.name] ?? ""])),
    outputCap: deps.outputCap ?? 1024 * 1024,
  };
  const scope = (loop?: LoopFrame, error?: RunError) =>
    scopeEnv({ checkpoint: cp, workflowName: workflow.name, env, now, readFile, loop, error });
  const pathOf = (key: string, loop?: LoopFrame) =>
    stepPath(workflow.name, key, loop, deps.calledFrom);
  const save = async () => deps.store?.save(JSON.parse(JSON.stringify(cp)) as Checkpoint);
  const maxTransitions = deps.maxTransitions ?? 10_000;

  const run: StateRun = {
    workflow,
    deps,
    cp,
    clock,
    actions,
    scope,
    pathOf,
    save,
    scrubber,
    runState,
    runWorkflow,
  };

  const chain = async (
    key: string,
    start: string,
    signal: AbortSignal,
    loop?: LoopFrame,
  ): Promise<ChainEnd> => {
    const cursor = cp.cursors[key];
    const visits = (cp.visits ??= {});
    let current = cursor?.kind === "chain" ? cursor.at : start;
    // A chain key runs once in a run, so its start is always a first visit.
    let visit = cursor?.kind === "chain" ? (cursor.visit ?? 1) : (visits[`${key}/${start}`] = 1);
    for (;;) {
      if (signal.aborted) return { kind: "cancelled", state: current };
      if (++cp.transitions > maxTransitions) return { kind: "guard", state: current };
      const state = workflow.states.get(current);
      if (!state)
        throw new AppError(
          "WORKFLOW.VALIDATION.MISSING_STATE",
          `state "${current}" does not exist`,
        );
      if (state.kind === "terminal") return { kind: "terminal", state };
      const base = visit === 1 ? `${key}/${current}` : `${key}/${current}@${visit}`;
      let next: string | undefined;
      let nextVisit = 1;
      let inline: { message: string; status: number } | undefined;
      // Decided as soon as the result is recorded, so the checkpoint that stores the result
      // also stores where the chain goes next: a resumed run never repeats a finished state.
      const decide = (result: StateResult) => {
        const ok = result.status === "success";
        if (!ok)
          cp.lastError = {
            type: result.timedOut ? "EXECUTION.TIMEOUT" : "EXECUTION.COMMAND_FAILED",
            message: result.error ?? "",
            state: current,
          };
        next = state.transitions.find(
          (t) => t.when === undefined || truthy(evaluate(parseExpression(t.when), scope(loop))),
        )?.goto;
        if (next === undefined) {
          const onSuccess =
            state.kind === "for_each" || state.kind === "while"
              ? (state.onComplete ?? state.onSuccess)
              : state.onSuccess;
          if (ok || state.continueOnError) next = onSuccess;
          else if (typeof state.onFailure === "object") {
            inline = {
              message: scrubber.scrub(
                renderTemplate(state.onFailure.message, scope(loop, cp.lastError)),
              ),
              status: state.onFailure.status,
            };
          } else next = state.onFailure;
        }
        for (const k of Object.keys(cp.cursors))
          if (k === base || k.startsWith(`${base}/`) || k.startsWith(`${base}#`))
            delete cp.cursors[k];
        for (const k of Object.keys(visits)) if (k.startsWith(`${base}/`)) delete visits[k];
        if (next !== undefined && inline === undefined) {
          // Counted when the transition is decided, and saved with the cursor that takes it.
          nextVisit = visits[`${key}/${next}`] = (visits[`${key}/${next}`] ?? 0) + 1;
          cp.cursors[key] = { kind: "chain", at: next, visit: nextVisit };
        }
      };
      const result = await runState(run, state, base, signal, loop, decide);
      if (result.status === "cancelled" || signal.aborted)
        return { kind: "cancelled", state: current };
      if (inline) return { kind: "inline", state: current, ...inline };
      if (next === undefined) {
        const ok = result.status === "success" || state.continueOnError;
        return {
          kind: "end",
          state: current,
          ok,
          timedOut: result.timedOut,
          exitCode: result.exitCode,
          error: { type: "", message: result.error ?? "", state: current },
        };
      }
      current = next;
      visit = nextVisit;
    }
  };

  const outputsOf = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const o of workflow.outputs) {
      try {
        out[o.name] = evaluate(parseExpression(o.from.replace(/^\{\{|\}\}$/g, "")), scope());
      } catch {
        out[o.name] = undefined;
      }
    }
    return out;
  };

  const finish = async (
    outcome: Omit<RunOutcome, "outputs" | "checkpoint">,
  ): Promise<RunOutcome> => {
    const error: RunError | undefined = outcome.errorCode
      ? { type: outcome.errorCode, message: outcome.errorMessage ?? "", state: outcome.finalState }
      : undefined;
    const hookSignal = new AbortController().signal;
    const hooks =
      outcome.status === "succeeded"
        ? workflow.hooks.workflowEnd
        : outcome.status === "cancelled"
          ? workflow.hooks.workflowCancel
          : workflow.hooks.workflowError;
    const label =
      outcome.status === "succeeded"
        ? "workflow_end"
        : outcome.status === "cancelled"
          ? "workflow_cancel"
          : "workflow_error";
    await runHooks(actions, hooks, label, scope(undefined, error), hookSignal, {
      path: pathOf(""),
    });
    const errorMessage =
      outcome.errorMessage === undefined ? undefined : scrubber.scrub(outcome.errorMessage);
    events({
      type: "run.finished",
      status: outcome.status,
      errorCode: outcome.errorCode,
      errorMessage,
    });
    return {
      ...outcome,
      errorMessage,
      outputs: outputsOf(),
      checkpoint: JSON.parse(JSON.stringify(cp)) as Checkpoint,
    };
  };

  events({
    type: resumed ? "run.resumed" : "run.started",
    workflow: workflow.name,
    runId: cp.runId,
  });
  if (inputs.errors.length > 0) {
    return finish({
      status: "failed",
      // A pattern that ran out of its budget is named as such, not as a mismatch.
      errorCode:
        inputs.errors.find((e) => e.code !== "USER.INPUT.VALIDATION_FAILED")?.code ??
        "USER.INPUT.VALIDATION_FAILED",
      errorMessage: inputs.errors.map((e) => e.message).join("; "),
    });
  }
  try {
    if (!cp.startHooksDone) {
      await runHooks(
        actions,
        workflow.hooks.workflowStart,
        "workflow_start",
        scope(),
        deps.signal,
        {
          path: pathOf(""),
        },
      );
      cp.startHooksDone = true;
      // Nothing to keep when the workflow has no start hooks: the first state's save follows.
      if (workflow.hooks.workflowStart.length > 0) await save();
    }
    const end = await chain("", workflow.initial, deps.signal);
    switch (end.kind) {
      case "terminal": {
        const message =
          end.state.message === undefined
            ? undefined
            : renderTemplate(end.state.message, scope(undefined, cp.lastError));
        return end.state.status === "success"
          ? finish({ status: "succeeded", finalState: end.state.name })
          : finish({
              status: "failed",
              finalState: end.state.name,
              exitStatus: end.state.exitStatus,
              errorCode: "EXECUTION.TERMINAL_FAILURE",
              errorMessage: message ?? `reached terminal state "${end.state.name}"`,
            });
      }
      case "end":
        if (end.ok) return finish({ status: "succeeded", finalState: end.state });
        return finish({
          status: "failed",
          finalState: end.state,
          errorCode: end.timedOut ? "EXECUTION.TIMEOUT" : "EXECUTION.COMMAND_FAILED",
          errorMessage: `state "${end.state}" ${end.error?.message || "failed"}`,
        });
      case "inline":
        return finish({
          status: "failed",
          finalState: end.state,
          exitStatus: end.status,
          errorCode: "EXECUTION.STEP_FAILED",
          errorMessage: end.message,
        });
      case "cancelled":
        return finish({
          status: "cancelled",
          finalState: end.state,
          errorCode: "EXECUTION.CANCELLED",
          errorMessage: "run cancelled",
        });
      case "guard":
        return finish({
          status: "failed",
          finalState: end.state,
          errorCode: "EXECUTION.INFINITE_LOOP_GUARD",
          errorMessage: `more than ${maxTransitions} transitions`,
        });
      default: {
        const never: never = end;
        return never;
      }
    }
  } catch (error) {
    // The host's trouble, not the run's (its database out of reach, say): the caller tries
    // the run again from its checkpoint, so no failure hook runs and no outcome is made.
    if (isAppError(error) && error.retryable && error.code.startsWith("SYSTEM.")) throw error;
    // Parked on a person's answer (a wait): no outcome and no hook; the caller parks the run,
    // which resumes from its checkpoint (saved at the last transition) when the answer comes.
    if (isRunParked(error)) throw error;
    if (deps.signal.aborted)
      return finish({
        status: "cancelled",
        errorCode: "EXECUTION.CANCELLED",
        errorMessage: "run cancelled",
      });
    const code = isAppError(error) ? error.code : "SYSTEM.INTERNAL";
    const message = error instanceof Error ? error.message : String(error);
    return finish({ status: "failed", errorCode: code, errorMessage: message });
  }
};
