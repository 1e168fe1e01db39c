/**
 * Stops a run at every checkpoint of a workflow with parallel branches inside a loop, and
 * checks that resuming from that checkpoint ends exactly like an uninterrupted run; and
 * that the step attempts the engine records, with their numbers and paths, are those of an
 * uninterrupted run too, however it was stopped mid-retry.
 */
import { describe, expect, it } from "vitest";
import { Scrubber } from "../../secrets/scrubber";
import type {
  AgentExecutor,
  Checkpoint,
  ProcessRequest,
  RunOutcome,
  RunWorkflowDeps,
} from "../model/engine-ports";
import { runWorkflow } from "./run-workflow";
import {
  localRunner,
  memoryRecorder,
  type MemoryAttempt,
  parseOk,
} from "@switchyard/testing/workflow";
import type { Workflow } from "../model/workflow-types";

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

type StopAt = { stopAt?: number; checkpoint?: Checkpoint };

/** Runs from `checkpoint` if given, and stops the run once its `stopAt`-th checkpoint is saved. */
const runStopping = async (
  wf: Workflow,
  opts: StopAt,
  deps: Omit<RunWorkflowDeps, "signal" | "scrubber" | "checkpoint" | "store">,
) => {
  const controller = new AbortController();
  const saved: Checkpoint[] = [];
  const outcome = await runWorkflow(wf, {
    ...deps,
    signal: controller.signal,
    scrubber: new Scrubber(),
    checkpoint: opts.checkpoint,
    store: {
      save: async (cp) => {
        if (controller.signal.aborted) return;
        saved.push(cp);
        if (saved.length === opts.stopAt) controller.abort();
      },
    },
  });
  return { outcome, saved };
};

