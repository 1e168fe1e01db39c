/**
 * Engine behaviour on real shells: retries, timeouts, transitions, inline errors, hooks
 * order, secret masking, cancellation that leaves no process, and agent steps.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import { Scrubber } from "../../secrets/scrubber";
import type { AgentRequest } from "../model/engine-ports";
import { memoryRecorder, parseOk, runYaml } from "@switchyard/testing/workflow";

/** A zombie (exited, not yet reaped by a non-reaping pid 1) counts as gone. */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};
const tmp = () => mkdtempSync(path.join(tmpdir(), "wf-"));

describe("steps", () => {
  it("retries with exponential backoff until the command succeeds", async () => {
    const dir = tmp();
    const { outcome, events } = await runYaml(`
name: retry
states:
  initial: flaky
  flaky:
    type: step
    dir: ${dir}
    command: 'n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; [ $n -ge 3 ]'
    retry: { max_attempts: 5, initial_delay: 20ms, backoff: exponential, multiplier: 2 }
    on_success: done
  done: { type: terminal }
`);
    expect(outcome.status).toBe("succeeded");
    expect(outcome.checkpoint.results.flaky?.attempts).toBe(3);
    expect(
      events
        .filter((e) => e.type === "step.retry")
        .map((e) => (e.type === "step.retry" ? e.delayMs : 0)),
    ).toEqual([20, 40]);
    expect(readFileSync(path.join(dir, "n"), "utf8").trim()).toBe("3");
  });

  it("does not retry exit codes outside retryable_exit_codes", async () => {
    const { outcome } = await runYaml(`
name: no-retry
states:
  initial: s
  s:
    type: step
    command: exit 5
    retry: { max_attempts: 3, retryable_exit_codes: [1, 22] }
`);
    expect(outcome).toMatchObject({ status: "failed", errorCode: "EXECUTION.COMMAND_FAILED" });
    expect(outcome.checkpoint.results.s?.attempts).toBe(1);
    expect(outcome.errorMessage).toContain("exited with code 5");
  });

  it("times a step out and fails the run with EXECUTION.TIMEOUT", async () => {
    const started = Date.now();
    const { outcome } = await runYaml(`
name: slow
states:
  initial: s
  s: { type: step, command: sleep 10, timeout: 300ms }
`);
    expect(outcome.errorCode).toBe("EXECUTION.TIMEOUT");
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("follows transitions (first match wins), continue_on_error and inline errors", async () => {
    const { outcome } = await runYaml(`
name: flow
inputs: [{ name: mode, default: full }]
states:
  initial: a
  a:
    type: step
    command: exit 2
    continue_on_error: true
    on_success: b
  b:
    type: step
    command: echo ok
    transitions:
      - when: "states.a.ExitCode == 2 and inputs.mode == 'quick'"
        goto: wrong
      - when: "states.a.exit_code == 2 and states.b.Output == 'ok'"
        goto: c
      - goto: wrong
  c:
    type: step
    command: exit 1
    on_failure: { message: "c failed after {{.states.b.Output}}", status: 3 }
  wrong: { type: terminal, status: failure }
`);
    expect(outcome).toMatchObject({
      status: "failed",
      finalState: "c",
      exitStatus: 3,
      errorMessage: "c failed after ok",
    });
  });

  it("binds error.* in failure terminals and workflow_error hooks, and resolves a templated timeout", async () => {
    const { outcome, events } = await runYaml(`
name: errors
inputs: [{ name: t, default: "0.2" }]
hooks:
  workflow_error: [{ log: "hook saw {{.error.type}} at {{.error.state}}" }]
states:
  initial: slow
  slow: { type: step, command: sleep 5, timeout: "{{.inputs.t}}", on_failure: failed }
  failed: { type: terminal, status: 4, message: "{{.error.state}}: {{.error.message}}" }
`);
    expect(outcome).toMatchObject({
      status: "failed",
      exitStatus: 4,
      errorMessage: "slow: timed out after 200 ms",
    });
    expect(events).toContainEqual({
      type: "log",
      state: undefined,
      message: "hook saw EXECUTION.TERMINAL_FAILURE at failed",
    });
  });

  it("runs hooks in order: workflow_start, pre, step, post, workflow_end", async () => {
    const { processes, events, outcome } = await runYaml(`
name: hooks
hooks:
  workflow_start: [{ command: echo start }]
  workflow_end: [{ command: echo end }, { log: "finished {{.workflow.name}}" }]
states:
  initial: s
  s:
    type: step
    command: echo main
    hooks: { pre: [{ command: echo pre }], post: [{ command: echo post }] }
    on_success: done
  done: { type: terminal }
`);
    expect(outcome.status).toBe("succeeded");
    expect(processes.map((p) => p.argv[2])).toEqual([
      "echo start",
      "echo pre",
      "echo main",
      "echo post",
      "echo end",
    ]);
    expect(events).toContainEqual({ type: "log", state: undefined, message: "finished hooks" });
  });

  it("masks secret values in outputs, events and errors", async () => {
    const secret = "s3cr3t-value-123";
    const { outcome, events } = await runYaml(
      `
name: mask
env: [TOKEN]
hooks:
  workflow_error: [{ log: "error {{.error.message}}" }]
states:
  initial: s
  s:
    type: step
    command: echo "token={{.env.TOKEN}}"; echo "$TOKEN" >&2; exit 1
    on_failure: { message: "failed with {{.env.TOKEN}}", status: 2 }
`,
      { variables: { resolve: async () => ({ values: { TOKEN: secret }, secrets: [secret] }) } },
    );
    const everything = JSON.stringify({ outcome, events });
    expect(everything).not.toContain(secret);
    expect(outcome.checkpoint.results.s?.output).toBe("token=[REDACTED]");
    expect(outcome.checkpoint.results.s?.stderr).toBe("[REDACTED]\n");
    expect(outcome.errorMessage).toBe("failed with [REDACTED]");
  });

  it("scrubs with the run's scrubber, which learns the secrets the run and its sub-workflows resolve", async () => {
    const known = "known-to-the-caller-1";
    const childSecret = "child-only-secret-22";
    const scrubber = new Scrubber().add(known);
    const child = parseOk(
      "name: child\nenv: [CHILD_TOKEN]\nstates:\n  initial: c\n  c: { type: step, command: 'echo $CHILD_TOKEN' }\n",
      "child.yaml",
    );
    const { outcome } = await runYaml(
      `
name: parent
states:
  initial: s
  s: { type: step, command: echo ${known}, on_success: call }
  call: { type: call_workflow, workflow: child, on_success: done }
  done: { type: terminal }
`,
      {
        scrubber,
        resolver: { resolve: async () => child },
        variables: {
          resolve: async (names) => {
            const values: Record<string, string> = names.includes("CHILD_TOKEN")
              ? { CHILD_TOKEN: childSecret }
              : {};
            return { values, secrets: Object.values(values) };
          },
        },
      },
    );
    expect(outcome.status).toBe("succeeded");
    expect(outcome.checkpoint.results.s?.output).toBe("[REDACTED]");
    // What the caller stores after the run (the run's error, its log) is scrubbed of the child's secret too.
    expect(scrubber.scrub(`leaked ${childSecret}`)).toBe("leaked [REDACTED]");
  });

  it("resolves variables a template reads without declaring them, and passes only declared ones to processes", async () => {
    const asked: string[][] = [];
    const { outcome } = await runYaml(
      `
name: vars
env: [DECLARED]
states:
  initial: s
  s: { type: step, command: 'echo "{{.env.UNDECLARED}} $DECLARED [$UNDECLARED]"' }
`,
      {
        variables: {
          resolve: async (names) => (
            asked.push(names),
            { values: { DECLARED: "d", UNDECLARED: "u" }, secrets: [] }
          ),
        },
      },
    );
    expect(asked).toEqual([["DECLARED", "UNDECLARED"]]);
    expect(outcome.checkpoint.results.s?.output).toBe("u d []");
  });

  it("cancels a running step, leaving no process behind", async () => {
    const dir = tmp();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const { outcome, processes } = await runYaml(
      `
name: cancel
hooks:
  workflow_cancel: [{ command: echo cancelled }]
states:
  initial: s
  s: { type: step, dir: ${dir}, command: "sleep 30 & echo $! > pid; wait" }
`,
      { signal: controller.signal },
    );
    expect(outcome.status).toBe("cancelled");
    expect(processes.at(-1)?.argv[2]).toBe("echo cancelled");
    const pid = Number(readFileSync(path.join(dir, "pid"), "utf8"));
    await new Promise((r) => setTimeout(r, 800));
    expect(alive(pid)).toBe(false);
  });
});

describe("agent steps", () => {
  it("run through the AgentExecutor port with output_format json", async () => {
    const prompts: string[] = [];
    const options: unknown[] = [];
    const { outcome } = await runYaml(
      `
name: agent
states:
  initial: ask
  ask:
    type: agent
    provider: claude
    prompt: "rate {{.workflow.Name}}"
    options: { model: sonnet, api_key: "{{.env.KEY}}", nested: ["{{.workflow.name}}"] }
    output_format: json
    on_success: use
  use: { type: step, command: "echo {{.states.ask.JSON.score}} {{.states.ask.TokensUsed}}" }
`,
      {
        agents: {
          execute: async (req) => {
            prompts.push(req.prompt);
            options.push(req.options);
            return { output: 'Here:\n```json\n{"score": 9}\n```', tokensUsed: 42 };
          },
        },
        variables: { resolve: async () => ({ values: { KEY: "key-from-env" }, secrets: [] }) },
      },
    );
    expect(prompts).toEqual(["rate agent"]);
    expect(options).toEqual([{ model: "sonnet", api_key: "key-from-env", nested: ["agent"] }]);
    expect(outcome.checkpoint.results.use?.output).toBe("9 42");
  });

  it("fail clearly when no provider is configured", async () => {
    const { outcome } = await runYaml(`
name: agent
states:
  initial: ask
  ask: { type: agent, provider: claude, prompt: hi }
`);
    expect(outcome.status).toBe("failed");
    expect(outcome.checkpoint.results.ask?.error).toMatch(/EXECUTION.AGENT_UNAVAILABLE/);
  });
});

describe("the step recorder", () => {
  it("records every attempt of an agent, its tokens and answer, and gives the agent its attempt, path and record", async () => {
    const { attempts, recorder } = memoryRecorder();
    const requests: AgentRequest[] = [];
    const { outcome } = await runYaml(
      `
name: agents
states:
  initial: each
  each:
    type: for_each
    items: '["x"]'
    body: [ask]
    on_complete: done
  ask:
    type: agent
    provider: "{{.loop.item}}-provider"
    prompt: hi
    retry: { max_attempts: 3, initial_delay: 1ms }
  done: { type: terminal }
`,
      {
        recorder,
        agents: {
          execute: async (req) => {
            requests.push(req);
            if (req.attempt === 1) return { output: "", error: "busy 1", tokensInput: 1 };
            if (req.attempt === 2)
              return {
                output: "",
                error: "busy 2",
                errorCode: "EXECUTION.PROVIDER.UNAVAILABLE",
                tokensInput: 1,
              };
            return {
              output: "done\n",
              tokensInput: 7,
              tokensOutput: 3,
              tokensUsed: 10,
              costUsd: 0.25,
              sessionId: "sess-1",
            };
          },
        },
      },
    );
    expect(outcome.status).toBe("succeeded");
    const path = { workflow: "agents", key: "/each/0/ask", loop: [0], calls: [] };
    expect(requests.map((r) => [r.attempt, r.path, r.attemptId])).toEqual([
      [1, path, "attempt-1"],
      [2, path, "attempt-2"],
      [3, path, "attempt-3"],
    ]);
    expect(attempts).toEqual(
      [1, 2]
        .map((n) => ({
          id: `attempt-${n}`,
          state: "ask",
          kind: "agent",
          provider: "x-provider",
          attempt: n,
          path,
          end: {
            status: "failed",
            exitCode: 1,
            stdout: "",
            stderr: "",
            output: "",
            tokensInput: 1,
            // The provider's own code when it gives one.
            error: {
              code: n === 1 ? "EXECUTION.AGENT_FAILED" : "EXECUTION.PROVIDER.UNAVAILABLE",
              message: `busy ${n}`,
            },
          },
        }))
        .concat([
          {
            id: "attempt-3",
            state: "ask",
            kind: "agent",
            provider: "x-provider",
            attempt: 3,
            path,
            end: {
              status: "succeeded",
              exitCode: 0,
              stdout: "done\n",
              stderr: "",
              output: "done",
              tokensInput: 7,
              tokensOutput: 3,
              tokensUsed: 10,
              costUsd: 0.25,
              sessionId: "sess-1",
            },
          },
        ] as never[]),
    );
  });

  it("records a step's whole scrubbed output, and hooks not at all", async () => {
    const { attempts, recorder } = memoryRecorder();
    const { outcome, processes } = await runYaml(
      `
name: steps
env: [TOKEN]
states:
  initial: s
  s:
    type: step
    command: 'echo "$TOKEN 0123456789"; echo oops >&2'
    capture: { stdout: kept, max_size: 4 }
    hooks: { pre: [{ command: "echo pre" }] }
`,
      {
        recorder,
        variables: {
          resolve: async () => ({ values: { TOKEN: "tok-secret-1" }, secrets: ["tok-secret-1"] }),
        },
      },
    );
    expect(outcome.checkpoint.context.kept).toBe("[RED");
    expect(attempts.map((a) => [a.state, a.kind, a.attempt, a.end])).toEqual([
      [
        "s",
        "process",
        1,
        {
          status: "succeeded",
          exitCode: 0,
          stdout: "[REDACTED] 0123456789\n",
          stderr: "oops\n",
          error: undefined,
        },
      ],
    ]);
    const [pre, step] = processes;
    expect([pre?.purpose, pre?.attempt, pre?.attemptId, pre?.path.key]).toEqual([
      "hook",
      1,
      undefined,
      "/s",
    ]);
    expect([step?.purpose, step?.attempt, step?.attemptId, step?.path.key]).toEqual([
      "step",
      1,
      "attempt-1",
      "/s",
    ]);
  });

  it("records a process that cannot start as failed with its error, and fails the state", async () => {
    const { attempts, recorder } = memoryRecorder();
    const { outcome } = await runYaml(
      "name: nostart\nstates:\n  initial: s\n  s: { type: step, command: echo never }\n",
      {
        recorder,
        runProcess: async () => {
          throw new AppError("USER.INPUT.VALIDATION_FAILED", "dir is outside the workspace");
        },
      },
    );
    expect(outcome.status).toBe("failed");
    expect(outcome.checkpoint.results.s?.error).toBe(
      "USER.INPUT.VALIDATION_FAILED: dir is outside the workspace",
    );
    expect(attempts.map((a) => a.end)).toEqual([
      {
        status: "failed",
        exitCode: null,
        stdout: "",
        stderr: "",
        error: { code: "USER.INPUT.VALIDATION_FAILED", message: "dir is outside the workspace" },
      },
    ]);
  });

  it("fails the state, without retrying, when an attempt's end cannot be recorded", async () => {
    const started: string[] = [];
    const { outcome } = await runYaml(
      `
name: unrecorded
states:
  initial: s
  s:
    type: step
    command: echo hi
    retry: { max_attempts: 3, initial_delay: 1ms }
    on_failure: recovered
  recovered: { type: step, command: echo recovered }
`,
      {
        recorder: {
          attemptStarted: async (a) => (started.push(`${a.state} ${a.attempt}`), { id: a.state }),
          attemptFinished: async (handle) => {
            if (handle.id === "s")
              throw new AppError(
                "EXECUTION.OUTPUT_NOT_STORED",
                "the step's output could not be stored",
              );
          },
        },
      },
    );
    expect(outcome.status).toBe("succeeded");
    expect(started).toEqual(["s 1", "recovered 1"]);
    expect(outcome.checkpoint.results.s?.error).toBe(
      "EXECUTION.OUTPUT_NOT_STORED: the step's output could not be stored",
    );
    expect(outcome.checkpoint.results.recovered?.output).toBe("recovered");
  });
});

describe("the host's trouble", () => {
  it("is thrown to the caller, retryable SYSTEM.* errors, with no outcome made and no failure hook run", async () => {
    const unreachable = new AppError(
      "SYSTEM.DATABASE_UNAVAILABLE",
      "the database has been unreachable for 60 s",
      { retryable: true },
    );
    const { attempts, recorder } = memoryRecorder();
    const saves: unknown[] = [];
    const run = runYaml(
      `
name: outage
hooks:
  workflow_error: [{ log: "must not run" }]
states:
  initial: first
  first: { type: step, command: echo one, on_success: second }
  second: { type: step, command: echo two, on_success: done }
  done: { type: terminal }
`,
      {
        recorder: {
          ...recorder,
          attemptStarted: async (start) =>
            start.state === "second" ? Promise.reject(unreachable) : recorder.attemptStarted(start),
        },
        store: { save: async (cp) => void saves.push(cp) },
      },
    );
    await expect(run).rejects.toBe(unreachable);
    expect(attempts.map((a) => [a.state, a.end?.status])).toEqual([["first", "succeeded"]]);
    // The checkpoint past the first step was saved: a retry resumes at the second.
    expect(saves.length).toBeGreaterThan(0);
  });

  it("is the run's own failure when it is not retryable", async () => {
    const refused = new AppError("SYSTEM.INTERNAL", "broken");
    const { recorder } = memoryRecorder();
    const { outcome } = await runYaml(
      `
name: broken
states:
  initial: first
  first: { type: step, command: echo one, on_success: done }
  done: { type: terminal }
`,
      { recorder: { ...recorder, attemptStarted: async () => Promise.reject(refused) } },
    );
    expect(outcome).toMatchObject({ status: "failed", errorCode: "SYSTEM.INTERNAL" });
  });
});
