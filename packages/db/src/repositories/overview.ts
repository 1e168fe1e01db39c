/**
 * The team's overview over the last N days, bucketed by the viewer's local day: runs by
 * status, step durations (p50/p95), tokens and cost, and its most used tools and
 * connectors. Every query filters on teamId and a createdAt/startedAt range, so each
 * reads a range of its table's team index only:
 *   Run      ("teamId", "createdAt" DESC, id DESC)
 *   StepRun  ("teamId", "createdAt" DESC)
 *   ToolCall ("teamId", "startedAt" DESC)
 * Columns hold UTC without a zone; `(col AT TIME ZONE 'UTC') AT TIME ZONE $tz` is the
 * viewer's wall-clock time, and its date is the day a row counts on.
 */
import { AppError } from "@switchyard/core/errors";
import type { Db } from "../client";
import { RunStatus } from "../generated/prisma/enums";

type OverviewRunStatus = RunStatus;
const RUN_STATUSES = Object.values(RunStatus);

type OverviewInput = {
  teamId: string;
  days: number;
  /** an IANA time zone, e.g. Europe/Berlin */
  timeZone: string;
  /** the end of the range (tests pin it); now when unset */
  now?: Date;
};

type Duration = { p50Ms: number | null; p95Ms: number | null; steps: number };
type Usage = { inputTokens: number; outputTokens: number; costUsd: number };
type Counted = { calls: number; errors: number; errorRate: number };

type TeamOverview = {
  range: { days: number; timeZone: string; from: Date; to: Date };
  runs: { total: number; byStatus: Record<OverviewRunStatus, number>; successRate: number | null };
  stepDuration: Duration;
  usage: Usage;
  perDay: {
    date: string;
    runs: Record<OverviewRunStatus, number>;
    stepDuration: Duration;
    usage: Usage;
  }[];
  usageByWorkflow: ({ workflowId: string; name: string; steps: number } & Usage)[];
  topTools: ({ name: string } & Counted)[];
  topConnectors: ({ connectorId: string } & Counted)[];
};

/** Workflows, tools and connectors listed at most. */
const TOP = 10;
const NAIVE_UTC = `YYYY-MM-DD"T"HH24:MI:SS.MS`;

/** A count of zero for every run status (the run list's counts start from it too). */
export const zeroRuns = (): Record<OverviewRunStatus, number> => ({
  queued: 0,
  running: 0,
  waiting: 0,
  succeeded: 0,
  failed: 0,
  cancelled: 0,
});
/** Of the runs that finished, the share that succeeded; null when none finished. */
const successRateOf = (runs: Record<OverviewRunStatus, number>) => {
  const finished = runs.succeeded + runs.failed + runs.cancelled;
  return finished === 0 ? null : runs.succeeded / finished;
};
const rounded = (n: number | null) => (n === null ? null : Math.round(n));
const counted = (calls: number, errors: number): Counted => ({
  calls,
  errors,
  errorRate: calls === 0 ? 0 : errors / calls,
});

/** "2026-11-28" plus n days, as a calendar date (no zone involved). */
const addDays = (date: string, n: number) => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
};

/** Postgres refuses a zone it does not know with 22023 ("time zone ... not recognized"). */
const isUnknownZone = (error: unknown) =>
  /time zone .* not recognized/i.test(String((error as { message?: unknown })?.message ?? error));

