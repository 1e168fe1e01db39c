/**
 * Claude Code steps end to end under the real worker: the pinned CLI (installed on demand
 * into the agents folder) runs in the step sandbox with no network, reaches the scripted
 * model only through the worker's model gateway (per-step token in, the team's Anthropic
 * key from Settings → Models out), and its tools only through the step's `switchyard
 * mcp-serve`. Checked: the first model request offers the proxy's tools; the six built-ins
 * work and an escape is refused; ToolCall rows are complete and ordered; the gateway's
 * metered tokens and cost land on the step; `.Output` and `.Response` reach the next state;
 * the key is in no row, event, environment or file of the step; the step cannot reach
 * Postgres; cancel mid-step and a proxy SIGKILLed mid-call leave no process and a clear error.
 */
import { readFileSync, readdirSync } from "node:fs";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, processesOfRun, waitFor } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

/** Written so no command of the test spells it whole. */
const KEY_HEAD = "sk-ant-team";
const KEY = `${KEY_HEAD}-7d1e4c9a2b58f3e6`;
const claude = installedAgent("claude", (line) => console.log(`[agent-claude] ${line}`));
const PG_PORT = new URL(process.env.DATABASE_URL!).port || "5432";
const REDIS_PORT = new URL(process.env.REDIS_URL!).port || "6379";
const SLEEP = `sleep 47.${Math.floor(Math.random() * 9000) + 1000}`;

let stack: RunStack;
let model: ScriptedModel;
const keyring = keyringOf(parseMasterKey(process.env.SWITCHYARD_MASTER_KEY_ID || "k1", process.env.SWITCHYARD_MASTER_KEY ?? ""));
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);
const tool = (name: string) => `mcp__switchyard__${name}`;

const PROBE = [
  "cat notes/a.txt",
  `env | grep -c '${KEY_HEAD}''-' || true`,
  `grep -rl '${KEY_HEAD}''-' "$HOME" /tmp 2>/dev/null | wc -l`,
  "env | grep -c -e DATABASE_URL -e REDIS_URL -e MASTER_KEY || true",
  `timeout 3 bash -c 'echo > /dev/tcp/127.0.0.1/${PG_PORT}' 2>/dev/null && echo PG-REACHED || echo PG-UNREACHABLE`,
  `timeout 3 bash -c 'echo > /dev/tcp/127.0.0.1/${REDIS_PORT}' 2>/dev/null && echo REDIS-REACHED || echo REDIS-UNREACHABLE`,
].join("; ");

