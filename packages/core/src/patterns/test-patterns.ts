/**
 * Tests values against user-supplied regular expressions (an input's `validation.pattern`)
 * in a worker thread with a time budget per pattern, so a pattern that backtracks
 * exponentially costs its caller one budget, not the process.
 */
import { runBudgetedWorker } from "./budgeted-worker";

export const PATTERN_BUDGET_MS = 1000;

type PatternCase = { pattern: string; value: string };
export type PatternResult =
  | { kind: "matched" }
  | { kind: "unmatched" }
  | { kind: "timeout" }
  | { kind: "failed"; message: string };

type Answer = boolean | { error: string };

// Plain JavaScript evaluated in the worker, so it needs no loader for TypeScript.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const answers = [];
for (let i = 0; i < workerData.length; i++) {
  parentPort.postMessage({ step: i, progress: answers });
  const c = workerData[i];
  try { answers.push(new RegExp(c.pattern).test(c.value)); }
  catch (e) { answers.push({ error: String(e && e.message || e) }); }
}
parentPort.postMessage({ done: answers });
`;

const toResult = (a: Answer): PatternResult =>
  typeof a === "boolean"
    ? { kind: a ? "matched" : "unmatched" }
    : { kind: "failed", message: a.error };

export const testPatterns = async (
  cases: PatternCase[],
  options: { budgetMs?: number; signal?: AbortSignal } = {},
): Promise<PatternResult[]> => {
  const results: PatternResult[] = [];
  // A pattern that runs out of budget ends its worker; the ones after it get a fresh one.
  while (results.length < cases.length) {
    const rest = cases.slice(results.length);
    const run = await runBudgetedWorker<Answer[], Answer[]>(WORKER_SOURCE, rest, {
      budgetMs: options.budgetMs ?? PATTERN_BUDGET_MS,
      signal: options.signal,
    });
    switch (run.kind) {
      case "done":
        results.push(...run.value.map(toResult));
        break;
      case "timeout":
        results.push(...(run.progress ?? []).map(toResult), { kind: "timeout" });
        break;
      case "failed":
        results.push(...rest.map(() => ({ kind: "failed" as const, message: run.message })));
        break;
    }
  }
  return results;
};
