/**
 * What a team sees when a claude step cannot start, under the real worker: without an
 * Anthropic key in Settings → Models the step fails with USER.PROVIDER.NOT_CONFIGURED saying
 * where to set one; with a key but no Claude Code installed it fails with
 * EXECUTION.AGENT_UNAVAILABLE naming the command that installs it. Neither leaves a process.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { saveWorkflowVersion } from "@switchyard/db";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { processesOfRun } from "./helpers/worker-process";

let stack: RunStack;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

beforeAll(async () => {
  stack = await openRunStack({ SWITCHYARD_AGENTS_DIR: "/nonexistent/agents" });
}, 120_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
});

const runClaudeStep = async (name: string) => {
  const { workflowId } = await saveWorkflowVersion(stack.db, {
    teamId: stack.teamId,
    name,
    files: {
      "workflow.yaml": `name: ${name}
states:
  initial: agent
  agent: { type: agent, provider: claude, prompt: hi, on_success: done }
  done: { type: terminal }
`,
    },
  });
  const { id } = await caller().runs.start({ workflowId });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 60_000);
  expect(run.status).toBe("failed");
  expect(processesOfRun(id)).toEqual([]);
  return run.steps.find((s) => s.stateName === "agent")!;
};

it("fails with USER.PROVIDER.NOT_CONFIGURED until the team has an Anthropic key", async () => {
  const step = await runClaudeStep("no-key");
  expect(step.errorCode).toBe("USER.PROVIDER.NOT_CONFIGURED");
  expect(step.errorMessage).toContain("Settings → Models");
});

it("fails with EXECUTION.AGENT_UNAVAILABLE naming the install command when Claude Code is missing", async () => {
  await caller().models.set({ vendor: "anthropic", apiKey: "sk-ant-unused-0123456789" });
  const step = await runClaudeStep("no-cli");
  expect(step.errorCode).toBe("EXECUTION.AGENT_UNAVAILABLE");
  expect(step.errorMessage).toContain("npm run agents:install -- --only claude");
});
