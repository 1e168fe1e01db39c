/**
 * OpenCode steps under the real worker: the pinned CLI runs in the step sandbox with no
 * network, its model (the scripted OpenAI Chat Completions API) reached only through the
 * worker's gateway (the step's token in, the team's OpenAI key from Settings → Models out)
 * and its tools only through the step's `switchyard mcp-serve`. Checked: every model request
 * offers the proxy's six built-ins and nothing of OpenCode's own; the calls work, the escape
 * is refused, and each is a ToolCall row, in order; the answer reaches the next state; the
 * key is in no row, event or log, nor in the step's environment or files.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { fingerprint, startScriptedModel, type ScriptedModel, type Turn } from "@switchyard/scripted-model";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

const KEY_HEAD = "sk-oc-team";
/** Split so that no command of the test holds it whole. */
const KEY = `${KEY_HEAD}-4b9e0d2c7a1f5386`;
const opencode = installedAgent("opencode", (line) => console.log(`[agent-opencode] ${line}`));
const TOOLS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"].map((t) => `switchyard_${t}`);
const SNOOP = `cat notes/a.txt; env | grep -c '${KEY_HEAD}''-' || true; grep -rl '${KEY_HEAD}''-' "$HOME" /tmp 2>/dev/null | wc -l`;

/** [label, the previous result holds, tool, arguments]: each a turn of the script. */
const CALLS: [string, string | undefined, string, Record<string, unknown>][] = [
  ["write", undefined, "Write", { path: "notes/a.txt", content: "alpha\nbeta\n" }],
  ["read", "notes/a.txt", "Read", { path: "notes/a.txt" }],
  ["edit", "alpha\nbeta", "Edit", { path: "notes/a.txt", old: "beta", new: "gamma" }],
  ["bash", "1 replacement", "Bash", { command: SNOOP }],
  ["glob", "alpha\ngamma\n0\n0", "Glob", { pattern: "**/*.txt" }],
  ["grep", "notes/a.txt", "Grep", { pattern: "gam+a", output_mode: "content" }],
  ["escape", "notes/a.txt:2:gamma", "Read", { path: "../../../etc/passwd" }],
];

const WORKFLOW = `name: opencode-tools
states:
  initial: agent
  agent:
    type: agent
    provider: opencode
    prompt: Edit notes/a.txt and say what it holds.
    options:
      model: gpt-4.1
    output_format: json
    timeout: 4m
    on_success: echo
  echo:
    type: step
    command: echo "verdict={{.states.agent.Response.verdict}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

describe.skipIf(!opencode)("opencode agent steps in the worker", () => {
  let stack: RunStack;
  let model: ScriptedModel;
  const masterKey = parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  );
  const caller = () => dashboardCaller({ ...stack, keyring: keyringOf(masterKey) }, stack.adminId);

  beforeAll(async () => {
    buildSwitchyardCli();
    const turns: Turn[] = CALLS.map(([label, after, name, args]) => ({
      label,
      expect:
        after === undefined
          ? { toolOffered: TOOLS, model: "gpt-4.1" }
          : { lastToolResultContains: after },
      toolCalls: [{ name: `switchyard_${name}`, arguments: args }],
    }));
    turns.push({
      label: "answer",
      expect: { lastToolResultContains: "outside the workspace" },
      text: '{"verdict": "gamma", "files": 1}',
    });
    model = await startScriptedModel({ host: "127.0.0.1", script: { turns } });
    stack = await openRunStack({ SWITCHYARD_AGENTS_DIR: AGENTS_DIR, SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW });
    await caller().models.set({ vendor: "openai", endpoint: `${model.url}/v1`, apiKey: KEY });
  }, 900_000);
  afterAll(async () => {
    if (stack) await closeRunStack(stack);
    await model?.close();
  });

  it("runs OpenCode in the step sandbox through the gateway and the proxy, and records every call", async () => {
    const saved = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "opencode-tools",
      files: { "workflow.yaml": WORKFLOW },
    });
    const id = (await caller().runs.start({ workflowId: saved.workflowId })).id;
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 300_000);
    const agent = run.steps.find((s) => s.stateName === "agent");
    const why = JSON.stringify({
      run: [run.errorCode, run.errorMessage],
      agent,
      failures: model.failures,
    });
    expect(run.status, why).toBe("succeeded");
    expect(model.failures).toEqual([]);
    expect(JSON.parse(agent!.output)).toEqual({ verdict: "gamma", files: 1 });
    expect(run.steps.find((s) => s.stateName === "echo")!.stdout.trim()).toBe("verdict=gamma");
    const step = await stack.db.stepRun.findFirstOrThrow({ where: { id: agent!.id } });
    expect([step.inputTokens! > 0, step.outputTokens! > 0]).toEqual([true, true]);
    expect(step.agentSessionId).toMatch(/^ses_\w+$/);

    // Each request carried the team's key (the gateway's swap) and offered only the proxy's tools.
    const chats = model.requests.filter((r) => r.api === "openai-chat");
    expect(chats).toHaveLength(8);
    for (const chat of chats) {
      expect(chat.auth.map((a) => a.fingerprint)).toEqual([fingerprint(KEY)]);
      expect(chat.view!.tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    }

    const calls = await listStepToolCalls(stack.db, stack.teamId, agent!.id);
    expect(calls.map((c) => `${c.toolName} ${c.source} ${c.fidelity} ${c.isError}`)).toEqual(
      CALLS.map(([label, , name]) => `${name} builtin proxy ${label === "escape"}`),
    );
    const order = calls.map((c) => c.startedAt.getTime());
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(JSON.stringify(calls[3]!.result)).toMatch(/alpha\\ngamma\\n0\\n0/);

    const everything = JSON.stringify({
      calls,
      spans: await stack.db.span.findMany({ where: { runId: id } }),
      steps: await stack.db.stepRun.findMany({ where: { runId: id } }),
      events: await stack.db.runEvent.findMany({
        where: { runId: id },
        select: { type: true, payload: true },
      }),
      run: await stack.db.run.findUnique({ where: { id } }),
    });
    expect(everything).not.toContain(KEY);
    expect(stack.worker.logs()).not.toContain(KEY);
  }, 360_000);
});
