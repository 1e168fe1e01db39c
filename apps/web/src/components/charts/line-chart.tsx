"use client";
/**
 * A line chart over categories (days), one line per series; a missing value (null)
 * breaks the line, and a lone point still shows as a dot.
 */
import { Axes, ChartFrame, HEIGHT, PAD, ticksUpTo, type Series } from "./chart-frame";

type Props = {
  title: string;
  description: string;
  series: Series[];
  categories: string[];
  /** values[category][series]; null where there is nothing to show */
  values: (number | null)[][];
  xLabel: string;
  yLabel: string;
  format?: (n: number) => string;
};

export function LineChart({
  title,
  description,
  series,
  categories,
  values,
  xLabel,
  yLabel,
  format = String,
}: Props) {
  const all = values.flat().filter((v): v is number => v !== null);
  const ticks = ticksUpTo(Math.max(0, ...all));
  const max = ticks.at(-1)!;
  const table = {
    head: [xLabel, ...series.map((s) => s.label)],
    rows: categories.map((c, i) => ({
      label: c,
      cells: values[i]!.map((v) => (v === null ? "—" : format(v))),
    })),
  };
  return (
    <ChartFrame title={title} description={description} series={series} table={table}>
      {(width) => {
        const plotW = width - PAD.left - PAD.right;
        const plotH = HEIGHT - PAD.top - PAD.bottom;
        const band = plotW / Math.max(1, categories.length);
        const xOf = (i: number) => PAD.left + band * i + band / 2;
        const yOf = (v: number) => PAD.top + plotH - (v / max) * plotH;
        return (
          <>
            <Axes
              width={width}
              ticks={ticks}
              formatTick={format}
              yLabel={yLabel}
              categories={categories}
              xLabel={xLabel}
              xOf={xOf}
            />
            {series.map((s, si) => {
              const segments: string[] = [];
              let current = "";
              values.forEach((row, i) => {
                const v = row[si];
                if (v === null || v === undefined) {
                  if (current) segments.push(current);
                  current = "";
                  return;
                }
                current += `${current ? "L" : "M"}${xOf(i).toFixed(1)} ${yOf(v).toFixed(1)}`;
              });
              if (current) segments.push(current);
              return (
                <g key={s.key} className={`line series-${s.color}`}>
                  {segments.map((d) => (
                    <path key={d} d={d} />
                  ))}
                  {values.map((row, i) => {
                    const v = row[si];
                    return v === null || v === undefined ? null : (
                      <circle key={i} cx={xOf(i)} cy={yOf(v)} r={2.5} />
                    );
                  })}
                </g>
              );
            })}
          </>
        );
      }}
    </ChartFrame>
  );
}
