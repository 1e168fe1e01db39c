/**
 * A parallel state: its branches run concurrently, at most `max_concurrent` at a time.
 * all_succeed cancels the rest on the first failure; any_succeed succeeds if one branch
 * did; best_effort runs every branch and succeeds. A branch that throws (an engine or
 * infrastructure error) stops every other branch, under any strategy, and the error is
 * raised only once all of them have ended: nothing of a run may still run when the run
 * ends, since its folder and step uid are then cleaned up and handed on. Finished branches
 * are kept in the checkpoint, so a resumed run starts only the branches that had not
 * finished.
 */
import type { StateResult } from "../model/engine-ports";
import type { LoopFrame } from "./run-scope";
import { emptyResult, type StateRun } from "./state-run";
import type { ParallelState } from "../model/workflow-types";

export const runParallel = async (
  run: StateRun,
  state: ParallelState,
  key: string,
  signal: AbortSignal,
  loop?: LoopFrame,
): Promise<StateResult> => {
  const existing = run.cp.cursors[key];
  const done: Record<string, boolean> = existing?.kind === "parallel" ? existing.done : {};
  run.cp.cursors[key] = { kind: "parallel", done };
  const stopRest = new AbortController();
  const branchSignal = AbortSignal.any([signal, stopRest.signal]);
  const pending = state.branches.filter((b) => done[b] === undefined);
  const limit = state.maxConcurrent ?? pending.length;

  let thrown: { error: unknown } | undefined;

  const runBranch = async (name: string) => {
    const branch = run.workflow.states.get(name);
    if (!branch || branch.kind === "terminal") {
      done[name] = false;
      return;
    }
    let result: StateResult;
    try {
      result = await run.runState(run, branch, `${key}/${name}`, branchSignal, loop, (r) => {
        done[name] = r.status === "success" || branch.continueOnError;
      });
    } catch (error) {
      thrown ??= { error };
      stopRest.abort();
      return;
    }
    if (result.status === "cancelled") return;
    if (!done[name] && state.strategy === "all_succeed") stopRest.abort();
  };

  let next = 0;
  const lane = async () => {
    while (next < pending.length && !branchSignal.aborted) await runBranch(pending[next++]!);
  };
  // Lanes never reject (runBranch catches), so this waits for every branch to end.
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, pending.length)) }, lane));
  if (thrown) throw thrown.error;
  if (signal.aborted) return emptyResult("cancelled");

  const outcomes = state.branches.map((b) => done[b]);
  const succeeded = outcomes.filter((o) => o === true).length;
  const failed = state.branches.filter((b) => done[b] !== true);
  let ok: boolean;
  switch (state.strategy) {
    case "all_succeed":
      ok = failed.length === 0;
      break;
    case "any_succeed":
      ok = succeeded > 0;
      break;
    case "best_effort":
      ok = true;
      break;
    default: {
      const never: never = state.strategy;
      return never;
    }
  }
  const summary = Object.fromEntries(
    state.branches.map((b) => [b, run.cp.results[b]?.status ?? "cancelled"]),
  );
  return {
    ...emptyResult(
      ok ? "success" : "failure",
      ok
        ? undefined
        : `${failed.length} of ${state.branches.length} branches failed (${state.strategy}): ${failed.join(", ")}`,
      JSON.stringify(summary),
    ),
    response: summary,
  };
};
