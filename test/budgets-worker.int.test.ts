/**
 * Budgets that stop a step, through the real worker: an openai_compatible step against the
 * scripted model is stopped before its next model request once its token limit (the step's
 * `budget:`) or its workflow's daily cost limit (set by an admin) is reached, and fails with
 * USER.BUDGET.EXCEEDED naming the limit, the amount and where it is set; what it spent is in
 * the team's ledger (model requests, tool calls, wall time) and on the run's live view
 * (`step.spend`), and crossing 80% is a `budget.warning`. A run over the team's monthly
 * limit is refused at start with the same code.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { isAppError } from "@switchyard/core/errors";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import {
  listRunEventsAfter,
  recordSpend,
  saveWorkflowVersion,
  setBudgetLimit,
  sumSpend,
} from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { buildSwitchyardCli, waitFor } from "./helpers/worker-process";

const KEY = "sk-model-key-budget-41c9e07d";
let stack: RunStack;
let model: ScriptedModel;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = () => dashboardCaller({ ...stack, keyring }, stack.adminId);

/** Each request of a step whose prompt says `marker` writes a file, at 900 + 200 tokens. */
const writesForever = (marker: string) => ({
  match: { messagesContain: marker },
  usage: { inputTokens: 900, outputTokens: 200 },
  toolCalls: [{ name: "Write", arguments: { path: `${marker}.txt`, content: "more\n" } }],
});

beforeAll(async () => {
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: {
      turns: [],
      rules: [
        writesForever("TOKENS-LIMIT"),
        writesForever("COST-LIMIT"),
        writesForever("CALLS-LIMIT"),
      ],
    },
  });
  stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
    // $2 / $10 per million tokens: each request costs 0.0018 + 0.002 = $0.0038.
    SWITCHYARD_MODEL_PRICES: JSON.stringify({ "scripted-1": { input: 2, output: 10 } }),
  });
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
}, 300_000);
afterAll(async () => {
  await closeRunStack(stack);
  await model?.close();
});

const workflow = (name: string, prompt: string, budget?: string) => `name: ${name}
states:
  initial: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: ${prompt}
    options:
      base_url: ${model.url}/v1
      model: scripted-1
      api_key: "{{.env.MODEL_KEY}}"
${budget ? `    budget: ${budget}\n` : ""}    timeout: 2m
    on_success: done
  done:
    type: terminal
    status: success
`;

const save = async (name: string, prompt: string, budget?: string) =>
  (
    await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name,
      files: { "workflow.yaml": workflow(name, prompt, budget) },
    })
  ).workflowId;

const runToEnd = async (workflowId: string) => {
  const { id } = await caller().runs.start({ workflowId });
  return runEnded(() => caller().runs.get({ id }), `run ${id}`, 120_000);
};

