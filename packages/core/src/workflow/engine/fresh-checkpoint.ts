/**
 * The checkpoint a run starts from when there is none to resume: no results, no cursors,
 * its inputs already resolved.
 */
import type { Checkpoint } from "../model/engine-ports";
import type { Workflow } from "../model/workflow-types";

export const freshCheckpoint = (
  workflow: Workflow,
  runId: string,
  inputs: Record<string, unknown>,
  now: number,
): Checkpoint => ({
  version: 1,
  runId,
  workflow: workflow.name,
  startedAt: now,
  inputs,
  context: {},
  results: {},
  cursors: {},
  transitions: 0,
  visits: {},
  startHooksDone: false,
});
