"use client";
/**
 * What every chart shares: a figure with a heading, a legend, an SVG sized to its
 * container's pixel width (so its text stays legible on a phone) and the same numbers as a
 * visually hidden table for screen readers. Colours come from CSS classes over the
 * --chart-* variables, so they follow light and dark (an inline style would be refused
 * by the page's CSP).
 */
import { useEffect, useId, useRef, useState, type ReactNode } from "react";

export type Series = { key: string; label: string; /** 1..6: --chart-N */ color: number };

export const PAD = { top: 12, right: 12, bottom: 40, left: 72 };
export const HEIGHT = 240;

/** A round step for about `count` ticks up to `max`. */
export const ticksUpTo = (max: number, count = 4): number[] => {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let t = 0; t <= max + step / 2 && ticks.length < 12; t += step)
    ticks.push(Number(t.toPrecision(12)));
  if (ticks.at(-1)! < max) ticks.push(Number((ticks.at(-1)! + step).toPrecision(12)));
  return ticks;
};

/** "2026-11-24" → "Nov 24", read as a calendar date (no zone shift). */
export const shortDate = (date: string) => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(undefined, {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(y, m - 1, d)));
};

/** Every nth label, so at most about `fit` show. */
export const labelEvery = (count: number, width: number) =>
  Math.max(1, Math.ceil(count / Math.max(2, Math.floor(width / 56))));

const useWidth = () => {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(240, Math.floor(entry.contentRect.width)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
};

type FrameProps = {
  title: string;
  /** one sentence: what the chart shows, for the SVG's <desc> */
  description: string;
  series: Series[];
  /** the hidden table: column heads after the first, and its rows */
  table: { head: string[]; rows: { label: string; cells: string[] }[] };
  children: (width: number) => ReactNode;
};

export function ChartFrame({ title, description, series, table, children }: FrameProps) {
  const id = useId();
  const { ref, width } = useWidth();
  return (
    <figure className="chart card" aria-labelledby={`${id}-h`}>
      <figcaption className="chart-head">
        <h3 id={`${id}-h`}>{title}</h3>
        {series.length > 1 ? (
          <ul className="chart-legend" aria-hidden="true">
            {series.map((s) => (
              <li key={s.key}>
                <span className={`swatch series-${s.color}`} />
                {s.label}
              </li>
            ))}
          </ul>
        ) : null}
      </figcaption>
      <div ref={ref} className="chart-body">
        <svg
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${id}-t ${id}-d`}
          focusable="false"
        >
          <title id={`${id}-t`}>{title}</title>
          <desc id={`${id}-d`}>{description}</desc>
          {children(width)}
        </svg>
      </div>
      {/* A table is never narrower than its content, so the hiding box is a div around it. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{table.head[0]}</th>
              {table.head.slice(1).map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {row.cells.map((cell, i) => (
                  <td key={i}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** The y axis with its grid lines and label, and the x axis with every nth category label. */
export function Axes({
  width,
  ticks,
  formatTick,
  yLabel,
  categories,
  xLabel,
  xOf,
}: {
  width: number;
  ticks: number[];
  formatTick: (n: number) => string;
  yLabel: string;
  categories: string[];
  xLabel: string;
  xOf: (index: number) => number;
}) {
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const max = ticks.at(-1)!;
  const every = labelEvery(categories.length, width - PAD.left - PAD.right);
  return (
    <g className="chart-axes" aria-hidden="true">
      {ticks.map((t) => {
        const y = PAD.top + plotH - (t / max) * plotH;
        return (
          <g key={t}>
            <line className="chart-grid" x1={PAD.left} x2={width - PAD.right} y1={y} y2={y} />
            <text x={PAD.left - 6} y={y} dy="0.32em" textAnchor="end">
              {formatTick(t)}
            </text>
          </g>
        );
      })}
      <text
        className="chart-axis-label"
        transform={`translate(12 ${PAD.top + plotH / 2}) rotate(-90)`}
        textAnchor="middle"
      >
        {yLabel}
      </text>
      {categories.map((c, i) =>
        i % every === 0 || i === categories.length - 1 ? (
          <text key={c} x={xOf(i)} y={HEIGHT - PAD.bottom + 16} textAnchor="middle">
            {c}
          </text>
        ) : null,
      )}
      <text
        className="chart-axis-label"
        x={PAD.left + (width - PAD.left - PAD.right) / 2}
        y={HEIGHT - 4}
        textAnchor="middle"
      >
        {xLabel}
      </text>
    </g>
  );
}
