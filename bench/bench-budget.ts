/**
 * Budget checks on the model gateway's path (docs/governance.md, budgets): one Chat
 * Completions request through the gateway to the scripted model, taking turns between three
 * registrations of the same gateway and upstream:
 * - none: no budget hook at all (the gateway as `switchyard run` registers a step);
 * - no limit: the worker's meter for an attempt whose team has no limit (`stepBudgets`:
 *   asked before each request, charged and written to the ledger after it);
 * - team budget: the same meter opened once the team has a monthly cost and token limit.
 * The requests come from a process of their own (bench/gateway-client.ts), as a CLI's do; the
 * gateway's CPU per request is measured apart, one registration at a time.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startModelGateway } from "@switchyard/core/gateway";
import type { BudgetMeter } from "@switchyard/core/governance";
import { startScriptedModel } from "@switchyard/scripted-model";
import { setBudgetLimit } from "@switchyard/db";
import { chatCall } from "@switchyard/testing/gateway";
import { createLogger } from "../apps/worker/src/logger";
import { stepBudgets } from "../apps/worker/src/step-budget";
import { attemptRequest, openAttemptRow } from "./attempt-row";
import type { Sample, Timing } from "./measure";

const MODEL = "gpt-4o-mini";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const benchBudget = async (): Promise<Sample[]> => {
  const requests = process.env.SWITCHYARD_BENCH_QUICK === "1" ? 500 : 1000;
  const row = await openAttemptRow("bench-budget");
  const model = await startScriptedModel({
    host: "127.0.0.1",
    keepRequests: false,
    script: {
      turns: [],
      rules: [
        {
          match: { api: "openai-chat" },
          text: "ok",
          usage: { inputTokens: 100, outputTokens: 20 },
        },
      ],
    },
  });
  const gateway = await startModelGateway({ log: () => undefined });
  try {
    // One per meter: an instance keeps an attempt's pending ledger writes by its id.
    const budgetsOf = () =>
      stepBudgets({
        db: row.db,
        log: createLogger("error"),
        teamId: row.teamId,
        runId: row.runId,
        workflowId: row.workflowId,
        workflowName: row.workflowName,
        lane: "default",
        memberId: row.adminId,
        onSpend: () => undefined,
        onWarning: () => undefined,
      });
    const budgets = [budgetsOf(), budgetsOf()] as const;
    const upstream = { baseUrl: `${model.url}/v1`, apiKey: "sk-bench-budget-upstream-key" };
    /** A registration charging `meter` as the worker's attempt does (agent-executor's chargeBudget). */
    const metered = (meter: BudgetMeter) =>
      gateway.register({
        vendor: "openai",
        upstream,
        meter: (event) =>
          meter.chargeModel({
            tokens: event.inputTokens + event.outputTokens,
            costUsd: event.costUsd,
          }),
        admit: () => meter.admitModel(),
      });

    const none = gateway.register({ vendor: "openai", upstream, meter: () => undefined });
    const limitless = metered(await budgets[0].open(attemptRequest(row)));
    await setBudgetLimit(row.db, row.teamId, {
      scope: "team",
      target: "",
      period: "month",
      amounts: { cost_usd: 1000, tokens: 1_000_000_000 },
    });
    const budgeted = await budgets[1].open(attemptRequest(row));
    if (budgeted.standings().length === 0)
      throw new Error("the team's limit did not reach the meter");
    const withBudget = metered(budgeted);

    const targets = { none, limitless, budget: withBudget };
    // What a CLI waits: its requests come from another process.
    // Not spawnSync: the gateway and the upstream answer from this process's event loop.
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        fileURLToPath(new URL("./gateway-client.ts", import.meta.url)),
        String(requests),
        "50",
        MODEL,
        JSON.stringify(targets),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`the gateway client failed: ${stderr}`);
    const timing = JSON.parse(stdout) as Record<keyof typeof targets, Timing>;
    // The gateway's own CPU per request (this process: client, gateway and upstream alike for
    // each registration, so the difference is the budget's), one registration at a time.
    const call = chatCall(MODEL, false);
    const cpuPerRequest = async (registration: { baseUrl: string | null; token: string }) => {
      const before = process.cpuUsage();
      for (let i = 0; i < requests; i++) {
        const response = await call.send(registration.baseUrl!, registration.token);
        await response.text();
      }
      await sleep(200); // the last ledger writes
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000 / requests;
    };
    const cpu = {
      none: await cpuPerRequest(none),
      limitless: await cpuPerRequest(limitless),
      budget: await cpuPerRequest(withBudget),
    };
    await Promise.all(budgets.map((b) => b.settle(row.stepRunId)));
    const ledger = await row.db.spendEntry.count({
      where: { teamId: row.teamId, runId: row.runId, kind: "model" },
    });
    const spent = budgeted.spend();
    console.log(
      `budget: none p50 ${timing.none.p50.toFixed(3)} p99 ${timing.none.p99.toFixed(3)}; no limit p50 ${timing.limitless.p50.toFixed(3)} p99 ${timing.limitless.p99.toFixed(3)}; team budget p50 ${timing.budget.p50.toFixed(3)} p99 ${timing.budget.p99.toFixed(3)} ms; cpu per request ${cpu.none.toFixed(3)} / ${cpu.limitless.toFixed(3)} / ${cpu.budget.toFixed(3)} ms; ${ledger} ledger entries; the budgeted meter counted ${spent.tokens} tokens`,
    );
    const added = (a: number, b: number) => `added ${(b - a).toFixed(3)} ms`;
    return [
      {
        name: "gateway request, team budget vs no budget (p50)",
        unit: "ms",
        baseline: timing.none.p50,
        subject: timing.budget.p50,
        note: `no budget hook; ${added(timing.none.p50, timing.budget.p50)} (target <= 0.2); p99 ${timing.none.p99.toFixed(2)} -> ${timing.budget.p99.toFixed(2)} ms; ${requests} requests each from another process, scripted model upstream`,
      },
      {
        name: "gateway CPU per request, team budget vs no budget",
        unit: "ms",
        baseline: cpu.none,
        subject: cpu.budget,
        note: `the process serving the gateway (and the bench's client and upstream, the same for both); ${requests} requests in a row each; the meter without a limit ${cpu.limitless.toFixed(3)} ms`,
      },
      {
        name: "gateway request, team budget vs meter without limit (p50)",
        unit: "ms",
        baseline: timing.limitless.p50,
        subject: timing.budget.p50,
        note: `the worker's meter when the team has no limit (ledger entry per request too); ${added(timing.limitless.p50, timing.budget.p50)}`,
      },
    ];
  } finally {
    await gateway.close();
    await model.close();
    await row.close();
  }
};
