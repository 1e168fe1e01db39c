/**
 * A CLI step stopped by its budget, through the real worker, the model gateway and Claude
 * Code: once the step's token limit is reached the gateway refuses the CLI's next model
 * request (403, USER.BUDGET.EXCEEDED, nothing sent upstream) and the step fails with
 * USER.BUDGET.EXCEEDED naming the limit, whatever the CLI made of the refusal.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { saveWorkflowVersion, sumSpend } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { CLI_ROWS } from "@switchyard/testing/agents";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli } from "./helpers/worker-process";

const row = CLI_ROWS.find((r) => r.agent === "claude")!;
const located = installedAgent("claude", (line) => console.log(`[budgets-cli] ${line}`));
let stack: RunStack | undefined;
let model: ScriptedModel | undefined;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = () => dashboardCaller({ ...stack!, keyring }, stack!.adminId);

beforeAll(async () => {
  if (!located) return;
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        {
          match: { messagesContain: "SPEND-TOKENS" },
          usage: { inputTokens: 3000, outputTokens: 500 },
          toolCalls: [
            { name: row.tool("Write"), arguments: { path: "spent.txt", content: "more\n" } },
          ],
        },
      ],
    },
  });
  stack = await openRunStack({
    SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
  });
  await caller().models.set({
    vendor: "anthropic",
    endpoint: model.url,
    apiKey: "sk-ant-team-budget-5c1d2e8f",
  });
}, 900_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await model?.close();
});

it.skipIf(!located)(
  "fails the step with USER.BUDGET.EXCEEDED once the gateway refuses the CLI's next request",
  async () => {
    const { workflowId } = await saveWorkflowVersion(stack!.db, {
      teamId: stack!.teamId,
      name: "claude-budget",
      files: {
        "workflow.yaml": `name: claude-budget
states:
  initial: agent
  agent:
    type: agent
    provider: claude
    prompt: SPEND-TOKENS
    options:
      model: ${row.model}
    budget: {tokens: 5000}
    timeout: 3m
    on_success: done
  done:
    type: terminal
    status: success
`,
      },
    });
    const { id } = await caller().runs.start({ workflowId });
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 240_000);
    const agent = run.steps.find((s) => s.stateName === "agent")!;
    expect(run.status).toBe("failed");
    expect(agent.errorCode, agent.errorMessage ?? "").toBe("USER.BUDGET.EXCEEDED");
    expect(agent.errorMessage).toContain('the token limit of 5000 set on step "agent" is reached');
    // Two requests reached the model (7000 tokens); the gateway refused the third.
    const spent = await sumSpend(stack!.db, stack!.teamId, { runId: id });
    const asked = model!.requests.filter((r) => JSON.stringify(r.body).includes("SPEND-TOKENS"));
    expect(asked).toHaveLength(2);
    expect(spent.tokens).toBe(7000);
  },
  300_000,
);
