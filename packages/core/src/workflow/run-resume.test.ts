/**
 * Stops a run at every checkpoint of a workflow with parallel branches inside a loop, and
 * checks that resuming from that checkpoint ends exactly like an uninterrupted run.
 */
import { describe, expect, it } from "vitest";
import { Scrubber } from "../secrets/scrubber";
import type { Checkpoint, ProcessRequest, RunOutcome } from "./engine-ports";
import { runWorkflow } from "./run-workflow";
import { localRunner } from "./test-support/local-runner";
import { parseOk } from "./test-support/run-yaml";

const workflow = parseOk(`
name: resume
inputs: [{ name: items, type: array, default: ["x", "y"] }]
outputs: [{ name: last, from: states.join.Output }]
states:
  initial: start
  start: { type: step, command: echo begin, on_success: each }
  each:
    type: for_each
    items: "{{.inputs.items}}"
    body: [fan, join]
    on_complete: finish
  fan:
    type: parallel
    parallel: [left, right]
    strategy: all_succeed
  left: { type: step, command: "echo L-{{.loop.item}}" }
  right: { type: step, command: "echo R-{{.loop.item}}-{{.loop.index}}" }
  join: { type: step, command: "echo {{.states.left.Output}}+{{.states.right.Output}}" }
  finish: { type: step, command: "echo end {{.states.join.Output}}", on_success: done }
  done: { type: terminal }
`);

const summary = (o: RunOutcome) => ({
  status: o.status,
  finalState: o.finalState,
  outputs: o.outputs,
  results: Object.fromEntries(
    Object.entries(o.checkpoint.results).map(([k, r]) => [k, [r.status, r.output, r.exitCode]]),
  ),
  context: o.checkpoint.context,
});

const run = async (opts: { stopAt?: number; checkpoint?: Checkpoint }) => {
  const controller = new AbortController();
  const saved: Checkpoint[] = [];
  const processes: ProcessRequest[] = [];
  const outcome = await runWorkflow(workflow, {
    runProcess: localRunner(processes),
    signal: controller.signal,
    scrubber: new Scrubber(),
    runId: "run-1",
    checkpoint: opts.checkpoint,
    store: {
      save: async (cp) => {
        if (controller.signal.aborted) return;
        saved.push(cp);
        if (saved.length === opts.stopAt) controller.abort();
      },
    },
  });
  return { outcome, saved, processes };
};

describe("resume from a checkpoint", () => {
  it("gives the same final state and outputs when stopped at any transition", async () => {
    const baseline = await run({});
    expect(baseline.outcome.status).toBe("succeeded");
    expect(baseline.outcome.outputs).toEqual({ last: "L-y+R-y-1" });
    const total = baseline.saved.length;
    expect(total).toBeGreaterThan(10);
    for (let stopAt = 1; stopAt <= total; stopAt++) {
      const stopped = await run({ stopAt });
      expect(stopped.outcome.status).toBe("cancelled");
      const checkpoint = stopped.saved.at(-1)!;
      const resumed = await run({
        checkpoint: JSON.parse(JSON.stringify(checkpoint)) as Checkpoint,
      });
      expect(summary(resumed.outcome), `stopped at checkpoint ${stopAt}`).toEqual(
        summary(baseline.outcome),
      );
      // Only processes cut off by the stop (at most the two parallel branches) run twice.
      expect(stopped.processes.length + resumed.processes.length).toBeLessThanOrEqual(
        baseline.processes.length + 2,
      );
    }
  }, 60_000);

  it("does not run again what finished before the checkpoint", async () => {
    const baseline = await run({});
    const last = baseline.saved.at(-1)!;
    const resumed = await run({ checkpoint: last });
    expect(resumed.outcome.status).toBe("succeeded");
    expect(resumed.processes).toEqual([]);
  });
});

it("refuses a checkpoint that belongs to another workflow", async () => {
  const other = parseOk("name: other\nstates:\n  initial: done\n  done: { type: terminal }\n");
  const { saved } = await run({});
  await expect(
    runWorkflow(other, {
      runProcess: localRunner(),
      signal: new AbortController().signal,
      scrubber: new Scrubber(),
      checkpoint: saved[0],
    }),
  ).rejects.toThrow(/belongs to workflow "resume"/);
});