export const teamOverview = async (db: Db, input: OverviewInput): Promise<TeamOverview> => {
  const { teamId, days, timeZone } = input;
  if (!Number.isInteger(days) || days < 1 || days > 366)
    throw new AppError("BAD_REQUEST", "days: a whole number of days from 1 to 366");
  const now = (input.now ?? new Date()).toISOString();

  // The range's bounds: local midnight `days - 1` days before today, to now, as naive UTC
  // texts the later queries cast back, so each compares its column with a constant.
  let bounds: { startDay: string; fromUtc: string; toUtc: string }[];
  try {
    bounds = await db.$queryRaw`
      SELECT to_char(local_start, 'YYYY-MM-DD') AS "startDay",
             to_char((local_start AT TIME ZONE ${timeZone}::text) AT TIME ZONE 'UTC', ${NAIVE_UTC}::text) AS "fromUtc",
             to_char(${now}::timestamptz AT TIME ZONE 'UTC', ${NAIVE_UTC}::text) AS "toUtc"
      FROM (SELECT date_trunc('day', ${now}::timestamptz AT TIME ZONE ${timeZone}::text) - make_interval(days => ${days}::int - 1) AS local_start) s`;
  } catch (error) {
    if (isUnknownZone(error))
      throw new AppError(
        "BAD_REQUEST",
        `tz: unknown time zone ${JSON.stringify(timeZone)}; use an IANA name such as Europe/Berlin`,
      );
    throw error;
  }
  const { startDay, fromUtc, toUtc } = bounds[0]!;
  const dates = Array.from({ length: days }, (_, i) => addDays(startDay, i));

  const [runRows, stepRows, workflowRows, toolRows, connectorRows] = await Promise.all([
    // Run ("teamId", "createdAt")
    db.$queryRaw<{ date: string; status: OverviewRunStatus; n: number }[]>`
      SELECT to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone}::text, 'YYYY-MM-DD') AS date, status::text AS status, count(*)::int AS n
      FROM "Run"
      WHERE "teamId" = ${teamId} AND "createdAt" >= ${fromUtc}::timestamp AND "createdAt" <= ${toUtc}::timestamp
      GROUP BY 1, 2`,
    // StepRun ("teamId", "createdAt"); the row with date null is the whole range.
    db.$queryRaw<
      {
        date: string | null;
        p50: number | null;
        p95: number | null;
        timed: number;
        inputTokens: number;
        outputTokens: number;
        costUsd: number;
      }[]
    >`
      SELECT date,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY ms) AS p95,
             count(ms)::int AS timed,
             coalesce(sum("inputTokens"), 0)::float8 AS "inputTokens",
             coalesce(sum("outputTokens"), 0)::float8 AS "outputTokens",
             coalesce(sum("costUsd"), 0)::float8 AS "costUsd"
      FROM (
        SELECT to_char(("createdAt" AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone}::text, 'YYYY-MM-DD') AS date,
               EXTRACT(EPOCH FROM ("finishedAt" - "startedAt"))::float8 * 1000 AS ms,
               "inputTokens", "outputTokens", "costUsd"
        FROM "StepRun"
        WHERE "teamId" = ${teamId} AND "createdAt" >= ${fromUtc}::timestamp AND "createdAt" <= ${toUtc}::timestamp
      ) s
      GROUP BY GROUPING SETS ((date), ())`,
    // StepRun ("teamId", "createdAt"), each joined to its run by primary key.
    db.$queryRaw<({ workflowId: string; name: string; steps: number } & Usage)[]>`
      SELECT r."workflowId" AS "workflowId", w.name AS name, count(*)::int AS steps,
             coalesce(sum(s."inputTokens"), 0)::float8 AS "inputTokens",
             coalesce(sum(s."outputTokens"), 0)::float8 AS "outputTokens",
             coalesce(sum(s."costUsd"), 0)::float8 AS "costUsd"
      FROM "StepRun" s
      JOIN "Run" r ON r.id = s."runId" AND r."teamId" = ${teamId}
      JOIN "Workflow" w ON w.id = r."workflowId" AND w."teamId" = ${teamId}
      WHERE s."teamId" = ${teamId} AND s."createdAt" >= ${fromUtc}::timestamp AND s."createdAt" <= ${toUtc}::timestamp
      GROUP BY r."workflowId", w.name
      HAVING coalesce(sum(s."inputTokens"), 0) + coalesce(sum(s."outputTokens"), 0) > 0 OR coalesce(sum(s."costUsd"), 0) > 0
      ORDER BY coalesce(sum(s."costUsd"), 0) DESC, coalesce(sum(s."inputTokens"), 0) + coalesce(sum(s."outputTokens"), 0) DESC, w.name
      LIMIT ${TOP}`,
    // ToolCall ("teamId", "startedAt")
    db.$queryRaw<{ name: string; calls: number; errors: number }[]>`
      SELECT "toolName" AS name, count(*)::int AS calls, count(*) FILTER (WHERE "isError")::int AS errors
      FROM "ToolCall"
      WHERE "teamId" = ${teamId} AND "startedAt" >= ${fromUtc}::timestamp AND "startedAt" <= ${toUtc}::timestamp
      GROUP BY "toolName"
      ORDER BY calls DESC, name
      LIMIT ${TOP}`,
    db.$queryRaw<{ connectorId: string; calls: number; errors: number }[]>`
      SELECT "connectorId" AS "connectorId", count(*)::int AS calls, count(*) FILTER (WHERE "isError")::int AS errors
      FROM "ToolCall"
      WHERE "teamId" = ${teamId} AND "startedAt" >= ${fromUtc}::timestamp AND "startedAt" <= ${toUtc}::timestamp AND "connectorId" IS NOT NULL
      GROUP BY "connectorId"
      ORDER BY calls DESC, "connectorId"
      LIMIT ${TOP}`,
  ]);

  const perDay = new Map<string, TeamOverview["perDay"][number]>(
    dates.map((date) => [
      date,
      {
        date,
        runs: zeroRuns(),
        stepDuration: { p50Ms: null, p95Ms: null, steps: 0 },
        usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      },
    ]),
  );
  const byStatus = zeroRuns();
  for (const row of runRows) {
    if (!RUN_STATUSES.includes(row.status)) continue;
    byStatus[row.status] += row.n;
    const day = perDay.get(row.date);
    if (day) day.runs[row.status] += row.n;
  }
  let stepDuration: Duration = { p50Ms: null, p95Ms: null, steps: 0 };
  let usage: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  for (const row of stepRows) {
    const duration = { p50Ms: rounded(row.p50), p95Ms: rounded(row.p95), steps: row.timed };
    const rowUsage = {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      costUsd: row.costUsd,
    };
    if (row.date === null) {
      stepDuration = duration;
      usage = rowUsage;
      continue;
    }
    const day = perDay.get(row.date);
    if (!day) continue;
    day.stepDuration = duration;
    day.usage = rowUsage;
  }
  const total = RUN_STATUSES.reduce((sum, status) => sum + byStatus[status], 0);
  return {
    range: { days, timeZone, from: new Date(`${fromUtc}Z`), to: new Date(`${toUtc}Z`) },
    runs: { total, byStatus, successRate: successRateOf(byStatus) },
    stepDuration,
    usage,
    perDay: [...perDay.values()],
    usageByWorkflow: workflowRows,
    topTools: toolRows.map((r) => ({ name: r.name, ...counted(r.calls, r.errors) })),
    topConnectors: connectorRows.map((r) => ({
      connectorId: r.connectorId,
      ...counted(r.calls, r.errors),
    })),
  };
};
