/**
 * Engine control flow on real shells: parallel strategies and max_concurrent, nested and
 * bounded loops, sub-workflows and call cycles.
 */
import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import type { ProcessRunner } from "../model/engine-ports";
import { localRunner, parseOk, runYaml } from "@switchyard/testing/workflow";

const parallel = (strategy: string, extra = "") => `
name: par
states:
  initial: fan
  fan:
    type: parallel
    parallel: [ok, bad, slow]
    strategy: ${strategy}
    ${extra}
    on_success: done
    on_failure: failed
  ok: { type: step, command: echo ok }
  bad: { type: step, command: exit 4 }
  slow: { type: step, command: sleep 0.3; echo slow }
  done: { type: terminal }
  failed: { type: terminal, status: failure, message: "fan failed" }
`;

describe("parallel", () => {
  it("all_succeed fails on the first failure and cancels the rest", async () => {
    const started = Date.now();
    const { outcome } = await runYaml(parallel("all_succeed").replace("sleep 0.3", "sleep 20"));
    expect(outcome).toMatchObject({
      status: "failed",
      finalState: "failed",
      errorMessage: "fan failed",
    });
    expect(outcome.checkpoint.results.slow).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a branch that throws stops its siblings and waits for them before the run ends", async () => {
    const inner = localRunner();
    let slowEnded: { cancelled: boolean } | undefined;
    const runner: ProcessRunner = async (req) => {
      if (req.stateName === "bad") {
        await new Promise((resolve) => setTimeout(resolve, 200));
        throw new AppError("SYSTEM.SANDBOX_UNAVAILABLE", "the sandbox broke");
      }
      const r = await inner(req);
      if (req.stateName === "slow") slowEnded = { cancelled: r.cancelled === true };
      return r;
    };
    const { outcome } = await runYaml(parallel("all_succeed").replace("sleep 0.3", "sleep 20"), {
      runProcess: runner,
    });
    expect(outcome).toMatchObject({ status: "failed", errorCode: "SYSTEM.SANDBOX_UNAVAILABLE" });
    // By the time the run has ended, the sibling's process was stopped and has exited.
    expect(slowEnded).toEqual({ cancelled: true });
  });

  it("any_succeed succeeds when one branch does", async () => {
    const { outcome } = await runYaml(parallel("any_succeed"));
    expect(outcome.finalState).toBe("done");
  });

  it("best_effort runs every branch and succeeds", async () => {
    const { outcome } = await runYaml(parallel("best_effort"));
    expect(outcome.finalState).toBe("done");
    expect(outcome.checkpoint.results.slow?.output).toBe("slow");
    expect(outcome.checkpoint.results.bad?.exitCode).toBe(4);
  });

  it("runs at most max_concurrent branches at once", async () => {
    let active = 0;
    let peak = 0;
    const inner = localRunner();
    const counting: ProcessRunner = async (req) => {
      peak = Math.max(peak, ++active);
      try {
        return await inner(req);
      } finally {
        active--;
      }
    };
    const { outcome } = await runYaml(parallel("best_effort", "max_concurrent: 1"), {
      runProcess: counting,
    });
    expect(outcome.finalState).toBe("done");
    expect(peak).toBe(1);
  });
});

describe("loops", () => {
  it("nests for_each loops with loop.parent and stops a while loop on its condition", async () => {
    const { outcome } = await runYaml(`
name: loops
states:
  initial: outer
  outer:
    type: for_each
    items: '["A", "B"]'
    body: [inner]
    on_complete: count
  inner:
    type: for_each
    items: "1,2"
    body: [show]
  show:
    type: step
    command: 'echo "{{.loop.parent.item}}{{.loop.item}} {{.loop.index1}}/{{.loop.length}} {{.loop.first}} {{.loop.last}}" >> /dev/null; echo "{{.loop.parent.item}}{{.loop.item}}"'
    capture: { stdout: last }
  count:
    type: while
    while: "states.tick.Output != '3'"
    max_iterations: 10
    body: [tick]
    on_complete: done
  tick: { type: step, command: "echo {{.loop.index1}}" }
  done: { type: terminal }
`);
    expect(outcome.status).toBe("succeeded");
    expect(outcome.checkpoint.context.last).toBe("B2");
    expect(outcome.checkpoint.results.tick?.output).toBe("3");
  });

  it("ends early with break_when and fails a while loop that hits max_iterations", async () => {
    const { outcome } = await runYaml(`
name: bounded
states:
  initial: each
  each:
    type: for_each
    items: '[1, 2, 3, 4]'
    break_when: "states.s.Output == '2'"
    body: [s]
    on_complete: spin
  s: { type: step, command: "echo {{.loop.item}}" }
  spin:
    type: while
    while: "true"
    max_iterations: 3
    body: [noop]
    on_complete: done
    on_failure: capped
  noop: { type: step, command: "true" }
  done: { type: terminal }
  capped: { type: terminal, status: failure, message: capped }
`);
    expect(outcome.checkpoint.results.s?.output).toBe("2");
    expect(outcome).toMatchObject({ status: "failed", finalState: "capped" });
  });

  it("accepts the loop: form with over, and resolves a templated max_iterations", async () => {
    const { outcome } = await runYaml(`
name: loop-form
inputs: [{ name: n, type: integer, default: 1 }]
states:
  initial: each
  each:
    type: for_each
    loop:
      over: '["a", "b", "c", "d"]'
      body: [s]
      max_iterations: "{{.inputs.n + 1}}"
      on_complete: done
  s: { type: step, command: "echo {{.loop.item}}", capture: { stdout: seen } }
  done: { type: terminal }
`);
    expect(outcome.finalState).toBe("done");
    expect(outcome.checkpoint.context.seen).toBe("b");
    expect(outcome.checkpoint.results.each?.output).toBe("2");
  });
});

describe("call_workflow", () => {
  const child = parseOk(
    `
name: child
inputs: [{ name: who, required: true }]
outputs: [{ name: greeting, from: states.greet.Output }]
states:
  initial: greet
  greet: { type: step, command: "echo hello {{.inputs.who}}", on_success: done }
  done: { type: terminal }
`,
    "child.yaml",
  );
  const loop = parseOk(
    "name: loop\nstates:\n  initial: again\n  again: { type: call_workflow, workflow: parent }\n",
    "loop.yaml",
  );

  it("runs a sub-workflow with inputs and maps its outputs back", async () => {
    const { outcome } = await runYaml(
      `
name: parent
states:
  initial: call
  call:
    type: call_workflow
    call_workflow:
      workflow: child
      inputs: { who: "{{.workflow.name}}" }
      outputs: { greeting: greeting }
    on_success: show
  show: { type: step, command: "echo got {{.context.greeting}} / {{.states.call.Response.greeting}}" }
`,
      { resolver: { resolve: async (name) => (name === "child" ? child : undefined) } },
    );
    expect(outcome.checkpoint.results.show?.output).toBe("got hello parent / hello parent");
  });

  it("stops a call cycle at run time", async () => {
    const { outcome } = await runYaml(
      "name: parent\nstates:\n  initial: c\n  c: { type: call_workflow, workflow: loop }\n",
      {
        resolver: { resolve: async (name) => (name === "loop" ? loop : undefined) },
      },
    );
    expect(outcome.status).toBe("failed");
    expect(JSON.stringify(outcome.checkpoint.results)).toContain("parent -> loop -> parent");
  });
});