describe("an openai_compatible step", () => {
  it("is stopped before the request past its own token limit, with the limit named", async () => {
    const asked = model.requests.length;
    // An endpoint listening to budget.warning is told of the warning, once.
    await stack.db.notificationEndpoint.create({
      data: { teamId: stack.teamId, url: "http://127.0.0.1:9/budget", events: ["budget.warning"] },
    });
    const workflowId = await save("tokens-limit", "TOKENS-LIMIT", "{tokens: 2000}");
    const run = await runToEnd(workflowId);
    expect(run.status).toBe("failed");
    const agent = run.steps.find((s) => s.stateName === "agent")!;
    expect(agent.errorCode).toBe("USER.BUDGET.EXCEEDED");
    expect(agent.errorMessage).toContain(
      'the token limit of 2000 set on step "agent" is reached (2200 tokens used)',
    );
    // Two requests went out (1100 tokens each); the third was never sent.
    expect(model.requests.length - asked).toBe(2);

    // The ledger: two model requests, the first Write (the second, asked for once the limit
    // was reached, was refused) and the attempt's wall time.
    const spent = await sumSpend(stack.db, stack.teamId, { runId: run.id });
    expect(spent.tokens).toBe(2200);
    expect(spent.costUsd).toBeCloseTo(0.0076, 6);
    expect(spent.calls).toEqual({ Write: 1 });
    expect(spent.wallMs).toBeGreaterThan(0);
    const byStep = await sumSpend(stack.db, stack.teamId, { stepRunId: agent.id, workflowId });
    expect(byStep.tokens).toBe(2200);

    // The live view had the step's spend against its limit.
    const events = await listRunEventsAfter(stack.db, stack.teamId, run.id, 0, 5000);
    const spend = events.filter((e) => e.type === "step.spend").at(-1);
    expect(spend?.payload).toMatchObject({
      stepRunId: agent.id,
      spend: { tokens: 2200, calls: { Write: 1 } },
      limits: [{ scope: "step", name: "agent", amount: "tokens", spent: 2200, max: 2000 }],
    });
    // 2200 of 2000 crossed 80% on the way: one warning.
    expect(events.filter((e) => e.type === "budget.warning")).toHaveLength(1);
    const deliveries = await waitFor(
      async () => {
        const rows = await stack.db.notificationDelivery.findMany({
          where: { teamId: stack.teamId, runId: run.id, event: "budget.warning" },
        });
        return rows.length > 0 ? rows : undefined;
      },
      10_000,
      "the budget warning's delivery",
    );
    expect(deliveries.map((d) => d.waitId)).toEqual(['budget:tokens|step "agent"']);
  });

  it("is stopped by its workflow's daily cost limit, which counts earlier runs of the day", async () => {
    const workflowId = await save("cost-limit", "COST-LIMIT");
    await setBudgetLimit(stack.db, stack.teamId, {
      scope: "workflow",
      target: workflowId,
      period: "day",
      amounts: { cost_usd: 0.01 },
    });
    // Three requests ($0.0114) pass the limit; the fourth is refused.
    const first = await runToEnd(workflowId);
    const agent = first.steps.find((s) => s.stateName === "agent")!;
    expect(agent.errorCode).toBe("USER.BUDGET.EXCEEDED");
    expect(agent.errorMessage).toContain(
      'the cost limit of $0.0100 set on workflow "cost-limit", per day (UTC) is reached ($0.0114 spent)',
    );
    // The next run of the day is refused at its first request.
    const asked = model.requests.length;
    const second = await runToEnd(workflowId);
    expect(second.steps.find((s) => s.stateName === "agent")!.errorCode).toBe(
      "USER.BUDGET.EXCEEDED",
    );
    expect(model.requests.length).toBe(asked);
  });
});

describe("a tool call", () => {
  it("past the step's call limit is refused before it runs, and the step fails with the limit", async () => {
    const workflowId = await save("calls-limit", "CALLS-LIMIT", "{calls: {'Wri*': 1}}");
    const run = await runToEnd(workflowId);
    const agent = run.steps.find((s) => s.stateName === "agent")!;
    expect(agent.errorCode).toBe("USER.BUDGET.EXCEEDED");
    expect(agent.errorMessage).toContain(
      'the limit of 1 call of Wri* set on step "agent" is reached (1 made)',
    );
    // One Write ran; the second was refused at the gate and never ran.
    const spent = await sumSpend(stack.db, stack.teamId, { runId: run.id });
    expect(spent.calls).toEqual({ Write: 1 });
    const calls = await stack.db.toolCall.findMany({
      where: { runId: run.id },
      orderBy: { startedAt: "asc" },
    });
    expect(calls.map((c) => [c.toolName, c.isError])).toEqual([
      ["Write", false],
      ["Write", true],
    ]);
  });
});

describe("starting a run", () => {
  it("is refused over the team's monthly limit with USER.BUDGET.EXCEEDED", async () => {
    const workflowId = await save("over-month", "TOKENS-LIMIT");
    const workflow = await stack.db.workflow.findFirstOrThrow({ where: { id: workflowId } });
    await setBudgetLimit(stack.db, stack.teamId, {
      scope: "team",
      target: "",
      period: "month",
      amounts: { tokens: 1_000_000 },
    });
    await recordSpend(
      stack.db,
      {
        teamId: stack.teamId,
        runId: "earlier-run",
        workflowId,
        lane: workflow.lane,
        memberId: stack.adminId,
      },
      { kind: "model", tokens: 1_000_000, costUsd: 3 },
    );
    const refusal = await caller()
      .runs.start({ workflowId })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    const cause = (refusal as { cause?: unknown })?.cause ?? refusal;
    expect(isAppError(cause) ? cause.code : String(refusal)).toBe("USER.BUDGET.EXCEEDED");
    expect((cause as Error).message).toContain(
      "the run cannot start: the token limit of 1000000 set on team, per month (UTC) is reached",
    );
    expect(await stack.db.run.count({ where: { workflowId } })).toBe(0);
  });
});
