/**
 * Each agent CLI through the whole approval path under the real worker (docs/governance.md),
 * once: the lane's rule holds the agent's Write past the hold limit, so the step is suspended
 * (the CLI stopped, its own session files sealed with the run, the workspace kept) and the run
 * waits holding no process and no worker. The worker is replaced; the approval lets the new
 * one resume the run: the held call runs through the step's proxy, the CLI resumes its own
 * session with the call's outcome as its next turn, and the step finishes in the same attempt
 * row. The variations (approved while held, denied, other arguments) are run on
 * openai_compatible (approvals-openai.int.test.ts).
 */
import { CLI_PROVIDERS } from "@switchyard/core/providers";
import { listStepToolCalls, saveWorkflowVersion, sumSpend } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { CLI_ROWS, type CliRow } from "@switchyard/testing/agents";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS_DIR, installedAgent } from "./helpers/agent-cli";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, processesOfRun, startWorker, waitFor } from "./helpers/worker-process";

let stack: RunStack | undefined;
let workerEnv: Record<string, string>;
const keyring = environmentKeyring();
const caller = () => dashboardCaller({ ...stack!, keyring }, stack!.adminId);

beforeAll(async () => {
  buildSwitchyardCli();
  workerEnv = {
    SWITCHYARD_AGENTS_DIR: AGENTS_DIR,
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_APPROVAL_HOLD_MS: "2000",
  };
  stack = await openRunStack(workerEnv);
  await stack.db.lane.updateMany({
    where: { teamId: stack.teamId, name: "default" },
    data: { approvalRules: [{ tool: "Write" }] },
  });
}, 900_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
});

const workflowOf = (row: CliRow, name: string) => `name: ${name}
states:
  initial: agent
  agent:
    type: agent
    provider: ${row.agent}
    prompt: PARK-${row.agent} write notes/held.txt
    options:
      model: ${row.model}
    timeout: 4m
    on_success: show
  show:
    type: step
    command: cat notes/held.txt
    on_success: done
  done:
    type: terminal
    status: success
`;

describe.each(CLI_ROWS.map((row) => [row.agent, row] as const))(
  "%s suspended on a held call and resumed",
  (_, row) => {
    const located = installedAgent(row.agent, (line) =>
      console.log(`[approvals-cli ${row.agent}] ${line}`),
    );
    const vendor = CLI_PROVIDERS[row.agent]!.cli.vendor;
    let model: ScriptedModel | undefined;
    beforeAll(async () => {
      if (!located) return;
      model = await startScriptedModel({
        host: "127.0.0.1",
        script: {
          turns: [],
          rules: [
            // The resumed session's turn: the held call's outcome, then the answer.
            {
              match: { messagesContain: "was approved; it ran and returned" },
              text: `resumed ${row.agent}`,
            },
            {
              match: { messagesContain: `PARK-${row.agent}` },
              times: 1,
              toolCalls: [
                {
                  name: row.tool("Write"),
                  arguments: { path: "notes/held.txt", content: `approved for ${row.agent}\n` },
                },
              ],
            },
          ],
        },
      });
      await caller().models.set({
        vendor,
        endpoint: vendor === "openai" ? `${model.url}/v1` : model.url,
        apiKey: `sk-approvals-${row.agent}-4b7e91c2`,
      });
    }, 900_000);
    afterAll(async () => {
      await model?.close();
    });

    it.skipIf(!located)(
      "parks the run, keeps its session, and resumes it on another worker after the approval",
      async () => {
        const s = stack!;
        const { workflowId } = await saveWorkflowVersion(s.db, {
          teamId: s.teamId,
          name: `approve-${row.agent}`,
          files: { "workflow.yaml": workflowOf(row, `approve-${row.agent}`) },
        });
        const { id } = await caller().runs.start({ workflowId });
        const parked = await waitFor(
          async () => {
            const run = await caller().runs.get({ id });
            if (!["queued", "running", "waiting"].includes(run.status))
              throw new Error(
                `run ended: ${JSON.stringify([run.errorCode, run.errorMessage, run.steps.map((x) => [x.stateName, x.status, x.errorCode, x.errorMessage])])}`,
              );
            return run.status === "waiting" ? run : undefined;
          },
          180_000,
          "the run to wait",
        );
        const attempt = parked.steps.find((x) => x.stateName === "agent")!;
        expect(attempt.status).toBe("waiting");
        const wait = await s.db.wait.findFirstOrThrow({ where: { runId: id } });
        expect(wait).toMatchObject({ status: "open", parked: true });
        expect(wait.detail).toMatchObject({ tool: "Write", source: "builtin" });
        const session = await s.db.agentSession.findFirstOrThrow({ where: { runId: id } });
        expect(session).toMatchObject({ provider: row.agent });
        expect(session.sessionId).toMatch(row.sessionId);
        await waitFor(
          async () => (processesOfRun(id).length === 0 ? true : undefined),
          15_000,
          "no process of the waiting run",
        );

        await s.worker.stop();
        s.worker = await startWorker({
          DATABASE_URL: s.database.url,
          SWITCHYARD_QUEUE_PREFIX: s.prefix,
          ...workerEnv,
        });
        // Answered through the API: the parked run is queued again.
        await caller().waits.answer({ id: wait.id, decision: "approve" });
        const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 240_000);
        expect(
          run.status,
          JSON.stringify([
            run.errorCode,
            run.errorMessage,
            run.steps.map((x) => [x.stateName, x.status, x.errorCode, x.errorMessage]),
          ]),
        ).toBe("succeeded");
        const agents = run.steps.filter((x) => x.stateName === "agent");
        expect(agents.map((x) => [x.id, x.status])).toEqual([[attempt.id, "succeeded"]]);
        expect(agents[0]!.output).toContain(`resumed ${row.agent}`);
        expect(run.steps.find((x) => x.stateName === "show")!.stdout).toBe(
          `approved for ${row.agent}\n`,
        );
        // The attempt's tokens are both parts', before the suspension and after (the ledger's).
        const kept = await s.db.stepRun.findUniqueOrThrow({ where: { id: attempt.id } });
        const spent = await sumSpend(s.db, s.teamId, { stepRunId: attempt.id });
        expect((kept.inputTokens ?? 0) + (kept.outputTokens ?? 0)).toBe(spent.tokens);
        const calls = await listStepToolCalls(s.db, s.teamId, attempt.id);
        expect(calls.filter((c) => c.toolName === "Write" && !c.isError)).toHaveLength(1);
      },
      600_000,
    );
  },
);
