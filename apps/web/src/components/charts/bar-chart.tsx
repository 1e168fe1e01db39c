"use client";
/**
 * A bar chart over categories (days), stacked when it has more than one series.
 */
import { Axes, ChartFrame, HEIGHT, PAD, ticksUpTo, type Series } from "./chart-frame";

type Props = {
  title: string;
  description: string;
  series: Series[];
  /** x labels, one per category */
  categories: string[];
  /** values[category][series] */
  values: number[][];
  xLabel: string;
  yLabel: string;
  format?: (n: number) => string;
};

export function BarChart({
  title,
  description,
  series,
  categories,
  values,
  xLabel,
  yLabel,
  format = String,
}: Props) {
  const totals = values.map((row) => row.reduce((a, b) => a + b, 0));
  const ticks = ticksUpTo(Math.max(0, ...totals));
  const max = ticks.at(-1)!;
  const table = {
    head: [xLabel, ...series.map((s) => s.label), ...(series.length > 1 ? ["Total"] : [])],
    rows: categories.map((c, i) => ({
      label: c,
      cells: [...values[i]!.map(format), ...(series.length > 1 ? [format(totals[i]!)] : [])],
    })),
  };
  return (
    <ChartFrame title={title} description={description} series={series} table={table}>
      {(width) => {
        const plotW = width - PAD.left - PAD.right;
        const plotH = HEIGHT - PAD.top - PAD.bottom;
        const band = plotW / Math.max(1, categories.length);
        const barW = Math.max(1, Math.min(28, band * 0.7));
        const xOf = (i: number) => PAD.left + band * i + band / 2;
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
            {values.map((row, i) => {
              let y = PAD.top + plotH;
              return (
                <g key={categories[i]}>
                  {row.map((v, s) => {
                    if (v <= 0) return null;
                    const h = (v / max) * plotH;
                    y -= h;
                    return (
                      <rect
                        key={series[s]!.key}
                        className={`series-${series[s]!.color}`}
                        x={xOf(i) - barW / 2}
                        y={y}
                        width={barW}
                        height={h}
                      />
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
