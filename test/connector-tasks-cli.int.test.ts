/**
 * A long connector call under a real agent CLI's own tool timeout: Claude Code, against the
 * scripted model, calls the `report` tool of a server on the v2 server SDK that runs it as
 * a task taking longer than the step's `tool_timeout`. Claude Code gives up on the call at
 * that timeout (the step's field is what it waits, not the default of the hold limit plus
 * margin), the model asks again, and the second call follows the same task at the server
 * to its result: the agent ends with the tool's result and the server ran the tool once.
 */
import { parseEgressAllowList } from "@switchyard/core/egress";
import { CLI_PROVIDERS } from "@switchyard/core/providers";
import { connectorTasksOfRun, listStepToolCalls, saveWorkflowVersion } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { CLI_ROWS } from "@switchyard/testing/agents";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { startTaskServer } from "./helpers/task-server";
import { buildSwitchyardCli } from "./helpers/worker-process";

const row = CLI_ROWS.find((r) => r.agent === "claude")!;
const located = installedAgent(row.agent, (line) => console.log(`[connector-tasks-cli] ${line}`));
const keyring = environmentKeyring();
/** The task runs 22 s; Claude Code waits 12 s for a call (the step's tool_timeout). */
const TASK_MS = 22_000;
const ARGS = { ms: TASK_MS, topic: "cut" };

/** The model asks for the report until its result reached it, then ends with it. */
const RULES = [
  { match: { messagesContain: `report for cut after ${TASK_MS} ms` }, text: "REPORT-IN" },
  {
    match: { messagesContain: "CUT-REPORT" },
    times: 4,
    toolCalls: [{ name: row.tool("reports_report"), arguments: ARGS }],
  },
];
const WORKFLOW = `name: cli-tool-timeout
states:
  initial: agent
  agent:
    type: agent
    provider: claude
    prompt: CUT-REPORT fetch the quarterly report
    options: { model: ${row.model} }
    tool_timeout: 12s
    timeout: 4m
    mcp_proxy: { connectors: [reports] }
    on_success: done
  done: { type: terminal, status: success }
`;

let stack: RunStack | undefined;
let model: ScriptedModel | undefined;
let server: Awaited<ReturnType<typeof startTaskServer>> | undefined;
const caller = () =>
  dashboardCaller(
    { ...stack!, keyring, egress: webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW)) },
    stack!.adminId,
  );

beforeAll(async () => {
  if (!located) return;
  buildSwitchyardCli();
  model = await startScriptedModel({ host: "127.0.0.1", script: { turns: [], rules: RULES } });
  server = await startTaskServer();
  stack = await openRunStack({
    SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    // A held call's floor (hold + 10 s) stays under the step's tool_timeout.
    SWITCHYARD_APPROVAL_HOLD_MS: "1000",
  });
  await caller().models.set({
    vendor: CLI_PROVIDERS.claude!.cli.vendor,
    endpoint: model.url,
    apiKey: "sk-connector-tasks-cli-8d2f6a1e",
  });
  await caller().connectors.create({ definition: server.connector });
}, 900_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
  server?.close();
});

it.skipIf(!located)(
  "a call longer than the step's tool_timeout is given up by Claude Code, and its retry follows the same task to the result",
  async () => {
    const s = stack!;
    const before = (await server!.tasks()).length;
    const saved = await saveWorkflowVersion(s.db, {
      teamId: s.teamId,
      name: "cli-tool-timeout",
      files: { "workflow.yaml": WORKFLOW },
    });
    const { id } = await caller().runs.start({ workflowId: saved.workflowId });
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 300_000);
    expect(
      run.status,
      JSON.stringify([run.errorCode, run.errorMessage, model!.failures, s.worker.logs()]),
    ).toBe("succeeded");
    const attempt = run.steps.find((x) => x.stateName === "agent")!;
    expect(attempt.output).toContain("REPORT-IN");

    // Claude Code gave up on the first call at the step's tool_timeout and asked again; a
    // later call got the tool's result.
    const calls = (await listStepToolCalls(s.db, s.teamId, attempt.id)).filter(
      (c) => c.toolName === "reports_report",
    );
    expect(calls.length, JSON.stringify(calls)).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(calls.at(-1)!.result)).toContain(`report for cut after ${TASK_MS} ms`);
    expect(JSON.stringify(calls[0]!.result ?? null)).not.toContain("report for cut");

    // The server ran the tool once: every call after the first followed its task.
    const made = (await server!.tasks()).slice(before);
    expect(made.map((t) => [t.status, t.args.topic])).toEqual([["completed", "cut"]]);
    const rows = await connectorTasksOfRun(s.db, s.teamId, id);
    expect(rows.map((r) => [r.taskId, r.status])).toEqual([[made[0]!.taskId, "completed"]]);
  },
  400_000,
);