describe.skipIf(!claude)("claude agent steps in the worker", () => {
  beforeAll(async () => {
    buildSwitchyardCli();
    model = await startScriptedModel({
      host: "127.0.0.1",
      script: {
        turns: [
          {
            label: "write",
            expect: { toolOffered: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"].map(tool), model: "claude-sonnet-4-5" },
            text: "Writing the notes.",
            toolCalls: [{ name: tool("Write"), arguments: { path: "notes/a.txt", content: "alpha\nbeta\n" } }],
          },
          { label: "read", expect: { lastToolResultContains: "notes/a.txt" }, toolCalls: [{ name: tool("Read"), arguments: { path: "notes/a.txt" } }] },
          {
            label: "edit",
            expect: { lastToolResultContains: "alpha\nbeta" },
            toolCalls: [{ name: tool("Edit"), arguments: { path: "notes/a.txt", old: "beta", new: "gamma" } }],
          },
          { label: "bash", expect: { lastToolResultContains: "1 replacement" }, toolCalls: [{ name: tool("Bash"), arguments: { command: PROBE } }] },
          {
            label: "glob",
            expect: { lastToolResultContains: "alpha\ngamma\n0\n0\n0\nPG-UNREACHABLE\nREDIS-UNREACHABLE" },
            toolCalls: [{ name: tool("Glob"), arguments: { pattern: "**/*.txt" } }],
          },
          {
            label: "grep",
            expect: { lastToolResultContains: "notes/a.txt" },
            toolCalls: [{ name: tool("Grep"), arguments: { pattern: "gam+a", output_mode: "content" } }],
          },
          {
            label: "escape",
            expect: { lastToolResultContains: "notes/a.txt:2:gamma" },
            toolCalls: [{ name: tool("Read"), arguments: { path: "../../../etc/passwd" } }],
          },
          { label: "answer", expect: { lastToolResultContains: "outside the workspace" }, text: '{"verdict": "gamma", "files": 1}' },
        ],
        rules: [
          { match: { messagesContain: "WAIT-FOR-CANCEL" }, delayMs: 120_000, text: "too late" },
          { match: { messagesContain: "KILL-THE-PROXY" }, times: 1, toolCalls: [{ name: tool("Bash"), arguments: { command: SLEEP } }] },
          { match: { messagesContain: "KILL-THE-PROXY" }, delayMs: 120_000, text: "too late" },
        ],
      },
    });
    stack = await openRunStack({ SWITCHYARD_AGENTS_DIR: AGENTS_DIR, SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW });
    await caller().models.set({ vendor: "anthropic", endpoint: model.url, apiKey: KEY });
  }, 900_000);
  afterAll(async () => {
    if (stack) await closeRunStack(stack);
    await model?.close();
  });

  const WORKFLOW = (name: string, prompt: string) => `name: ${name}
states:
  initial: agent
  agent:
    type: agent
    provider: claude
    prompt: ${prompt}
    options:
      model: claude-sonnet-4-5
    output_format: json
    timeout: 3m
    on_success: echo
  echo:
    type: step
    command: echo "verdict={{.states.agent.Response.verdict}} tokens={{.states.agent.TokensUsed}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

  const start = async (name: string, prompt: string) => {
    const { workflowId } = await saveWorkflowVersion(stack.db, { teamId: stack.teamId, name, files: { "workflow.yaml": WORKFLOW(name, prompt) } });
    return (await caller().runs.start({ workflowId })).id;
  };

  it("runs Claude Code in the step sandbox through the gateway and the proxy, and records every call", async () => {
    const id = await start("claude-tools", "Edit notes/a.txt and say what it holds.");
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 240_000);
    const trace = JSON.stringify({
      run: [run.errorCode, run.errorMessage],
      steps: run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
      failures: model.failures,
    });
    expect(run.status, trace).toBe("succeeded");
    expect(model.failures).toEqual([]);
    const agent = run.steps.find((s) => s.stateName === "agent")!;
    const echo = run.steps.find((s) => s.stateName === "echo")!;
    expect(JSON.parse(agent.output)).toEqual({ verdict: "gamma", files: 1 });

    // Tokens and cost are the gateway's meter (claude-sonnet-4-5 is priced).
    const row = await stack.db.stepRun.findFirstOrThrow({ where: { id: agent.id } });
    expect(row.inputTokens).toBeGreaterThan(0);
    expect(row.outputTokens).toBeGreaterThan(0);
    expect(Number(row.costUsd)).toBeGreaterThan(0);
    expect(row.agentSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(echo.stdout.trim()).toBe(`verdict=gamma tokens=${row.inputTokens! + row.outputTokens!}`);

    // The team's key went upstream in x-api-key, put there by the gateway; never the CLI's token.
    const messages = model.requests.filter((r) => r.api === "anthropic");
    expect(messages.length).toBe(8);
    expect(messages.every((r) => r.auth.length === 1 && r.auth[0]!.header === "x-api-key" && r.auth[0]!.fingerprint === fingerprint(KEY))).toBe(true);

    const calls = await listStepToolCalls(stack.db, stack.teamId, agent.id);
    expect(calls.map((c) => [c.toolName, c.source, c.fidelity, c.isError])).toEqual([
      ["Write", "builtin", "proxy", false],
      ["Read", "builtin", "proxy", false],
      ["Edit", "builtin", "proxy", false],
      ["Bash", "builtin", "proxy", false],
      ["Glob", "builtin", "proxy", false],
      ["Grep", "builtin", "proxy", false],
      ["Read", "builtin", "proxy", true],
    ]);
    expect(calls.every((c) => c.runId === id && c.spanId && c.traceId && c.durationMs >= 0)).toBe(true);
    const started = calls.map((c) => c.startedAt.getTime());
    expect([...started].sort((a, b) => a - b)).toEqual(started);
    // No key or worker setting in the environment or the files of the step, and no way to Postgres or Redis.
    expect(JSON.stringify(calls[3]!.result)).toMatch(/alpha\\ngamma\\n0\\n0\\n0\\nPG-UNREACHABLE\\nREDIS-UNREACHABLE/);

    // What the agent reported streamed to the run as events, in order.
    const events = await stack.db.runEvent.findMany({ where: { runId: id, type: "agent.event" }, orderBy: { seq: "asc" } });
    const kinds = events.map((e) => (e.payload as { event: { type: string } }).event.type);
    expect(kinds[0]).toBe("session");
    expect(kinds.filter((k) => k === "tool_use")).toHaveLength(7);
    expect(kinds.filter((k) => k === "tool_result")).toHaveLength(7);
    expect(kinds.at(-1)).toBe("final");
    expect(events.every((e) => (e.payload as { stepRunId: string }).stepRunId === agent.id)).toBe(true);

    const stored = JSON.stringify([
      calls,
      events.map((e) => [e.type, e.payload]),
      await stack.db.span.findMany({ where: { runId: id } }),
      await stack.db.stepRun.findMany({ where: { runId: id } }),
      await stack.db.runEvent.findMany({ where: { runId: id }, select: { type: true, payload: true } }),
      await stack.db.run.findUnique({ where: { id } }),
    ]);
    expect(stored).not.toContain(KEY);
    expect(stack.worker.logs()).not.toContain(KEY);
  }, 300_000);

  const cmdline = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
    } catch {
      return "";
    }
  };

  it("a cancelled claude step leaves no process of its sandbox behind", async () => {
    const id = await start("claude-cancel", "WAIT-FOR-CANCEL");
    await waitFor(async () => (model.requests.some((r) => JSON.stringify(r.body).includes("WAIT-FOR-CANCEL")) ? true : undefined), 120_000, "the model request of the step");
    expect(processesOfRun(id).length).toBeGreaterThan(0);
    await caller().runs.cancel({ id });
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 60_000);
    expect(run.status).toBe("cancelled");
    const step = run.steps.find((s) => s.stateName === "agent");
    expect(step?.status, JSON.stringify([step?.errorCode, step?.errorMessage])).toBe("cancelled");
    expect(processesOfRun(id)).toEqual([]);
  }, 240_000);

  it("a proxy killed mid-call fails the step with a clear error and leaves nothing", async () => {
    const id = await start("claude-proxy-killed", "KILL-THE-PROXY");
    // The proxy's Bash command is running: kill the proxy under it.
    const sleepers = () => readdirSync("/proc").filter((pid) => /^\d+$/.test(pid) && cmdline(pid).includes(SLEEP));
    const sleeping = await waitFor(async () => sleepers()[0], 120_000, "the proxy's command");
    expect(sleeping).toBeDefined();
    const proxy = processesOfRun(id).find((pid) => cmdline(pid).includes("mcp-serve"));
    expect(proxy, processesOfRun(id).map(cmdline).join("\n")).toBeDefined();
    process.kill(Number(proxy), "SIGKILL");
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
    expect(run.status).toBe("failed");
    const step = run.steps.find((s) => s.stateName === "agent")!;
    expect(step.status).toBe("failed");
    expect(step.errorCode).toBe("EXECUTION.MCP_PROXY.UNAVAILABLE");
    expect(step.errorMessage).toMatch(/MCP proxy ended before the agent answered/);
    expect(processesOfRun(id)).toEqual([]);
    expect(sleepers()).toEqual([]);
  }, 240_000);
});
