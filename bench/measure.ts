/**
 * Timing and table helpers for `npm run bench`: every figure is a ratio against a baseline
 * measured in the same run on the same machine, never an absolute threshold.
 */
export type Sample = { name: string; unit: string; baseline: number; subject: number; note?: string };

export const timeIt = async (iterations: number, fn: (i: number) => Promise<unknown>, warmup = 3) => {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const durations: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn(i);
    durations.push(performance.now() - t0);
  }
  durations.sort((a, b) => a - b);
  const pick = (q: number) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]!;
  return { mean: durations.reduce((a, b) => a + b, 0) / durations.length, p50: pick(0.5), p99: pick(0.99) };
};

export const printTable = (samples: Sample[]) => {
  const rows = samples.map((s) => [
    s.name,
    `${s.baseline.toFixed(2)} ${s.unit}`,
    `${s.subject.toFixed(2)} ${s.unit}`,
    `${(s.subject / s.baseline).toFixed(2)}x`,
    s.note ?? "",
  ]);
  const head = ["benchmark", "baseline", "switchyard", "ratio", "baseline is"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
};
