/**
 * Durations as AWF's reference documents them: Go's duration strings ("500ms", "1m30s",
 * "2h", "1.5s", with ns, us/µs, ms, s, m, h and an optional leading +), or a plain number
 * in the field's own unit: seconds for timeouts (`timeout: 30`), milliseconds for retry
 * delays (`initial_delay: 250`). Returns milliseconds, or undefined for anything else
 * (a negative duration included).
 */
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5 MICRO SIGN
  μs: 1e-3, // U+03BC GREEK SMALL LETTER MU
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const SECONDS = 1000;
export const MILLISECONDS = 1;

export const parseDuration = (
  value: unknown,
  plainUnitMs: number = SECONDS,
): number | undefined => {
  if (typeof value === "number")
    return Number.isFinite(value) && value >= 0 ? value * plainUnitMs : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim().replace(/^\+/, "");
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * plainUnitMs;
  const part = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = part.exec(text); m; m = part.exec(text)) {
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    matched = part.lastIndex;
  }
  return matched > 0 && matched === text.length ? total : undefined;
};

/** A timeout of 0 means none, as in AWF: the same as no timeout at all. */
export const timeoutOrNone = (ms: number | undefined): number | undefined =>
  ms === 0 ? undefined : ms;
