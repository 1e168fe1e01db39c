/**
 * runClaude's outcomes on real processes: a stand-in CLI (test/fixtures/fake-claude.mjs) replays
 * Claude Code's captured output, crashes, hangs with a child in its group, lingers after its
 * result or reads its prompt from stdin, started through the plain spawn port. The real CLI
 * is in ../cli-providers.int.test.ts.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_PATHS, type SandboxHost } from "../../sandbox/sandbox-types";
import { startSandboxed } from "../../sandbox/start-sandboxed";
import {
  detectForTest,
  makeStepDirs,
  ownedBy,
  removeStepDirs,
  spec,
  waitNoneLeft,
  withOwner,
  type StepDirs,
} from "@switchyard/testing/sandbox";
import { runYaml } from "@switchyard/testing/workflow";
import type { AgentStepEvent } from "../agent-events";
import type { AgentSpawn } from "../agent-process";
import { plainSpawn } from "@switchyard/testing/agents";
import type { ClaudeLaunch } from "./build-claude-launch";
import { runClaude, type RunClaudeInput } from "./run-claude";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FAKE = path.join(HERE, "../../../../../test/fixtures/fake-claude.mjs");
const FIXTURE = (name: string) => path.join(HERE, "fixtures", `${name}.stream.jsonl`);
const TOKEN = "gw-step-token-5c1e2f9a7b";

const launch = (args: string[], extra: Partial<ClaudeLaunch> = {}): ClaudeLaunch => ({
  argv: [process.execPath, FAKE, ...args],
  env: { PATH: "/usr/bin:/bin", ANTHROPIC_API_KEY: TOKEN },
  files: [],
  ...extra,
});

const run = async (args: string[], over: Partial<RunClaudeInput> = {}) => {
  const events: AgentStepEvent[] = [];
  const result = await runClaude({
    launch: launch(args),
    spawn: plainSpawn({ cwd: tmpdir(), killGraceMs: 1000 }),
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
    ...over,
  });
  return { result, events };
};

/** A zombie counts as gone. */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

const waitFor = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** Starts the hanging stand-in and returns the pids it reports (itself and its child). */
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const hanging = (stubborn = false) => {
  const dir = mkdtempSync(path.join(tmpdir(), "fake-claude-"));
  scratch.push(dir);
  const pidFile = path.join(dir, "pids");
  const pids = () => readFileSync(pidFile, "utf8").split(" ").map(Number);
  return { args: ["hang", pidFile, ...(stubborn ? ["stubborn"] : [])], pidFile, pids };
};

