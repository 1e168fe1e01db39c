/**
 * The path of a state's attempts (engine-ports.ts, StepPath): its key and loop iterations
 * in its workflow, below the call_workflow states that led there. Built from what the
 * engine already keeps, so a resumed run gives every attempt the path it had before.
 */
import type { StepPath } from "../model/engine-ports";
import type { LoopFrame } from "./run-scope";

const iterations = (frame: LoopFrame | undefined): number[] =>
  frame ? [...iterations(frame.parent), frame.index] : [];

export const stepPath = (
  workflow: string,
  key: string,
  loop: LoopFrame | undefined,
  calledFrom: StepPath | undefined,
): StepPath => ({
  workflow,
  key,
  loop: iterations(loop),
  calls: calledFrom
    ? [
        ...calledFrom.calls,
        { workflow: calledFrom.workflow, key: calledFrom.key, loop: calledFrom.loop },
      ]
    : [],
});
