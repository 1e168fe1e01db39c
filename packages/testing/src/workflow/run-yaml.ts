/**
 * Parses and runs a workflow text on real local shells, for engine tests.
 */
import { expect } from "vitest";
import { Scrubber } from "@switchyard/core/secrets";
import {
  parseWorkflow,
  runWorkflow,
  type ProcessRequest,
  type RunOutcome,
  type RunWorkflowDeps,
  type Workflow,
} from "@switchyard/core/workflow";
import { localRunner, memoryEventSink } from "./local-runner";

export const parseOk = (source: string, file = "test.yaml"): Workflow => {
  const parsed = parseWorkflow(source, file);
  expect(parsed.errors.map((e) => e.message)).toEqual([]);
  return parsed.workflow!;
};

export const runYaml = async (source: string, deps: Partial<RunWorkflowDeps> = {}) => {
  const workflow = parseOk(source);
  const processes: ProcessRequest[] = [];
  const rec = memoryEventSink();
  const outcome: RunOutcome = await runWorkflow(workflow, {
    runProcess: localRunner(processes),
    signal: new AbortController().signal,
    scrubber: new Scrubber(),
    events: rec.sink,
    ...deps,
  });
  return { outcome, processes, events: rec.events, workflow };
};