describe("runClaude", () => {
  it("returns the result's answer, usage, turns, session and the CLI's cost, streaming the events", async () => {
    const { result, events } = await run(["replay", FIXTURE("six-tools")]);
    expect(result).toMatchObject({
      status: "success",
      output: "Done: notes/a.txt now says alpha and gamma.",
      exitCode: 0,
      tokensInput: 27187,
      tokensOutput: 123,
      tokensUsed: 27310,
      turns: 8,
      sessionId: "d0e49360-b5b3-464a-8218-5b198153fa12",
      costUsd: 0.11120799999999999,
    });
    expect(result.error).toBeUndefined();
    expect(events.filter((e) => e.type === "tool_use")).toHaveLength(7);
    expect(events.at(-1)).toMatchObject({ type: "final" });
  });

  it("fails with the model's code when the CLI reports an error result, and reports it once", async () => {
    const { result, events } = await run(["replay", FIXTURE("api-error"), "1"]);
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "USER.PROVIDER.REQUEST_REJECTED",
      errorReported: true,
      exitCode: 1,
      retryable: false,
    });
    expect(result.error).toMatch(/^USER\.PROVIDER\.REQUEST_REJECTED: API Error: 400/);
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
  });

  it("fails with EXECUTION.AGENT_NO_RESULT and the end of stderr when the CLI exits without a result", async () => {
    const { result, events } = await run(["crash"], { stderrTailBytes: 200 });
    expect(result).toMatchObject({
      status: "failure",
      errorCode: "EXECUTION.AGENT_NO_RESULT",
      exitCode: 3,
    });
    expect(result.error).toContain("Claude Code exited with code 1 without reporting a result");
    expect(result.error).toContain(
      "Error: Invalid MCP configuration: /tmp/x/mcp.json: no such file",
    );
    expect(result.stderrTail.length).toBeLessThanOrEqual(200);
    expect(result.stderrTail).toMatch(/no such file\n$/);
    const errors = events.filter((e) => e.type === "error");
    expect(errors.map((e) => e.code)).toEqual(["EXECUTION.AGENT_NO_RESULT"]);
    expect(errors[0]!.message).toContain("without reporting a result");
  });

  it("stops the CLI and the child in its group when the step is cancelled, even one that ignores SIGTERM", async () => {
    const fake = hanging(true);
    const controller = new AbortController();
    const pending = run(fake.args, { signal: controller.signal });
    await waitFor(
      () => existsSync(fake.pidFile) && readFileSync(fake.pidFile, "utf8").includes(" "),
    );
    const [cli, child] = fake.pids();
    expect(alive(cli!) && alive(child!)).toBe(true);
    controller.abort();
    const { result } = await pending;
    expect(result).toMatchObject({ status: "cancelled", errorCode: "EXECUTION.CANCELLED" });
    expect(result.exitCode).toBeUndefined();
    expect(result.sessionId).toBe("fake-hang");
    expect(alive(cli!)).toBe(false);
    await waitFor(() => !alive(child!), 3000);
  });

  it("times the step out, leaving no process", async () => {
    const fake = hanging();
    const { result } = await run(fake.args, { timeoutMs: 500 });
    expect(result).toMatchObject({ status: "failure", errorCode: "EXECUTION.TIMEOUT" });
    expect(result.error).toContain("did not finish within 0.5 s");
    const [cli, child] = fake.pids();
    expect(alive(cli!)).toBe(false);
    await waitFor(() => !alive(child!), 3000);
  });

  it("stops a CLI that lingers after its result, keeping the answer", async () => {
    const { result } = await run(["linger"], { resultGraceMs: 200 });
    expect(result).toMatchObject({
      status: "success",
      output: "answered, then lingering",
      exitCode: 0,
    });
  });

  it("never starts the CLI for a step cancelled before it began", async () => {
    const controller = new AbortController();
    controller.abort();
    const spawn: AgentSpawn = () => Promise.reject(new Error("must not be called"));
    const { result } = await run(["answer", "x"], { signal: controller.signal, spawn });
    expect(result).toMatchObject({ status: "cancelled", errorCode: "EXECUTION.CANCELLED" });
  });

  it("fails clearly when the CLI cannot start", async () => {
    const events: AgentStepEvent[] = [];
    const result = await runClaude({
      launch: launch([], { argv: ["/nonexistent/claude", "-p"] }),
      spawn: plainSpawn({ cwd: tmpdir() }),
      signal: new AbortController().signal,
      onEvent: (e) => events.push(e),
    });
    expect(result).toMatchObject({ status: "failure", errorCode: "EXECUTION.AGENT_FAILED" });
    expect(result.error).toContain("Claude Code could not start: spawn /nonexistent/claude ENOENT");
  });

  it("writes a long prompt to stdin and closes it", async () => {
    const prompt = `${"p".repeat(200_000)}the end.`;
    const events: AgentStepEvent[] = [];
    const result = await runClaude({
      launch: launch(["stdin"], { stdin: prompt }),
      spawn: plainSpawn({ cwd: tmpdir() }),
      signal: new AbortController().signal,
      onEvent: (e) => events.push(e),
    });
    expect(result.output).toBe(
      `stdin had ${prompt.length} characters ending ${JSON.stringify(prompt.slice(-12))}`,
    );
    expect(events.at(-1)).toMatchObject({ type: "final" });
  });

  it("scrubs the gateway token and the step's secrets from events, output and stderr; counts cache reads as input", async () => {
    const { result, events } = await run(["token"], { secrets: ["never-here-secret"] });
    const everything = JSON.stringify({ result, events });
    expect(everything).not.toContain(TOKEN);
    expect(result.output).toBe("the key was [REDACTED]");
    expect(result.stderrTail).toBe("debug: key=[REDACTED]\n");
    expect(result).toMatchObject({
      tokensInput: 15,
      tokensOutput: 3,
      tokensUsed: 18,
      costUsd: 0.002,
    });
    expect(events).toContainEqual({
      type: "usage",
      inputTokens: 15,
      outputTokens: 3,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 5,
      estimated: false,
    });
  });

  it("gives the engine what output_format json needs: the answer as text, parsed into JSON and Response", async () => {
    const answer = 'Here it is:\n```json\n{"score": 9, "notes": ["ok"]}\n```';
    const { outcome } = await runYaml(
      `
name: rate
states:
  initial: ask
  ask:
    type: agent
    provider: claude
    prompt: rate it
    output_format: json
    on_success: use
  use: { type: step, command: "echo {{.states.ask.JSON.score}} {{.states.ask.Response.notes}}" }
`,
      {
        agents: {
          execute: (request) =>
            runClaude({
              launch: launch(["answer", answer]),
              spawn: plainSpawn({ cwd: tmpdir() }),
              signal: request.signal,
            }),
        },
      },
    );
    expect(outcome.status).toBe("succeeded");
    expect(outcome.checkpoint.results.ask).toMatchObject({
      output: '{"score": 9, "notes": ["ok"]}',
      json: { score: 9, notes: ["ok"] },
      response: { score: 9, notes: ["ok"] },
    });
    expect(outcome.checkpoint.results.use?.output).toBe('9 ["ok"]');
  });
});

