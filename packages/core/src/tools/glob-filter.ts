/**
 * Filters walked paths through a glob without holding the proxy's thread: matching is
 * linear, but a long pattern over many paths still adds up, so it pauses every few
 * milliseconds to let other calls through and stops with USER.PATTERN.TIMEOUT at its budget.
 */
import { patternTimeout } from "../patterns/pattern-errors";

export const GLOB_BUDGET_MS = 10_000;
const SLICE_MS = 10;

export const filterByGlob = async <E>(
  entries: readonly E[],
  matches: (entry: E) => boolean,
  options: { budgetMs: number; signal: AbortSignal },
): Promise<E[]> => {
  const kept: E[] = [];
  const started = performance.now();
  let slice = started;
  for (const entry of entries) {
    if (options.signal.aborted) break;
    if (matches(entry)) kept.push(entry);
    const now = performance.now();
    if (now - started >= options.budgetMs)
      throw patternTimeout(
        options.budgetMs,
        `the glob is too slow over ${entries.length} paths. Simplify it or search a smaller folder.`,
      );
    if (now - slice >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  return kept;
};
