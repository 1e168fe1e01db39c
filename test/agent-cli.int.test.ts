/**
 * Every agent CLI's steps end to end under the real worker, one row each (CLI_ROWS says what
 * differs): the pinned CLI (installed on demand into the agents folder) runs in the step
 * sandbox with no network, reaches the scripted model only through the worker's model
 * gateway (per-step token in, the team's key for the CLI's vendor from Settings → Models
 * out), and its tools only through the step's `switchyard mcp-serve`. Checked for each: every
 * model request offers the proxy's tools; the six built-ins work and an escape is refused;
 * ToolCall rows are complete and ordered; the gateway's metered tokens and cost land on the
 * step; the agent's events stream to the run; `.Output` and `.Response` reach the next state;
 * the key is in no row, event, log, environment or file of the step; the step cannot reach
 * Postgres or Redis; cancel mid-step and a proxy SIGKILLed mid-call leave no process and a
 * clear error.
 */
import { readdirSync, readFileSync } from "node:fs";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import type { Vendor } from "@switchyard/core/gateway";
import { CLI_PROVIDERS } from "@switchyard/core/providers";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  CLI_ROWS,
  expectedTools,
  offeredTools,
  VENDOR_AUTH,
  type CliRow,
} from "@switchyard/testing/agents";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, processesOfRun, waitFor } from "./helpers/worker-process";

const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
/** The start of each vendor's team key, written so no command of the test spells a key whole. */
const KEY_HEAD: Record<Vendor, string> = {
  anthropic: "sk-ant-team",
  openai: "sk-team",
  gemini: "AIza-team",
};
const PG_PORT = new URL(process.env.DATABASE_URL!).port || "5432";
const REDIS_PORT = new URL(process.env.REDIS_URL!).port || "6379";
const PROBE_SAYS = "alpha\ngamma\n0\n0\n0\nPG-UNREACHABLE\nREDIS-UNREACHABLE";

/** What the step's Bash shows: the file, then no key and no worker setting in its environment or files, and no way to Postgres or Redis. */
const probe = (keyHead: string) =>
  [
    "cat notes/a.txt",
    `env | grep -c '${keyHead}''-' || true`,
    `grep -rl '${keyHead}''-' "$HOME" /tmp 2>/dev/null | wc -l`,
    "env | grep -c -e DATABASE_URL -e REDIS_URL -e MASTER_KEY || true",
    `timeout 3 bash -c 'echo > /dev/tcp/127.0.0.1/${PG_PORT}' 2>/dev/null && echo PG-REACHED || echo PG-UNREACHABLE`,
    `timeout 3 bash -c 'echo > /dev/tcp/127.0.0.1/${REDIS_PORT}' 2>/dev/null && echo REDIS-REACHED || echo REDIS-UNREACHABLE`,
  ].join("; ");

/** The row's script: the six built-ins and the escape, then a JSON answer; a step that waits for its cancel, and one whose proxy is killed under a long Bash call. */
const scriptOf = (row: CliRow, keyHead: string, sleep: string) => {
  const tool = row.tool;
  const call = (label: string, after: string, name: string, args: Record<string, unknown>) => ({
    label,
    expect: { lastToolResultContains: after },
    toolCalls: [{ name: tool(name), arguments: args }],
  });
  return {
    turns: [
      {
        label: "write",
        expect: { toolOffered: BUILTINS.map(tool), model: row.model },
        text: "Writing the notes.",
        toolCalls: [
          { name: tool("Write"), arguments: { path: "notes/a.txt", content: "alpha\nbeta\n" } },
        ],
      },
      call("read", "notes/a.txt", "Read", { path: "notes/a.txt" }),
      call("edit", "alpha\nbeta", "Edit", { path: "notes/a.txt", old: "beta", new: "gamma" }),
      call("bash", "1 replacement", "Bash", { command: probe(keyHead) }),
      call("glob", PROBE_SAYS, "Glob", { pattern: "**/*.txt" }),
      call("grep", "notes/a.txt", "Grep", { pattern: "gam+a", output_mode: "content" }),
      call("escape", "notes/a.txt:2:gamma", "Read", { path: "../../../etc/passwd" }),
      {
        label: "answer",
        expect: { lastToolResultContains: "outside the workspace" },
        text: '{"verdict": "gamma", "files": 1}',
      },
    ],
    rules: [
      { match: { messagesContain: "WAIT-FOR-CANCEL" }, delayMs: 120_000, text: "too late" },
      {
        match: { messagesContain: "KILL-THE-PROXY" },
        times: 1,
        toolCalls: [{ name: tool("Bash"), arguments: { command: sleep } }],
      },
      { match: { messagesContain: "KILL-THE-PROXY" }, delayMs: 120_000, text: "too late" },
      // A step without a model: Write through the proxy, then answer.
      {
        match: { messagesContain: "NO-MODEL-STEP" },
        times: 1,
        toolCalls: [{ name: tool("Write"), arguments: { path: "notes/b.txt", content: "beta\n" } }],
      },
      { match: { messagesContain: "NO-MODEL-STEP" }, text: '{"verdict": "default", "files": 1}' },
    ],
  };
};

