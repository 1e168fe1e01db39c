/**
 * Durations as AWF writes them: a bare number means seconds (`timeout: 30`), a string is
 * Go's duration form ("500ms", "1s", "1m30s", "2h"). Returns milliseconds.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export const parseDuration = (value: unknown): number | undefined => {
  if (typeof value === "number")
    return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = part.exec(text); m; m = part.exec(text)) {
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    matched = part.lastIndex;
  }
  return matched > 0 && matched === text.length ? total : undefined;
};
