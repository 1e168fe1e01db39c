/**
 * Enforces a step's budgets while it runs. The worker builds one meter per agent attempt
 * from every limit that applies (the step's own, its workflow's, its lane's and the team's,
 * each with what its period had spent before the attempt); the tightest one refuses first.
 * The model gateway asks `admitModel` before each request of a CLI, the openai_compatible
 * loop before each of its own, the step channel `admitCall` before each tool call; what was
 * spent is charged as it is metered. A refusal is USER.BUDGET.EXCEEDED naming the limit, the
 * amount and where it is set; the first refusal is kept so the step fails with it whatever
 * the agent makes of it. Crossing 80% of an amount is told once (`onWarning`).
 */
import { AppError } from "../errors";
import { globMatches } from "./glob";
import {
  describeLimitPlace,
  emptySpend,
  type BudgetLimit,
  type BudgetSpend,
} from "./budget-limits";

/** A limit and what its period had spent before this step. */
export type MeteredLimit = { limit: BudgetLimit; spentBefore: BudgetSpend };

/** Which amount of a limit: `cost_usd`, `tokens` or `calls.<pattern>`. */
type BudgetAmountKey = "cost_usd" | "tokens" | `calls.${string}`;

export type BudgetWarning = {
  limit: BudgetLimit;
  amount: BudgetAmountKey;
  spent: number;
  max: number;
};

type BudgetMeterOptions = {
  /** Told once per limit and amount when its spend crosses `warnAt` of it. */
  onWarning?: (warning: BudgetWarning) => void;
  /** @default 0.8 */
  warnAt?: number;
};

/** One amount of one limit against what was spent: for the overview and the run page. */
export type BudgetStanding = {
  limit: BudgetLimit;
  amount: BudgetAmountKey;
  spent: number;
  max: number;
};

export type BudgetMeter = {
  /** Throws USER.BUDGET.EXCEEDED when a cost or token limit is reached, or a call was refused. */
  admitModel(): void;
  chargeModel(spend: { tokens: number; costUsd: number | null }): void;
  /** Throws USER.BUDGET.EXCEEDED when a call limit of this tool, or a cost or token limit, is reached. */
  admitCall(tool: string): void;
  chargeCall(tool: string): void;
  /** What this step has spent so far. */
  spend(): BudgetSpend;
  /** The first refusal, which the step fails with. */
  exceeded(): AppError | undefined;
  /** Every amount of every limit against its spend, this step's included. */
  standings(): BudgetStanding[];
};

const money = (usd: number) => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;

const callsMatching = (calls: Record<string, number>, pattern: string) => {
  let n = 0;
  for (const [tool, count] of Object.entries(calls)) if (globMatches(pattern, tool)) n += count;
  return n;
};

/** Every amount a limit sets, with what was spent against it (before plus this step). */
const amountsOf = (entry: MeteredLimit, step: BudgetSpend): BudgetStanding[] => {
  const { limit, spentBefore } = entry;
  const out: BudgetStanding[] = [];
  if (limit.cost_usd !== undefined)
    out.push({
      limit,
      amount: "cost_usd",
      spent: spentBefore.costUsd + step.costUsd,
      max: limit.cost_usd,
    });
  if (limit.tokens !== undefined)
    out.push({
      limit,
      amount: "tokens",
      spent: spentBefore.tokens + step.tokens,
      max: limit.tokens,
    });
  for (const [pattern, max] of Object.entries(limit.calls ?? {}))
    out.push({
      limit,
      amount: `calls.${pattern}`,
      spent: callsMatching(spentBefore.calls, pattern) + callsMatching(step.calls, pattern),
      max,
    });
  return out;
};