const run = async (opts: StopAt) => {
  const processes: ProcessRequest[] = [];
  const ran = await runStopping(workflow, opts, {
    runProcess: localRunner(processes),
    runId: "run-1",
  });
  return { ...ran, processes };
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

// Retried steps and agents in a loop inside a parallel branch, and a retried step of a
// sub-workflow: stopping anywhere lands mid-retry somewhere.
const attemptsWorkflow = parseOk(`
name: attempts
states:
  initial: fan
  fan:
    type: parallel
    parallel: [each, flaky]
    strategy: best_effort
    on_success: call
  each:
    type: for_each
    items: '["a", "b"]'
    body: [work, ask]
  work:
    type: step
    command: "echo W-{{.loop.item}}; exit 3"
    retry: { max_attempts: 2, initial_delay: 1ms }
    continue_on_error: true
  ask:
    type: agent
    provider: claude
    prompt: "about {{.loop.item}}"
    retry: { max_attempts: 2, initial_delay: 1ms }
  flaky:
    type: step
    command: "echo F; exit 4"
    retry: { max_attempts: 3, initial_delay: 1ms }
  call: { type: call_workflow, workflow: child, on_success: done }
  done: { type: terminal }
`);
const child = parseOk(
  `name: child
states:
  initial: c
  c:
    type: step
    command: "exit 5"
    retry: { max_attempts: 2, initial_delay: 1ms }
    continue_on_error: true
    on_success: done
  done: { type: terminal }
`,
  "child.yaml",
);

// Fails its first attempt, by the number the engine gives it.
const fakeAgent: AgentExecutor = {
  execute: async (req) => ({
    output: `answer ${req.attempt}`,
    error: req.attempt < 2 ? "not yet" : undefined,
    tokensInput: 10,
    tokensOutput: 5,
  }),
};

const recordedRun = async (opts: StopAt) => {
  const { attempts, recorder } = memoryRecorder();
  const ran = await runStopping(attemptsWorkflow, opts, {
    runProcess: localRunner(),
    agents: fakeAgent,
    recorder,
    resolver: { resolve: async () => child },
    runId: "run-2",
  });
  return { ...ran, attempts };
};

/** Each state's attempts in order, by where it sits: number, kind, status and error code. */
const byPath = (attempts: MemoryAttempt[]) => {
  const paths = new Map<string, [number, string, string | undefined, string | undefined][]>();
  for (const a of attempts) {
    const key = `${a.state} ${JSON.stringify(a.path)}`;
    paths.set(key, [
      ...(paths.get(key) ?? []),
      [a.attempt, a.kind, a.end?.status, a.end?.error?.code],
    ]);
  }
  return paths;
};

describe("step attempts across a resume", () => {
  it("records the attempts and paths of an uninterrupted run, wherever the run was stopped", async () => {
    const baseline = await recordedRun({});
    expect(baseline.outcome.status).toBe("succeeded");
    const expected = byPath(baseline.attempts);
    expect([...expected.entries()]).toEqual([
      [
        'flaky {"workflow":"attempts","key":"/fan/flaky","loop":[],"calls":[]}',
        [
          [1, "process", "failed", "EXECUTION.COMMAND_FAILED"],
          [2, "process", "failed", "EXECUTION.COMMAND_FAILED"],
          [3, "process", "failed", "EXECUTION.COMMAND_FAILED"],
        ],
      ],
      ...["a", "b"].flatMap((_, i) => [
        [
          `work {"workflow":"attempts","key":"/fan/each/${i}/work","loop":[${i}],"calls":[]}`,
          [
            [1, "process", "failed", "EXECUTION.COMMAND_FAILED"],
            [2, "process", "failed", "EXECUTION.COMMAND_FAILED"],
          ],
        ],
        [
          `ask {"workflow":"attempts","key":"/fan/each/${i}/ask","loop":[${i}],"calls":[]}`,
          [
            [1, "agent", "failed", "EXECUTION.AGENT_FAILED"],
            [2, "agent", "succeeded", undefined],
          ],
        ],
      ]),
      [
        'c {"workflow":"child","key":"/c","loop":[],"calls":[{"workflow":"attempts","key":"/call","loop":[]}]}',
        [
          [1, "process", "failed", "EXECUTION.COMMAND_FAILED"],
          [2, "process", "failed", "EXECUTION.COMMAND_FAILED"],
        ],
      ],
    ]);
    const total = baseline.saved.length;
    expect(total).toBeGreaterThan(15);
    for (let stopAt = 1; stopAt <= total; stopAt++) {
      const stopped = await recordedRun({ stopAt });
      expect(stopped.outcome.status).toBe("cancelled");
      const resumed = await recordedRun({
        checkpoint: JSON.parse(JSON.stringify(stopped.saved.at(-1))) as Checkpoint,
      });
      expect(resumed.outcome.status, `stopped at checkpoint ${stopAt}`).toBe("succeeded");
      const before = byPath(stopped.attempts);
      const after = byPath(resumed.attempts);
      let repeated = 0;
      for (const [path, attempts] of expected) {
        const all = [...(before.get(path) ?? []), ...(after.get(path) ?? [])];
        // An attempt the stop cut off (cancelled, or ended after the last checkpoint) runs
        // again with the same number; every other attempt is recorded once, as uninterrupted.
        const kept = all.filter((a, i) => a[2] !== "cancelled" && all[i + 1]?.[0] !== a[0]);
        repeated += all.length - kept.length;
        expect(kept, `${path}, stopped at checkpoint ${stopAt}`).toEqual(attempts);
      }
      expect(new Set([...before.keys(), ...after.keys()])).toEqual(new Set(expected.keys()));
      expect(repeated, `stopped at checkpoint ${stopAt}`).toBeLessThanOrEqual(2);
      expect([...stopped.attempts, ...resumed.attempts].every((a) => a.end)).toBe(true);
    }
  }, 120_000);
});

// A cycle brings the run back to `count` and `check`: each visit's attempts are its own.
const cycleWorkflow = parseOk(`
name: cycle
outputs: [{ name: last, from: states.count.Output }]
states:
  initial: count
  count:
    type: step
    command: "echo {{.states.count.Output}}x"
    transitions:
      - when: "states.count.Output == 'x' or states.count.Output == 'xx'"
        goto: check
    on_success: done
  check: { type: step, command: "echo checked {{.states.count.Output}}", on_success: count }
  done: { type: terminal }
`);

describe("an attempt that ended after the last checkpoint was saved", () => {
  const sorted = (m: Map<string, unknown>) =>
    [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
  const deps = {
    agents: fakeAgent,
    resolver: { resolve: async () => child },
    runId: "run-3",
    scrubber: new Scrubber(),
  };
  /** Runs `wf` to its end, or stops it right after its k-th attempt's end is recorded. */
  const runUntilEnd = async (
    wf: Workflow,
    k?: number,
    before?: MemoryAttempt[],
    checkpoint?: Checkpoint,
  ) => {
    const controller = new AbortController();
    const saved: Checkpoint[] = [];
    const memory = memoryRecorder(before);
    const processes: ProcessRequest[] = [];
    let ends = 0;
    const outcome = await runWorkflow(wf, {
      ...deps,
      runProcess: localRunner(processes),
      signal: controller.signal,
      checkpoint,
      recorder: {
        ...memory.recorder,
        attemptFinished: async (handle, end) => {
          await memory.recorder.attemptFinished(handle, end);
          if (++ends === k) controller.abort();
        },
      },
      // The saves after the stop never land, as when the worker dies there.
      store: { save: async (cp) => void (controller.signal.aborted || saved.push(cp)) },
    });
    return { outcome, saved, attempts: memory.attempts, processes };
  };

  it.each([
    ["retries, loops, branches and a sub-workflow", attemptsWorkflow],
    ["a cycle that comes back to its states", cycleWorkflow],
  ])(
    "is taken as recorded when the run resumes, never run a second time (%s)",
    async (_, wf) => {
      const baseline = await runUntilEnd(wf);
      expect(baseline.outcome.status).toBe("succeeded");
      const expected = sorted(byPath(baseline.attempts));
      for (let k = 1; k <= baseline.attempts.length; k++) {
        const first = await runUntilEnd(wf, k);
        const second = await runUntilEnd(wf, undefined, first.attempts, first.saved.at(-1));
        expect(second.outcome.status, `stopped after end ${k}`).toBe("succeeded");
        expect(second.outcome.outputs, `stopped after end ${k}`).toEqual(baseline.outcome.outputs);
        const done = first.attempts.filter((a) => a.end?.status !== "cancelled");
        expect(sorted(byPath([...done, ...second.attempts])), `stopped after end ${k}`).toEqual(
          expected,
        );
        // No process that had ended ran again; only those the stop cut off (a parallel branch's).
        const cut = first.attempts.filter(
          (a) => a.kind === "process" && a.end?.status === "cancelled",
        );
        expect(first.processes.length + second.processes.length, `stopped after end ${k}`).toBe(
          baseline.processes.length + cut.length,
        );
      }
    },
    120_000,
  );

  it("does not take earlier ends on the resume of a checkpoint from before visits were counted", async () => {
    const first = await runUntilEnd(cycleWorkflow, 3);
    const legacy = JSON.parse(JSON.stringify(first.saved.at(-1))) as Checkpoint;
    delete legacy.visits;
    const asked: string[] = [];
    const memory = memoryRecorder(first.attempts);
    const outcome = await runWorkflow(cycleWorkflow, {
      ...deps,
      runProcess: localRunner(),
      signal: new AbortController().signal,
      checkpoint: legacy,
      recorder: {
        ...memory.recorder,
        earlier: (start) => (asked.push(start.path.key), memory.recorder.earlier?.(start)),
      },
    });
    expect(outcome.status).toBe("succeeded");
    expect(asked).toEqual([]);
  });

  it("gives each visit of a state a cycle comes back to a path of its own", async () => {
    const { outcome, attempts } = await runUntilEnd(cycleWorkflow);
    expect(outcome.outputs).toEqual({ last: "xxx" });
    expect(attempts.map((a) => [a.state, a.path.key, a.end?.stdout.trim()])).toEqual([
      ["count", "/count", "x"],
      ["check", "/check", "checked x"],
      ["count", "/count@2", "xx"],
      ["check", "/check@2", "checked xx"],
      ["count", "/count@3", "xxx"],
    ]);
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