/** `model` null: the step names none, and the CLI picks its own. */
const workflowOf = (
  row: CliRow,
  name: string,
  prompt: string,
  model: string | null,
) => `name: ${name}
states:
  initial: agent
  agent:
    type: agent
    provider: ${row.agent}
    prompt: ${prompt}
    options:${model === null ? " {}" : `\n      model: ${model}`}
    output_format: json
    timeout: ${row.limits.startsSlowly ? "4m" : "3m"}
    on_success: echo
  echo:
    type: step
    command: echo "verdict={{.states.agent.Response.verdict}} tokens={{.states.agent.TokensUsed}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

const readFileSafe = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};
const cmdline = (pid: string) => readFileSafe(`/proc/${pid}/cmdline`).split("\0").join(" ");
const parentOf = (pid: string) => /^PPid:\s+(\d+)/m.exec(readFileSafe(`/proc/${pid}/status`))?.[1];

/**
 * The run's sandbox processes and everything under them: a CLI may start its MCP server with
 * an environment of its own (Codex keeps only a few variables), without the sandbox's owner tag.
 */
const processTreeOfRun = (runId: string) => {
  const tree = new Set(processesOfRun(runId));
  const all = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  for (let grown = true; grown;) {
    grown = false;
    for (const pid of all) {
      const parent = parentOf(pid);
      if (!tree.has(pid) && parent !== undefined && tree.has(parent)) {
        tree.add(pid);
        grown = true;
      }
    }
  }
  return [...tree];
};

let stack: RunStack | undefined;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = () => dashboardCaller({ ...stack!, keyring }, stack!.adminId);

/** The one way the suite reaches the agent executor: a run of the row's workflow, started as the dashboard starts it. */
const startRun = async (
  row: CliRow,
  name: string,
  prompt: string,
  model: string | null = row.model,
) => {
  const files = { "workflow.yaml": workflowOf(row, name, prompt, model) };
  const { workflowId } = await saveWorkflowVersion(stack!.db, {
    teamId: stack!.teamId,
    name,
    files,
  });
  return (await caller().runs.start({ workflowId })).id;
};

beforeAll(async () => {
  buildSwitchyardCli();
  stack = await openRunStack({
    SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
  });
}, 900_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
});

describe.each(CLI_ROWS.map((row) => [row.agent, row] as const))(
  "%s agent steps in the worker",
  (_, row) => {
    const located = installedAgent(row.agent, (line) =>
      console.log(`[agent-cli ${row.agent}] ${line}`),
    );
    const vendor = CLI_PROVIDERS[row.agent]!.cli.vendor;
    const keyHead = KEY_HEAD[vendor];
    const key = `${keyHead}-${row.agent}-7d1e4c9a2b58f3e6`;
    const sleep = `sleep 47.${Math.floor(Math.random() * 9000) + 1000}`;
    const runMs = row.limits.startsSlowly ? 300_000 : 240_000;
    let model: ScriptedModel | undefined;

    beforeAll(async () => {
      if (!located) return;
      model = await startScriptedModel({
        host: "127.0.0.1",
        script: scriptOf(row, keyHead, sleep),
      });
      const endpoint = vendor === "openai" ? `${model.url}/v1` : model.url;
      await caller().models.set({ vendor, endpoint, apiKey: key });
    }, 900_000);
    afterAll(async () => {
      await model?.close();
    });

    it.skipIf(!located)(
      "runs the CLI in the step sandbox through the gateway and the proxy, and records every call",
      async () => {
        const asked = model!.requests.length;
        const id = await startRun(
          row,
          `${row.agent}-tools`,
          "Edit notes/a.txt and say what it holds.",
        );
        const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, runMs);
        const trace = JSON.stringify({
          run: [run.errorCode, run.errorMessage],
          steps: run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
          failures: model!.failures,
        });
        expect(run.status, trace).toBe("succeeded");
        expect(model!.failures).toEqual([]);
        const agent = run.steps.find((s) => s.stateName === "agent")!;
        const echo = run.steps.find((s) => s.stateName === "echo")!;
        expect(JSON.parse(agent.output)).toEqual({ verdict: "gamma", files: 1 });

        // Tokens and cost are the gateway's meter (every row's model is priced).
        const metered = await stack!.db.stepRun.findFirstOrThrow({ where: { id: agent.id } });
        expect(metered.inputTokens).toBeGreaterThan(0);
        expect(metered.outputTokens).toBeGreaterThan(0);
        expect(Number(metered.costUsd)).toBeGreaterThan(0);
        expect(metered.agentSessionId).toMatch(row.sessionId);
        expect(echo.stdout.trim()).toBe(
          `verdict=gamma tokens=${metered.inputTokens! + metered.outputTokens!}`,
        );

        // Each request went to the vendor's API with the team's key, put there by the gateway
        // (never the CLI's token), and offered the proxy's tools and nothing of the CLI's own it can switch off.
        const requests = model!.requests.slice(asked);
        expect(requests.map((q) => q.api)).toEqual(Array(8).fill(row.api));
        for (const q of requests) {
          expect(q.auth).toEqual([{ ...VENDOR_AUTH[vendor], fingerprint: fingerprint(key) }]);
          expect(offeredTools(q)).toEqual(expectedTools(row, BUILTINS));
        }

        const calls = await listStepToolCalls(stack!.db, stack!.teamId, agent.id);
        expect(calls.map((c) => [c.toolName, c.source, c.fidelity, c.isError])).toEqual(
          ["Write", "Read", "Edit", "Bash", "Glob", "Grep", "Read"].map((name, i) => [
            name,
            "builtin",
            "proxy",
            i === 6,
          ]),
        );
        expect(
          calls.every((c) => c.runId === id && c.spanId && c.traceId && c.durationMs >= 0),
        ).toBe(true);
        const started = calls.map((c) => c.startedAt.getTime());
        expect([...started].sort((a, b) => a - b)).toEqual(started);
        expect(JSON.stringify(calls[3]!.result)).toContain(JSON.stringify(PROBE_SAYS).slice(1, -1));

        // What the agent reported streamed to the run as events, in order.
        const events = await stack!.db.runEvent.findMany({
          where: { runId: id, type: "agent.event" },
          orderBy: { seq: "asc" },
        });
        const kinds = events.map((e) => (e.payload as { event: { type: string } }).event.type);
        expect(kinds[0]).toBe("session");
        expect(kinds.filter((k) => k === "tool_use")).toHaveLength(7);
        expect(kinds.filter((k) => k === "tool_result")).toHaveLength(7);
        expect(kinds.at(-1)).toBe("final");
        expect(
          events.every((e) => (e.payload as { stepRunId: string }).stepRunId === agent.id),
        ).toBe(true);

        const stored = JSON.stringify([
          calls,
          await stack!.db.span.findMany({ where: { runId: id } }),
          await stack!.db.stepRun.findMany({ where: { runId: id } }),
          await stack!.db.runEvent.findMany({
            where: { runId: id },
            select: { type: true, payload: true },
          }),
          await stack!.db.run.findUnique({ where: { id } }),
        ]);
        expect(stored).not.toContain(key);
        expect(stack!.worker.logs()).not.toContain(key);
      },
      runMs + 60_000,
    );

    // Registered only for a CLI whose row says what it asks for without a model.
    const withoutModel = row.withoutModel;
    if (withoutModel)
      it.skipIf(!located)(
        `runs a step that names no model with the CLI's default (${withoutModel.model}) and records its call`,
        async () => {
          const asked = model!.requests.length;
          const id = await startRun(row, `${row.agent}-no-model`, "NO-MODEL-STEP", null);
          const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, runMs);
          const agent = run.steps.find((s) => s.stateName === "agent");
          const trace = JSON.stringify([run.errorMessage, agent?.errorMessage, model!.failures]);
          expect(run.status, trace).toBe("succeeded");
          expect(JSON.parse(agent!.output)).toEqual({ verdict: "default", files: 1 });
          const calls = await listStepToolCalls(stack!.db, stack!.teamId, agent!.id);
          expect(calls.map((c) => [c.toolName, c.source, c.fidelity, c.isError])).toEqual([
            ["Write", "builtin", "proxy", false],
          ]);
          const requests = model!.requests.slice(asked);
          expect(requests.map((q) => [q.api, q.view!.model])).toEqual(
            Array(2).fill([row.api, withoutModel.model]),
          );
          for (const q of requests)
            expect(offeredTools(q)).toEqual(
              [...BUILTINS.map(row.tool), ...withoutModel.ownTools].sort(),
            );
        },
        runMs + 60_000,
      );

    it.skipIf(!located)(
      "a cancelled step leaves no process of its sandbox behind",
      async () => {
        const id = await startRun(row, `${row.agent}-cancel`, "WAIT-FOR-CANCEL");
        const waiting = async () =>
          model!.requests.some((r) => JSON.stringify(r.body).includes("WAIT-FOR-CANCEL"))
            ? true
            : undefined;
        await waitFor(waiting, runMs / 2, "the model request of the step");
        expect(processesOfRun(id).length).toBeGreaterThan(0);
        await caller().runs.cancel({ id });
        const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 60_000);
        expect(run.status).toBe("cancelled");
        const step = run.steps.find((s) => s.stateName === "agent");
        expect(step?.status, JSON.stringify([step?.errorCode, step?.errorMessage])).toBe(
          "cancelled",
        );
        expect(processesOfRun(id)).toEqual([]);
      },
      runMs,
    );

    it.skipIf(!located)(
      "a proxy killed mid-call fails the step with a clear error and leaves nothing",
      async () => {
        const id = await startRun(row, `${row.agent}-proxy-killed`, "KILL-THE-PROXY");
        // The proxy's Bash command is running: kill the proxy under it.
        const sleepers = () =>
          readdirSync("/proc").filter((pid) => /^\d+$/.test(pid) && cmdline(pid).includes(sleep));
        const sleeper = await waitFor(async () => sleepers()[0], runMs / 2, "the proxy's command");
        // The proxy is the command's nearest ancestor that is `mcp-serve` (never a sandbox's
        // init above it, whose end would take the CLI with it).
        let proxy: string | undefined = sleeper;
        while (proxy && !/switchyard\.mjs mcp-serve/.test(cmdline(proxy))) proxy = parentOf(proxy);
        expect(proxy, processTreeOfRun(id).map(cmdline).join("\n")).toBeDefined();
        process.kill(Number(proxy), "SIGKILL");
        const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
        expect(run.status).toBe("failed");
        const step = run.steps.find((s) => s.stateName === "agent")!;
        expect(step.status).toBe("failed");
        expect(step.errorCode, step.errorMessage ?? "").toBe("EXECUTION.MCP_PROXY.UNAVAILABLE");
        expect(step.errorMessage).toMatch(/MCP proxy ended before the agent answered/);
        expect(processesOfRun(id)).toEqual([]);
        expect(sleepers()).toEqual([]);
      },
      runMs,
    );
  },
);