/** What a standing says in a refusal: the limit, what was spent and where it is set. */
const describeStanding = ({ limit, amount, spent, max }: BudgetStanding) => {
  const place = describeLimitPlace(limit);
  if (amount === "cost_usd")
    return `the cost limit of ${money(max)} set on ${place} is reached (${money(spent)} spent)`;
  if (amount === "tokens")
    return `the token limit of ${max} set on ${place} is reached (${spent} tokens used)`;
  const pattern = amount.slice("calls.".length);
  return `the limit of ${max} call${max === 1 ? "" : "s"} of ${pattern} set on ${place} is reached (${spent} made)`;
};

/** A refusal's client-safe detail: where the limit is set, which amount, the limit and the spend. */
const detailsOf = ({ limit, amount, max, spent }: BudgetStanding) => ({
  scope: limit.scope,
  ...(limit.period ? { period: limit.period } : {}),
  ...(limit.name === undefined ? {} : { name: limit.name }),
  amount,
  limit: max,
  spent,
});

/** Builds the meter of one step from the limits that apply to it. */
export const createBudgetMeter = (
  limits: readonly MeteredLimit[],
  options: BudgetMeterOptions = {},
): BudgetMeter => {
  const warnAt = options.warnAt ?? 0.8;
  const step = emptySpend();
  const warned = new Set<string>();
  let refusal: AppError | undefined;

  const standings = () => limits.flatMap((entry) => amountsOf(entry, step));

  const refuse = (standing: BudgetStanding, what: string): never => {
    const error = new AppError(
      "USER.BUDGET.EXCEEDED",
      `${what} refused: ${describeStanding(standing)}`,
      { details: detailsOf(standing) },
    );
    refusal ??= error;
    throw error;
  };

  const reachedModel = () =>
    standings().find((s) => (s.amount === "cost_usd" || s.amount === "tokens") && s.spent >= s.max);

  const warn = () => {
    if (!options.onWarning) return;
    limits.forEach((entry, i) => {
      for (const standing of amountsOf(entry, step)) {
        const key = `${i}:${standing.amount}`;
        if (warned.has(key) || standing.spent < standing.max * warnAt) continue;
        warned.add(key);
        // Crossed before this step: told then, not again.
        const before = amountsOf(entry, emptySpend()).find((s) => s.amount === standing.amount);
        if (before && before.spent >= before.max * warnAt) continue;
        options.onWarning?.({
          limit: standing.limit,
          amount: standing.amount,
          spent: standing.spent,
          max: standing.max,
        });
      }
    });
  };

  return {
    admitModel() {
      // A call refused by the budget ends the step: its next model request is refused too.
      if (refusal) throw refusal;
      const reached = reachedModel();
      if (reached) refuse(reached, "the next model request is");
    },
    chargeModel({ tokens, costUsd }) {
      step.tokens += tokens;
      step.costUsd += costUsd ?? 0;
      warn();
    },
    admitCall(tool) {
      const reached =
        reachedModel() ??
        standings().find(
          (s) =>
            s.amount.startsWith("calls.") &&
            globMatches(s.amount.slice("calls.".length), tool) &&
            s.spent >= s.max,
        );
      if (reached) refuse(reached, `the call of ${tool} is`);
    },
    chargeCall(tool) {
      step.calls[tool] = (step.calls[tool] ?? 0) + 1;
      warn();
    },
    spend: () => ({ ...step, calls: { ...step.calls } }),
    exceeded: () => refusal,
    standings,
  };
};

/**
 * Why a run may not start (a cost or token limit among `limits` is already reached), as
 * USER.BUDGET.EXCEEDED, or undefined. The start path passes the team's and its lane's
 * monthly limits.
 */
export const startRefusal = (limits: readonly MeteredLimit[]): AppError | undefined => {
  const reached = limits
    .flatMap((entry) => amountsOf(entry, emptySpend()))
    .find((s) => (s.amount === "cost_usd" || s.amount === "tokens") && s.spent >= s.max);
  if (!reached) return undefined;
  return new AppError(
    "USER.BUDGET.EXCEEDED",
    `the run cannot start: ${describeStanding(reached)}; an admin raises it in Settings → Budgets`,
    { details: detailsOf(reached) },
  );
};
