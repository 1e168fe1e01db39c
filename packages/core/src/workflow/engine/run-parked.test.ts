/**
 * A step that parks the run on a person's answer (RunParked): the engine stops without an
 * outcome or a hook, the attempt is marked suspended instead of ended, the checkpoint points
 * at the state, and a run resumed from it runs that state again (and nothing before it),
 * inside parallel branches and sub-workflow-free loops alike.
 */
import { describe, expect, it } from "vitest";
import { RunParked } from "../../governance/waits";
import { Scrubber } from "../../secrets/scrubber";
import type { AgentExecutor, Checkpoint, StepRecorder } from "../model/engine-ports";
import { runWorkflow } from "./run-workflow";
import { localRunner, parseOk } from "@switchyard/testing/workflow";

const workflow = parseOk(`
name: parked
hooks:
  workflow_error: [{ log: "error hook ran" }]
states:
  initial: before
  before: { type: step, command: echo before, on_success: ask }
  ask:
    type: agent
    provider: openai_compatible
    prompt: "do it"
    on_success: after
  after: { type: step, command: "echo after {{.states.ask.Output}}", on_success: done }
  done: { type: terminal }
`);

const recorderLog = () => {
  const log: string[] = [];
  const recorder: StepRecorder = {
    attemptStarted: async (start) => {
      log.push(`start ${start.state}`);
      return { id: `${start.state}-${log.length}` };
    },
    attemptFinished: async (handle, end) => void log.push(`end ${handle.id} ${end.status}`),
    attemptSuspended: async (handle, waitId) => void log.push(`suspended ${handle.id} ${waitId}`),
  };
  return { log, recorder };
};

describe("a run parked on a wait", () => {
  it("stops without an outcome, marks the attempt suspended, and resumes at the state", async () => {
    const saved: Checkpoint[] = [];
    const first = recorderLog();
    const commands: string[] = [];
    const parking: AgentExecutor = {
      execute: async () => {
        throw new RunParked("wait-1");
      },
    };
    const events: string[] = [];
    const run = runWorkflow(workflow, {
      runId: "r1",
      signal: new AbortController().signal,
      scrubber: new Scrubber(),
      runProcess: async (request) => {
        commands.push(request.argv.join(" "));
        return localRunner()(request);
      },
      agents: parking,
      recorder: first.recorder,
      store: { save: async (cp) => void saved.push(cp) },
      events: (event) => void events.push(event.type),
    });
    await expect(run).rejects.toBeInstanceOf(RunParked);
    expect(first.log).toEqual([
      "start before",
      "end before-1 succeeded",
      "start ask",
      "suspended ask-3 wait-1",
    ]);
    // No outcome was made: no run.finished, no error hook.
    expect(events).not.toContain("run.finished");
    const checkpoint = saved.at(-1)!;
    expect(checkpoint.cursors[""]).toMatchObject({ kind: "chain", at: "ask" });

    const second = recorderLog();
    const answered: AgentExecutor = { execute: async () => ({ output: "approved" }) };
    const outcome = await runWorkflow(workflow, {
      runId: "r1",
      signal: new AbortController().signal,
      scrubber: new Scrubber(),
      runProcess: async (request) => {
        commands.push(request.argv.join(" "));
        return localRunner()(request);
      },
      agents: answered,
      recorder: second.recorder,
      checkpoint,
    });
    expect(outcome.status).toBe("succeeded");
    // `before` ran once in all; the resumed run started at the parked state.
    expect(second.log[0]).toBe("start ask");
    expect(commands.filter((c) => c.includes("echo before"))).toHaveLength(1);
    expect(outcome.checkpoint.results.after?.output).toBe("after approved");
  });

  it("goes up through a parallel branch, stopping its siblings", async () => {
    const wf = parseOk(`
name: parked-parallel
states:
  initial: fan
  fan: { type: parallel, parallel: [ask, slow], strategy: all_succeed, on_success: done }
  ask: { type: agent, provider: openai_compatible, prompt: "x" }
  slow: { type: step, command: "sleep 5" }
  done: { type: terminal }
`);
    const started = Date.now();
    await expect(
      runWorkflow(wf, {
        runId: "r2",
        signal: new AbortController().signal,
        scrubber: new Scrubber(),
        runProcess: localRunner(),
        agents: {
          execute: async () => {
            await new Promise((r) => setTimeout(r, 100));
            throw new RunParked("wait-2");
          },
        },
      }),
    ).rejects.toMatchObject({ waitId: "wait-2" });
    // The sibling was stopped, not waited for.
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
