/**
 * Each agent attempt's budget in the worker: a meter of every limit that applies (the
 * step's own `budget:`, and its workflow's, lane's and team's with what their period has
 * spent so far in the ledger), charged as the attempt spends, each charge appended to the
 * team's ledger and shown live on the run page (`step.spend`). Crossing 80% of a limit is
 * told to the caller (`onWarning`: the run's event and the team's notifications).
 */
import {
  createBudgetMeter,
  type BudgetMeter,
  type BudgetWarning,
  type MeteredLimit,
} from "@switchyard/core/governance";
import type { AgentRequest } from "@switchyard/core/workflow";
import { budgetLimitsFor, recordSpend, sumSpend, type Db, type SpendInput } from "@switchyard/db";
import type { Logger } from "./logger";

export type StepBudgetDeps = {
  db: Db;
  log: Logger;
  teamId: string;
  runId: string;
  workflowId: string;
  workflowName: string;
  lane: string;
  memberId: string | null;
  /** What an attempt has spent so far against its limits, for the run's live view. */
  onSpend: (
    attempt: { stepRunId: string; state: string; attempt: number },
    spend: ReturnType<BudgetMeter["spend"]>,
    standings: ReturnType<BudgetMeter["standings"]>,
  ) => void;
  onWarning: (attempt: { stepRunId: string; state: string }, warning: BudgetWarning) => void;
};

export type StepBudgets = {
  /** The attempt's meter; its charges go to the ledger. */
  open: (request: AgentRequest) => Promise<BudgetMeter>;
  /** Records the attempt's wall time and waits for its ledger entries. */
  settle: (attemptId: string) => Promise<void>;
};

export const stepBudgets = (deps: StepBudgetDeps): StepBudgets => {
  const subject = {
    teamId: deps.teamId,
    runId: deps.runId,
    workflowId: deps.workflowId,
    lane: deps.lane,
    memberId: deps.memberId,
  };
  const open = new Map<string, { started: number; pending: Set<Promise<void>> }>();
  const write = (attemptId: string, entry: SpendInput) => {
    const state = open.get(attemptId);
    const p = recordSpend(deps.db, subject, { ...entry, stepRunId: attemptId }).catch(
      (error: unknown) =>
        deps.log.error("a spend entry could not be written", {
          runId: deps.runId,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
    state?.pending.add(p);
    void p.finally(() => state?.pending.delete(p));
  };

  return {
    open: async (request) => {
      const stored = await budgetLimitsFor(deps.db, deps.teamId, {
        workflowId: deps.workflowId,
        workflowName: deps.workflowName,
        lane: deps.lane,
      });
      // An attempt that resumes after a wait continues its row: what it spent before counts.
      const stepSpent = request.budget
        ? await sumSpend(deps.db, deps.teamId, {
            runId: deps.runId,
            stepRunId: request.attemptId,
          })
        : undefined;
      const limits: MeteredLimit[] = [
        ...(request.budget && stepSpent
          ? [
              {
                limit: { ...request.budget, scope: "step" as const, name: request.stateName },
                spentBefore: {
                  costUsd: stepSpent.costUsd,
                  tokens: stepSpent.tokens,
                  calls: stepSpent.calls,
                },
              },
            ]
          : []),
        ...stored.map(({ limit, spentBefore }) => ({ limit, spentBefore })),
      ];
      const attempt = {
        stepRunId: request.attemptId,
        state: request.stateName,
        attempt: request.attempt,
      };
      const meter = createBudgetMeter(limits, {
        onWarning: (warning) => deps.onWarning(attempt, warning),
      });
      open.set(request.attemptId, { started: Date.now(), pending: new Set() });
      const show = () => deps.onSpend(attempt, meter.spend(), meter.standings());
      return {
        ...meter,
        chargeModel: (spend) => {
          meter.chargeModel(spend);
          write(request.attemptId, { kind: "model", ...spend });
          show();
        },
        chargeCall: (tool) => {
          meter.chargeCall(tool);
          write(request.attemptId, { kind: "call", tool });
          show();
        },
      };
    },
    settle: async (attemptId) => {
      const state = open.get(attemptId);
      if (!state) return;
      write(attemptId, { kind: "wall", wallMs: Date.now() - state.started });
      await Promise.all([...state.pending]);
      open.delete(attemptId);
    },
  };
};
