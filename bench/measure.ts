/**
 * Timing and table helpers for `npm run bench`: every figure is a ratio against a baseline
 * measured in the same run on the same machine, never an absolute threshold.
 */
export type Sample = {
  name: string;
  unit: string;
  baseline: number;
  subject: number;
  note?: string;
  /** Why the row was not measured (a program that is not installed); its figures are not shown. */
  skipped?: string;
};

export type Timing = { mean: number; p50: number; p99: number };

/** Mean, p50 and p99 of a list of durations. */
export const summarise = (durations: number[]): Timing => {
  const sorted = [...durations].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    p50: pick(0.5),
    p99: pick(0.99),
  };
};

export const timeIt = async (
  iterations: number,
  fn: (i: number) => Promise<unknown>,
  warmup = 3,
) => {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const durations: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn(i);
    durations.push(performance.now() - t0);
  }
  return summarise(durations);
};

/**
 * Times each of `fns` `iterations` times, taking turns (a, b, a, b, ...), so slow subjects
 * such as an agent CLI run see the same machine load as their baseline. `pauseMs` untimed
 * before each call lets work a call leaves behind (a ledger write after a response) end
 * before the next call, whichever subject that is, as a client's think time would.
 */
export const timeInTurns = async <K extends string>(
  iterations: number,
  fns: Record<K, (i: number) => Promise<unknown>>,
  warmup = 1,
  pauseMs = 0,
): Promise<Record<K, Timing>> => {
  const names = Object.keys(fns) as K[];
  for (let i = 0; i < warmup; i++) for (const name of names) await fns[name](-1 - i);
  const durations = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<
    K,
    number[]
  >;
  for (let i = 0; i < iterations; i++)
    for (const name of names) {
      if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      const t0 = performance.now();
      await fns[name](i);
      durations[name].push(performance.now() - t0);
    }
  return Object.fromEntries(names.map((n) => [n, summarise(durations[n])])) as Record<K, Timing>;
};

/** The table as Markdown lines. */
export const tableLines = (samples: Sample[]) => {
  const rows = samples.map((s) =>
    s.skipped === undefined
      ? [
          s.name,
          `${s.baseline.toFixed(2)} ${s.unit}`,
          `${s.subject.toFixed(2)} ${s.unit}`,
          `${(s.subject / s.baseline).toFixed(2)}x`,
          s.note ?? "",
        ]
      : [s.name, "-", "-", "-", `not measured: ${s.skipped}`],
  );
  const head = ["benchmark", "baseline", "switchyard", "ratio", "baseline is"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)];
};

export const printTable = (samples: Sample[]) => {
  for (const line of tableLines(samples)) console.log(line);
};
