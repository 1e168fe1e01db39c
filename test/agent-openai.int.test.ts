/**
 * The first end-to-end agent step: a real worker runs an openai_compatible agent step
 * against the scripted model on 127.0.0.1. The worker starts the step's `switchyard
 * mcp-serve` in the step's sandbox, the model Writes a file, Reads it and answers; every
 * call is a ToolCall row of the attempt (in order, source builtin, fidelity proxy), the key
 * (a team secret, `{{.env.MODEL_KEY}}`) is in no row, the next state reads the answer, and a
 * Read outside the workspace is a tool error the model is told about while the run succeeds.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { fingerprint, startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openAiAgentState } from "./helpers/agent-workflow";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, processesOfRun, waitFor } from "./helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

const KEY = "sk-model-key-5f0c2e7a9b13d4";

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
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [
        {
          expect: { toolOffered: ["Write", "Read"] },
          toolCalls: [
            {
              name: "Write",
              arguments: { path: "notes/hello.txt", content: "hello from the agent\n" },
            },
          ],
        },
        {
          expect: { lastToolResultContains: "hello.txt" },
          toolCalls: [{ name: "Read", arguments: { path: "notes/hello.txt" } }],
        },
        {
          expect: { lastToolResultContains: "hello from the agent" },
          toolCalls: [{ name: "Read", arguments: { path: "/etc/passwd" } }],
        },
        { text: "the file says hello" },
      ],
      rules: [
        { match: { messagesContain: "WAIT-FOR-CANCEL" }, delayMs: 120_000, text: "too late" },
        {
          match: { messagesContain: "RATE-LIMITED" },
          times: 1,
          error: { status: 429, headers: { "retry-after": "1" }, message: "slow down" },
        },
        { match: { messagesContain: "RATE-LIMITED" }, text: "answered after the wait" },
        {
          match: { messagesContain: "HUGE-OUTPUT" },
          times: 1,
          toolCalls: [
            { name: "Bash", arguments: { command: "head -c 200000 /dev/zero | tr '\\0' x" } },
          ],
        },
        { match: { messagesContain: "HUGE-OUTPUT" }, text: "read the marker" },
        {
          match: { messagesContain: "TOOL-SEARCH" },
          times: 1,
          toolCalls: [{ name: "tool_search", arguments: { query: "write" } }],
        },
        {
          match: { messagesContain: "TOOL-SEARCH" },
          times: 1,
          toolCalls: [
            { name: "Write", arguments: { path: "found.txt", content: "found by search\n" } },
          ],
        },
        { match: { messagesContain: "TOOL-SEARCH" }, times: 1, text: "wrote it" },
        {
          match: { messagesContain: "LOOP-FOREVER" },
          toolCalls: [{ name: "Glob", arguments: { pattern: "*" } }],
        },
      ],
    },
  });
  stack = await openRunStack({
    // The scripted model and test servers listen on loopback, which the allow-list names.
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    // The scripted model is priced here, over the built-in table.
    SWITCHYARD_MODEL_PRICES: JSON.stringify({ "scripted-1": { input: 2, output: 10 } }),
  });
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
}, 300_000);
afterAll(async () => {
  await closeRunStack(stack);
  await model?.close();
});

const WORKFLOW = (
  url: string,
  prompt = "Write notes/hello.txt, read it back and say what it says.",
) => `name: agent-oc
states:
  initial: agent
${openAiAgentState(url, prompt, "echo")}  echo:
    type: step
    command: echo "answer={{.states.agent.Output}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

it("runs the agent step through the sandboxed proxy and records its tool calls", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "agent-oc",
    files: { "workflow.yaml": WORKFLOW(model.url) },
  });
  const { id } = await caller().runs.start({ workflowId });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
  expect(
    run.status,
    JSON.stringify({
      run: [run.errorCode, run.errorMessage],
      steps: run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage, s.stderr]),
    }),
  ).toBe("succeeded");
  const agent = run.steps.find((s) => s.stateName === "agent")!;
  const echo = run.steps.find((s) => s.stateName === "echo")!;
  expect(agent.output).toBe("the file says hello");
  // Tokens as the endpoint reported them, priced by the worker's table.
  const row = await stack.db.stepRun.findFirstOrThrow({ where: { id: agent.id } });
  expect(row.inputTokens).toBeGreaterThan(0);
  expect(Number(row.costUsd)).toBeCloseTo(
    (row.inputTokens! * 2 + row.outputTokens! * 10) / 1_000_000,
    9,
  );
  expect(echo.stdout.trim()).toBe("answer=the file says hello");
  expect(model.failures).toEqual([]);
  // The key went to the model in the Authorization header only.
  expect(
    model.requests.every((r) =>
      r.auth.some((a) => a.header === "authorization" && a.fingerprint === fingerprint(KEY)),
    ),
  ).toBe(true);

  const calls = await listStepToolCalls(stack.db, stack.teamId, agent.id);
  expect(calls.map((c) => [c.toolName, c.source, c.fidelity, c.isError])).toEqual([
    ["Write", "builtin", "proxy", false],
    ["Read", "builtin", "proxy", false],
    ["Read", "builtin", "proxy", true],
  ]);
  expect(JSON.stringify(calls[1]!.result)).toContain("hello from the agent");
  expect(calls[2]!.arguments).toEqual({ path: "/etc/passwd" });
  expect(JSON.stringify(calls[2]!.result)).not.toContain("root:");
  expect(calls.every((c) => c.runId === id && c.spanId && c.traceId)).toBe(true);
  const spans = await stack.db.span.findMany({ where: { runId: id } });
  expect(spans.length).toBeGreaterThanOrEqual(3);

  // The key is in no row of the run.
  const stored = JSON.stringify([
    calls,
    spans,
    await stack.db.stepRun.findMany({ where: { runId: id } }),
    await stack.db.runEvent.findMany({
      where: { runId: id },
      select: { type: true, payload: true },
    }),
    await stack.db.run.findUnique({ where: { id } }),
  ]);
  expect(stored).not.toContain(KEY);
}, 180_000);

it("a cancelled agent step leaves no process of its sandbox behind", async () => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name: "agent-oc-cancel",
    files: {
      "workflow.yaml": WORKFLOW(model.url, "WAIT-FOR-CANCEL").replace(
        "name: agent-oc",
        "name: agent-oc-cancel",
      ),
    },
  });
  const { id } = await caller().runs.start({ workflowId });
  // The proxy runs in the step's sandbox (tagged under the run) while the model takes its time.
  await waitFor(
    async () => (processesOfRun(id).length > 0 ? true : undefined),
    60_000,
    "the step's proxy to start",
  );
  await waitFor(
    async () =>
      model.requests.some((r) => JSON.stringify(r.body).includes("WAIT-FOR-CANCEL"))
        ? true
        : undefined,
    60_000,
    "the model request of the step",
  );
  await caller().runs.cancel({ id });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 60_000);
  expect(
    run.status,
    JSON.stringify({
      run: [run.errorCode, run.errorMessage],
      steps: run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
    }),
  ).toBe("cancelled");
  const step = run.steps.find((s) => s.stateName === "agent");
  expect(step?.status, JSON.stringify([step?.errorCode, step?.errorMessage])).toBe("cancelled");
  expect(processesOfRun(id)).toEqual([]);
}, 120_000);

const runOf = async (name: string, prompt: string, url = model.url, mcpProxy = "") => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: {
      "workflow.yaml": WORKFLOW(url, prompt)
        .replace("name: agent-oc", `name: ${name}`)
        .replace("    timeout: 2m\n", `    timeout: 2m\n${mcpProxy}`),
    },
  });
  const { id } = await caller().runs.start({ workflowId });
  return runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
};

it("waits as a 429's Retry-After says and carries on", async () => {
  const before = model.requests.length;
  const run = await runOf("agent-oc-429", "RATE-LIMITED");
  expect(
    run.status,
    JSON.stringify(run.steps.map((s) => [s.stateName, s.errorCode, s.errorMessage])),
  ).toBe("succeeded");
  expect(run.steps.find((s) => s.stateName === "agent")?.output).toBe("answered after the wait");
  const mine = model.requests.slice(before);
  expect(mine.map((r) => r.status)).toEqual([429, 200]);
  expect(Date.parse(mine[1]!.at) - Date.parse(mine[0]!.at)).toBeGreaterThanOrEqual(900);
}, 180_000);

it("stops a model that never stops calling tools with USER.MCP_PROXY.INFINITE_LOOP_GUARD", async () => {
  const run = await runOf("agent-oc-loop", "LOOP-FOREVER");
  expect(run.status).toBe("failed");
  const step = run.steps.find((s) => s.stateName === "agent")!;
  expect(step.errorCode).toBe("USER.MCP_PROXY.INFINITE_LOOP_GUARD");
  // Every call the model made before the guard was recorded.
  const calls = await listStepToolCalls(stack.db, stack.teamId, step.id);
  expect(calls.length).toBeGreaterThanOrEqual(24);
  expect(calls.every((c) => c.toolName === "Glob")).toBe(true);
}, 180_000);

it("refuses a base_url outside the allowed endpoints: the worker never calls it", async () => {
  const pg = new URL(process.env.DATABASE_URL!);
  const before = model.requests.length;
  const run = await runOf("agent-oc-internal", "hello", `http://127.0.0.1:${pg.port || 5432}`);
  expect(run.status).toBe("failed");
  const step = run.steps.find((s) => s.stateName === "agent")!;
  expect(step.errorCode).toBe("USER.PROVIDER.ENDPOINT_NOT_ALLOWED");
  expect(model.requests.length).toBe(before);
}, 120_000);

it("records where the proxy kept a result too long for the model", async () => {
  const run = await runOf("agent-oc-huge", "HUGE-OUTPUT");
  expect(
    run.status,
    JSON.stringify(run.steps.map((s) => [s.stateName, s.errorCode, s.errorMessage])),
  ).toBe("succeeded");
  const step = run.steps.find((s) => s.stateName === "agent")!;
  const [call] = await listStepToolCalls(stack.db, stack.teamId, step.id);
  expect(call?.toolName).toBe("Bash");
  const cut = call?.resultCut as { bytes: number; file: string | null } | null;
  expect(cut?.file).toMatch(/^\.switchyard\/results\/[0-9a-f]+\.txt$/);
  expect(cut?.bytes).toBeGreaterThanOrEqual(200_000);
}, 120_000);

it("offers the tools its mcp_proxy block names, and activates one found by tool_search", async () => {
  const before = model.requests.length;
  const mcpProxy = "    mcp_proxy:\n      tool_search: true\n      initial_tools: [Read]\n";
  const run = await runOf("agent-oc-search", "TOOL-SEARCH", model.url, mcpProxy);
  expect(
    run.status,
    JSON.stringify(run.steps.map((s) => [s.stateName, s.errorCode, s.errorMessage])),
  ).toBe("succeeded");
  const offered = model.requests
    .slice(before)
    .map((r) =>
      ((r.body as { tools?: { function: { name: string } }[] }).tools ?? [])
        .map((t) => t.function.name)
        .sort(),
    );
  expect(offered[0]).toEqual(["Read", "call_tool", "tool_search"]);
  expect(offered[1]).toContain("Write");
  const step = run.steps.find((s) => s.stateName === "agent")!;
  const calls = await listStepToolCalls(stack.db, stack.teamId, step.id);
  expect(calls.map((c) => [c.toolName, c.isError])).toEqual([
    ["tool_search", false],
    ["Write", false],
  ]);
  expect(JSON.stringify(calls[0]!.result)).toContain("Write");
}, 120_000);
