/**
 * Codex steps end to end under the real worker: the pinned CLI (installed on demand into
 * the agents folder) runs in the step sandbox with no network, reaches the scripted model
 * (OpenAI Responses API) only through the worker's model gateway (per-step token in, the
 * team's OpenAI key from Settings → Models out), and its tools only through the step's
 * `switchyard mcp-serve`. Checked: the first model request offers the proxy's tools; the six built-ins
 * work and an escape is refused; ToolCall rows are complete and in order; the answer reaches
 * the next state; the key is in no row, event or log, nor in the step's environment or files.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

/** Written so no command of the test spells it whole. */
const KEY_HEAD = "sk-team";
const KEY = `${KEY_HEAD}-7c2a9e4d1b8f6035`;
const codex = installedAgent("codex", (line) => console.log(`[agent-codex] ${line}`));
const MODEL = "gpt-5-codex";
const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
const proxyTool = (name: string) => `mcp__switchyard__${name}`;
const PROBE = [
  "cat notes/a.txt",
  `env | grep -c '${KEY_HEAD}''-' || true`,
  `grep -rl '${KEY_HEAD}''-' "$HOME" /tmp 2>/dev/null | wc -l`,
].join("; ");

const WORKFLOW = `name: codex-tools
states:
  initial: agent
  agent:
    type: agent
    provider: codex
    prompt: Edit notes/a.txt and say what it holds.
    options:
      model: ${MODEL}
    output_format: json
    timeout: 3m
    on_success: echo
  echo:
    type: step
    command: echo "verdict={{.states.agent.Response.verdict}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

describe.skipIf(!codex)("codex agent steps in the worker", () => {
  let stack: RunStack;
  let model: ScriptedModel;
  const keyring = keyringOf(
    parseMasterKey(
      process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
      process.env.SWITCHYARD_MASTER_KEY ?? "",
    ),
  );
  const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

  beforeAll(async () => {
    buildSwitchyardCli();
    const call = (label: string, after: string, name: string, args: Record<string, unknown>) => ({
      label,
      expect: { lastToolResultContains: after },
      toolCalls: [{ name: proxyTool(name), arguments: args }],
    });
    model = await startScriptedModel({
      host: "127.0.0.1",
      script: {
        turns: [
          {
            label: "write",
            expect: { toolOffered: BUILTINS.map(proxyTool), model: MODEL },
            text: "Writing the notes.",
            toolCalls: [
              {
                name: proxyTool("Write"),
                arguments: { path: "notes/a.txt", content: "alpha\nbeta\n" },
              },
            ],
          },
          call("read", "notes/a.txt", "Read", { path: "notes/a.txt" }),
          call("edit", "alpha\nbeta", "Edit", { path: "notes/a.txt", old: "beta", new: "gamma" }),
          call("bash", "1 replacement", "Bash", { command: PROBE }),
          call("glob", "alpha\ngamma\n0\n0", "Glob", { pattern: "**/*.txt" }),
          call("grep", "notes/a.txt", "Grep", { pattern: "gam+a", output_mode: "content" }),
          call("escape", "notes/a.txt:2:gamma", "Read", { path: "../../../etc/passwd" }),
          {
            label: "answer",
            expect: { lastToolResultContains: "outside the workspace" },
            text: '{"verdict": "gamma", "files": 1}',
          },
        ],
      },
    });
    stack = await openRunStack({ SWITCHYARD_AGENTS_DIR: AGENTS_DIR, SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW });
    await caller().models.set({ vendor: "openai", endpoint: `${model.url}/v1`, apiKey: KEY });
  }, 900_000);
  afterAll(async () => {
    if (stack) await closeRunStack(stack);
    await model?.close();
  });

  it("runs Codex in the step sandbox through the gateway and the proxy, and records every call", async () => {
    const { workflowId } = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "codex-tools",
      files: { "workflow.yaml": WORKFLOW },
    });
    const id = (await caller().runs.start({ workflowId })).id;
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 240_000);
    const trace = JSON.stringify({
      run: [run.errorCode, run.errorMessage],
      steps: run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
      failures: model.failures,
    });
    expect(run.status, trace).toBe("succeeded");
    expect(model.failures).toEqual([]);
    const agent = run.steps.find((s) => s.stateName === "agent")!;
    expect(JSON.parse(agent.output)).toEqual({ verdict: "gamma", files: 1 });
    expect(run.steps.find((s) => s.stateName === "echo")!.stdout.trim()).toBe("verdict=gamma");

    const row = await stack.db.stepRun.findFirstOrThrow({ where: { id: agent.id } });
    expect(row.inputTokens).toBeGreaterThan(0);
    expect(row.outputTokens).toBeGreaterThan(0);
    expect(row.agentSessionId).toMatch(/^[0-9a-f-]{36}$/);

    // The team's key went upstream, put there by the gateway; never the CLI's token.
    const asked = model.requests.filter((r) => r.api === "openai-responses");
    expect(asked.length).toBe(8);
    expect(
      asked.every((r) => r.auth.length === 1 && r.auth[0]!.fingerprint === fingerprint(KEY)),
    ).toBe(true);

    const calls = await listStepToolCalls(stack.db, stack.teamId, agent.id);
    expect(calls.map((c) => [c.toolName, c.source, c.fidelity, c.isError])).toEqual(
      ["Write", "Read", "Edit", "Bash", "Glob", "Grep", "Read"].map((name, i) => [
        name,
        "builtin",
        "proxy",
        i === 6,
      ]),
    );
    const started = calls.map((c) => c.startedAt.getTime());
    expect([...started].sort((a, b) => a - b)).toEqual(started);
    expect(JSON.stringify(calls[3]!.result)).toMatch(/alpha\\ngamma\\n0\\n0/);

    const stored = JSON.stringify([
      calls,
      await stack.db.span.findMany({ where: { runId: id } }),
      await stack.db.stepRun.findMany({ where: { runId: id } }),
      await stack.db.runEvent.findMany({
        where: { runId: id },
        select: { type: true, payload: true },
      }),
      await stack.db.run.findUnique({ where: { id } }),
    ]);
    expect(stored).not.toContain(KEY);
    expect(stack.worker.logs()).not.toContain(KEY);
  }, 300_000);
});
