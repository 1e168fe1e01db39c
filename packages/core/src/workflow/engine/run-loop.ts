/**
 * for_each and while loops: each iteration runs the body states in order (their own
 * transitions are ignored, as for parallel branches), with `loop.*` bound for templates,
 * bounded by max_iterations (at most 10000), ending early when break_when holds. The
 * iteration and body position live in the checkpoint.
 */
import { AppError } from "../../errors/app-error";
import type { StateResult } from "../model/engine-ports";
import { parseExpression } from "../expression/expression";
import { evaluate, truthy } from "../expression/evaluate-expression";
import type { LoopFrame } from "./run-scope";
import { emptyResult, type StateRun } from "./state-run";
import { evaluateSingle } from "../expression/template";
import type { ForEachState, WhileState } from "../model/workflow-types";

const MAX = 10_000;

const resolveItems = (run: StateRun, state: ForEachState, loop?: LoopFrame): unknown[] => {
  const value = evaluateSingle(state.items, run.scope(loop));
  if (Array.isArray(value)) return value as unknown[];
  const text = typeof value === "string" ? value.trim() : JSON.stringify(value ?? "");
  if (text === "") return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    if (Array.isArray(parsed)) return parsed as unknown[];
  } catch {
    // not JSON: fall through to a comma or line separated list
  }
  return text
    .split(text.includes("\n") ? /\r?\n/ : ",")
    .map((s) => s.trim())
    .filter(Boolean);
};

const resolveMax = (run: StateRun, state: ForEachState | WhileState, loop?: LoopFrame): number => {
  const raw =
    typeof state.maxIterations === "number"
      ? state.maxIterations
      : Number(evaluateSingle(state.maxIterations, run.scope(loop)));
  if (!Number.isInteger(raw) || raw < 1 || raw > MAX) {
    throw new AppError(
      "EXECUTION.INVALID_LOOP_BOUND",
      `max_iterations of "${state.name}" must be an integer in 1..${MAX}, got ${String(raw)}`,
    );
  }
  return raw;
};

export const runLoop = async (
  run: StateRun,
  state: ForEachState | WhileState,
  key: string,
  signal: AbortSignal,
  parent?: LoopFrame,
): Promise<StateResult> => {
  const existing = run.cp.cursors[key];
  const cursor =
    existing?.kind === "loop"
      ? existing
      : {
          kind: "loop" as const,
          index: 0,
          body: 0,
          items: state.kind === "for_each" ? resolveItems(run, state, parent) : undefined,
          max: resolveMax(run, state, parent),
        };
  run.cp.cursors[key] = cursor;
  const length = cursor.items ? cursor.items.length : -1;
  const condition = state.kind === "while" ? parseExpression(state.condition) : undefined;
  const breakWhen = state.breakWhen === undefined ? undefined : parseExpression(state.breakWhen);

  for (;;) {
    if (signal.aborted) return emptyResult("cancelled");
    if (cursor.stopped || (cursor.items && cursor.index >= cursor.items.length)) break;
    const frame: LoopFrame = {
      item: cursor.items?.[cursor.index],
      index: cursor.index,
      length,
      parent,
    };
    if (cursor.body === 0) {
      if (cursor.index >= cursor.max) {
        if (state.kind === "while") {
          return emptyResult(
            "failure",
            `while loop "${state.name}" reached max_iterations (${cursor.max})`,
            String(cursor.index),
          );
        }
        break;
      }
      if (condition && !truthy(evaluate(condition, run.scope(frame)))) break;
    }
    while (cursor.body < state.body.length) {
      const name = state.body[cursor.body]!;
      const child = run.workflow.states.get(name);
      if (!child || child.kind === "terminal")
        throw new AppError(
          "WORKFLOW.VALIDATION.MISSING_STATE",
          `loop body state "${name}" is not executable`,
        );
      const result = await run.runState(
        run,
        child,
        `${key}/${cursor.index}/${name}`,
        signal,
        frame,
        (r) => {
          if (r.status === "failure" && !child.continueOnError) return;
          for (const k of Object.keys(run.cp.cursors))
            if (k.startsWith(`${key}/${cursor.index}/`)) delete run.cp.cursors[k];
          cursor.body++;
        },
      );
      if (result.status === "cancelled") return emptyResult("cancelled");
      if (result.status === "failure" && !child.continueOnError) {
        return emptyResult(
          "failure",
          `iteration ${cursor.index} of "${state.name}": state "${name}" failed`,
          String(cursor.index),
        );
      }
    }
    const stop = breakWhen !== undefined && truthy(evaluate(breakWhen, run.scope(frame)));
    cursor.index++;
    cursor.body = 0;
    if (stop) cursor.stopped = true;
    await run.save();
    if (stop) break;
  }
  return {
    ...emptyResult("success", undefined, String(cursor.index)),
    response: { iterations: cursor.index },
  };
};