describe("runClaude through the step sandbox's process", () => {
  const UID = 61600;
  let base: SandboxHost;
  let dirs: StepDirs;
  beforeAll(async () => {
    base = await detectForTest(UID);
    dirs = await makeStepDirs();
    copyFileSync(FAKE, path.join(dirs.workspace, "fake-claude.mjs"));
    copyFileSync(FIXTURE("six-tools"), path.join(dirs.workspace, "six-tools.jsonl"));
  });
  afterAll(() => removeStepDirs(dirs));

  /** The worker's port: startSandboxed with the launch's argv and environment. */
  const sandboxed = (host: SandboxHost) => {
    const inside = host.level === "none" ? dirs.workspace : SANDBOX_PATHS.workspace;
    const spawn: AgentSpawn = ({ argv, env }) =>
      startSandboxed(host, spec(dirs, UID, argv, { env, killGraceMs: 1000 }));
    const fakeLaunch = (...args: string[]) =>
      launch([], { argv: [process.execPath, `${inside}/fake-claude.mjs`, ...args] });
    return { spawn, fakeLaunch, inside };
  };

  it("takes a SandboxProcess as its port: the answer comes back, the step's processes are gone", async () => {
    const host = withOwner(base);
    const { spawn, fakeLaunch, inside } = sandboxed(host);
    const result = await runClaude({
      launch: fakeLaunch("replay", `${inside}/six-tools.jsonl`),
      spawn,
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({
      status: "success",
      output: "Done: notes/a.txt now says alpha and gamma.",
    });
    expect(ownedBy(host.ownerId)).toEqual([]);
  });

  it("cancels through the sandbox's stop, leaving no process of the step", async () => {
    const host = withOwner(base);
    const { spawn, fakeLaunch, inside } = sandboxed(host);
    const controller = new AbortController();
    const pending = runClaude({
      launch: fakeLaunch("hang", `${inside}/pids`, "stubborn"),
      spawn,
      signal: controller.signal,
    });
    await waitFor(() => existsSync(path.join(dirs.workspace, "pids")));
    expect(ownedBy(host.ownerId).length).toBeGreaterThanOrEqual(2);
    controller.abort();
    expect(await pending).toMatchObject({ status: "cancelled", errorCode: "EXECUTION.CANCELLED" });
    expect(await waitNoneLeft(host.ownerId)).toEqual([]);
  });
});
