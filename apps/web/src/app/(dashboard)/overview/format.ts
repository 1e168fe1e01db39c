/** How the overview writes its numbers. */

export const formatDuration = (ms: number | null) => {
  if (ms === null) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
};

export const formatCount = (n: number) =>
  new Intl.NumberFormat(undefined, {
    notation: n >= 10_000 ? "compact" : "standard",
    maximumFractionDigits: 1,
  }).format(n);

export const formatCost = (usd: number) =>
  new Intl.NumberFormat(undefined, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: usd > 0 && usd < 1 ? 4 : 2,
  }).format(usd);

export const formatPercent = (rate: number | null) =>
  rate === null
    ? "—"
    : new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 }).format(rate);
