"use client";
/**
 * A moment shown in the viewer's own time zone, with the full ISO time in a title and a
 * `<time dateTime>` for machines. The server renders UTC (it does not know the viewer's
 * zone); the browser re-renders in its zone after hydration, so the first paint never
 * mismatches. `relative` shows "3 min ago" and keeps it fresh.
 */
import { useEffect, useState } from "react";

type Props = {
  value: Date | string | number | null | undefined;
  /** "3 min ago" instead of the date and time */
  relative?: boolean;
  /** only the date (e.g. "1 Dec 2026") */
  dateOnly?: boolean;
  /** what to show when there is no value */
  fallback?: string;
};

const RELATIVE_STEPS: [limit: number, unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
  [60, "second", 1],
  [3600, "minute", 60],
  [86_400, "hour", 3600],
  [604_800, "day", 86_400],
  [2_629_800, "week", 604_800],
  [31_557_600, "month", 2_629_800],
  [Infinity, "year", 31_557_600],
];

/** "3 minutes ago" / "in 2 hours", from the difference to `now`. */
export const relativeTime = (date: Date, now: Date, locale?: string): string => {
  const diff = (date.getTime() - now.getTime()) / 1000;
  const abs = Math.abs(diff);
  if (abs < 10) return "just now";
  const [, unit, seconds] = RELATIVE_STEPS.find(([limit]) => abs < limit)!;
  return new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "short" }).format(
    Math.round(diff / seconds),
    unit,
  );
};

/** Date and time in `timeZone` (the viewer's when undefined). */
export const formatLocal = (
  date: Date,
  options: { timeZone?: string; dateOnly?: boolean } = {},
): string =>
  new Intl.DateTimeFormat(undefined, {
    dateStyle: "medium",
    ...(options.dateOnly ? {} : { timeStyle: "short" }),
    timeZone: options.timeZone,
  }).format(date);

export function LocalTime({ value, relative = false, dateOnly = false, fallback = "—" }: Props) {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    if (!relative) return;
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, [relative]);
  if (value === null || value === undefined) return <span className="muted">{fallback}</span>;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return <span className="muted">{fallback}</span>;
  const iso = date.toISOString();
  // Before hydration (and on the server) the zone is UTC, said so; after, the viewer's own.
  const text =
    now === null
      ? `${formatLocal(date, { timeZone: "UTC", dateOnly })}${dateOnly ? "" : " UTC"}`
      : relative
        ? relativeTime(date, now)
        : formatLocal(date, { dateOnly });
  return (
    <time dateTime={iso} title={iso} suppressHydrationWarning>
      {text}
    </time>
  );
}
