/**
 * The web's hot reads of runs: the run list and its counts per status, one run with its
 * steps, a page of a run's tool calls, and a run's status. Each is plain SQL on the client's
 * pool (rawQuery), as the worker's writes are: under load Prisma's query compiler cost the
 * web more CPU per request than Postgres took to answer. Every statement is scoped to the
 * team; the shapes are the ones the Prisma reads had, so callers do not change.
 * Timestamps are `timestamp(3)` holding UTC: read `AT TIME ZONE 'UTC'` so node-postgres
 * makes the right Date whatever the process's zone; written as ISO text cast to
 * `timestamp(3)` (which ignores the text's zone).
 */
import type { Prisma, Run, RunStatus, RunTrigger, StepRun } from "../generated/prisma/client";
import type { ConversationState } from "@switchyard/core/workflow";
import { AppError } from "@switchyard/core/errors";
import { isStorableTime } from "@switchyard/core/time";
import { rawQuery, type Db } from "../client";
import { zeroRuns } from "./overview";

/** What the run list can be narrowed by; every field is optional and they combine (AND). */
export type RunListFilter = {
  status?: RunStatus[];
  workflowId?: string;
  lane?: string;
  trigger?: RunTrigger[];
  /** the user who started it (an API token's runs are its owner's) */
  startedById?: string;
  /** created at or after */
  from?: Date;
  /** created before */
  to?: Date;
  /** only the runs marked as examples of their workflow */
  example?: boolean;
};

/** Where a page of the list ends: the last run's creation time and id (the list's order). */
type RunCursor = { createdAt: Date; id: string };

/** `alias."column" AT TIME ZONE 'UTC' AS "column"`: a timestamp(3) column read as the instant it holds. */
const utc = (alias: string, column: string, as = column) =>
  `${alias}."${column}" AT TIME ZONE 'UTC' AS "${as}"`;

/** A statement's parameters, added in order: `p(value)` answers its placeholder. */
const parameters = (params: unknown[]) => (value: unknown) => `$${params.push(value)}`;

/** `column` is one of `values` (an enum `type`): plain equality for one, as Prisma's `IN` becomes, so the status index keeps its order. */
const oneOf = (p: (value: unknown) => string, column: string, values: string[], type: string) =>
  values.length === 1
    ? `${column} = ${p(values[0])}::"${type}"`
    : `${column} = ANY(${p(values)}::"${type}"[])`;

/** The conditions of a filter on `r` ("Run"), always the team's first. */
const conditionsOf = (
  p: (value: unknown) => string,
  teamId: string,
  filter: RunListFilter,
): string[] => {
  const where = [`r."teamId" = ${p(teamId)}`];
  if (filter.status?.length) where.push(oneOf(p, "r.status", filter.status, "RunStatus"));
  if (filter.workflowId) where.push(`r."workflowId" = ${p(filter.workflowId)}`);
  if (filter.lane) where.push(`r.lane = ${p(filter.lane)}`);
  if (filter.trigger?.length) where.push(oneOf(p, "r.trigger", filter.trigger, "RunTrigger"));
  if (filter.startedById) where.push(`r."startedById" = ${p(filter.startedById)}`);
  if (filter.example) where.push(`r."exampleAt" IS NOT NULL`);
  if (filter.from) where.push(`r."createdAt" >= ${p(filter.from.toISOString())}::timestamp(3)`);
  if (filter.to) where.push(`r."createdAt" < ${p(filter.to.toISOString())}::timestamp(3)`);
  return where;
};

/** An opaque cursor string: base64url of `<ISO time>|<id>`. */
const encodeRunCursor = (cursor: RunCursor) =>
  Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.id}`).toString("base64url");

/**
 * The cursor in a string from encodeRunCursor; a string that is none (a forged one holding a
 * moment PostgreSQL cannot store, say) is a BAD_REQUEST naming `cursor`.
 */
export const decodeRunCursor = (text: string): RunCursor => {
  const [at, id, ...rest] = Buffer.from(text, "base64url").toString("utf8").split("|");
  const createdAt = new Date(at ?? "");
  if (!id || rest.length > 0 || !isStorableTime(createdAt)) {
    throw new AppError("BAD_REQUEST", "cursor: not a cursor this list gave out", {
      location: { path: "cursor" },
    });
  }
  return { createdAt, id };
};

type ListedRunRow = {
  id: string;
  workflowId: string;
  status: RunStatus;
  trigger: RunTrigger;
  lane: string;
  errorCode: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  rerunOfId: string | null;
  replayOfId: string | null;
  exampleAt: Date | null;
  workflowName: string;
  starterId: string | null;
  starterName: string | null;
};

/**
 * A page of the team's runs, newest first, with what a list shows: never a run's checkpoint
 * (every value it captured), its inputs or its pinned versions, which only the run's own
 * page may read. Keyset paging on (createdAt desc, id desc), so a page neither repeats nor
 * skips runs created meanwhile; `nextCursor` is null on the last page.
 */
export const listRuns = async (
  db: Db,
  teamId: string,
  options: RunListFilter & { cursor?: RunCursor; take?: number } = {},
) => {
  const take = Math.min(Math.max(options.take ?? 50, 1), 200);
  const params: unknown[] = [];
  const p = parameters(params);
  const where = conditionsOf(p, teamId, options);
  const after = options.cursor;
  if (after) {
    const at = `${p(after.createdAt.toISOString())}::timestamp(3)`;
    // The redundant bound lets Postgres start its index range at the cursor instead of
    // filtering every newer run out first (an OR alone is no range).
    where.push(
      `r."createdAt" <= ${at} AND (r."createdAt" < ${at} OR (r."createdAt" = ${at} AND r.id < ${p(after.id)}))`,
    );
  }
  const rows = await rawQuery<ListedRunRow>(
    db,
    `SELECT r.id, r."workflowId", r.status::text AS status, r.trigger::text AS trigger, r.lane, r."errorCode",
       ${utc("r", "createdAt")}, ${utc("r", "startedAt")}, ${utc("r", "finishedAt")},
       r."rerunOfId", r."replayOfId", ${utc("r", "exampleAt")},
       w.name AS "workflowName", u.id AS "starterId", u.name AS "starterName"
     FROM (SELECT r.id, r."teamId", r."workflowId", r.status, r.trigger, r.lane, r."errorCode", r."createdAt",
             r."startedAt", r."finishedAt", r."rerunOfId", r."replayOfId", r."exampleAt", r."startedById"
           FROM "Run" r WHERE ${where.join(" AND ")}
           ORDER BY r."createdAt" DESC, r.id DESC LIMIT ${p(take + 1)}) r
     JOIN "Workflow" w ON w.id = r."workflowId" AND w."teamId" = r."teamId"
     LEFT JOIN "User" u ON u.id = r."startedById"
     ORDER BY r."createdAt" DESC, r.id DESC`,
    params,
  );
  const page = rows.slice(0, take).map(({ workflowName, starterId, starterName, ...run }) => ({
    ...run,
    workflow: { name: workflowName },
    startedBy: starterId === null ? null : { id: starterId, name: starterName ?? "" },
  }));
  const last = page[page.length - 1];
  return { runs: page, nextCursor: rows.length > take && last ? encodeRunCursor(last) : null };
};

/** How many of the team's runs match the filter, per status (the filter's own status ignored). */
export const countRunsByStatus = async (db: Db, teamId: string, filter: RunListFilter = {}) => {
  const params: unknown[] = [];
  const where = conditionsOf(parameters(params), teamId, { ...filter, status: undefined });
  const groups = await rawQuery<{ status: RunStatus; n: number }>(
    db,
    `SELECT r.status::text AS status, count(*)::int AS n FROM "Run" r WHERE ${where.join(" AND ")} GROUP BY r.status`,
    params,
  );
  const counts = zeroRuns();
  for (const group of groups) counts[group.status] = group.n;
  return counts;
};

type RunRow = Omit<Run, "checkpoint" | "pinnedVersions" | "idempotencyHash"> & {
  workflowName: string;
  starterName: string | null;
  versionNumber: number;
  bundleHash: string;
  firedById: string | null;
  firedByName: string | null;
  firedByKind: string | null;
};

type StepRow = Omit<StepRun, "costUsd" | "conversation"> & {
  costUsd: number | null;
  conversation: Prisma.JsonValue;
  toolCallCount: number;
};

const RUN_READ = `SELECT r.id, r."teamId", r."workflowId", r."workflowVersionId", r.status::text AS status, r.inputs, r.lane,
       r.trigger::text AS trigger, r."startedById", r."parentRunId", ${utc("r", "cancelRequestedAt")}, r.outputs,
       r."errorCode", r."errorMessage", r."traceId", r."workerId", r."triggerId", r."rerunOfId", r."idempotencyKey",
       r."replayOfId", r."replayOptions", r."replaySuiteId", ${utc("r", "exampleAt")},
       ${utc("r", "createdAt")}, ${utc("r", "startedAt")}, ${utc("r", "finishedAt")},
       w.name AS "workflowName", u.name AS "starterName", v.number AS "versionNumber", v."bundleHash",
       t.id AS "firedById", t.name AS "firedByName", t.kind::text AS "firedByKind"
     FROM "Run" r
     JOIN "Workflow" w ON w.id = r."workflowId"
     JOIN "WorkflowVersion" v ON v.id = r."workflowVersionId"
     LEFT JOIN "User" u ON u.id = r."startedById"
     LEFT JOIN "Trigger" t ON t.id = r."triggerId" AND t."teamId" = r."teamId"
     WHERE r.id = $1 AND r."teamId" = $2`;

const STEPS_READ = `SELECT s.id, s."teamId", s."runId", s."stateName", s."stepType", s.attempt, s.path, s.status::text AS status,
       s."exitCode", s.stdout, s.stderr, s.output, s."errorCode", s."errorMessage", s."sandboxLevel", s.provider,
       s."agentSessionId", s."inputTokens", s."outputTokens", s."costUsd"::float8 AS "costUsd", s."spanId",
       s."agentRequest", s."agentVersion", s."snapshotId", s.conversation,
       ${utc("s", "createdAt")}, ${utc("s", "startedAt")}, ${utc("s", "finishedAt")},
       (SELECT count(*) FROM "ToolCall" c WHERE c."stepRunId" = s.id)::int AS "toolCallCount"
     FROM "StepRun" s
     WHERE s."runId" = $1 AND s."teamId" = $2
     ORDER BY s."createdAt", s.id`;

/**
 * The run with its steps, each with how many tool calls it made and its cost as a number
 * (a JSON answer has no decimal type), never its checkpoint or pinned versions. Two
 * statements side by side: the run with its workflow, version, starter and trigger, and
 * its steps (none when the run is not the team's: both filter on the team).
 */
export const getRun = async (db: Db, teamId: string, runId: string) => {
  const [runs, steps] = await Promise.all([
    rawQuery<RunRow>(db, RUN_READ, [runId, teamId]),
    rawQuery<StepRow>(db, STEPS_READ, [runId, teamId]),
  ]);
  const row = runs[0];
  if (!row) return null;
  const {
    workflowName,
    starterName,
    versionNumber,
    bundleHash,
    firedById,
    firedByName,
    firedByKind,
    ...run
  } = row;
  return {
    ...run,
    workflow: { id: run.workflowId, name: workflowName },
    startedBy: run.startedById === null ? null : { id: run.startedById, name: starterName ?? "" },
    version: { number: versionNumber, bundleHash },
    firedBy:
      firedById === null
        ? null
        : { id: firedById, name: firedByName ?? "", kind: firedByKind ?? "" },
    steps: steps.map(({ conversation, ...step }) => ({
      ...step,
      conversation: conversation as ConversationState | null,
    })),
  };
};

/** The run's status, for a stream that ends with the run; null when it is not the team's. */
export const runStatusOf = async (db: Db, teamId: string, runId: string) =>
  (
    await rawQuery<{ status: RunStatus }>(
      db,
      `SELECT status::text AS status FROM "Run" WHERE id = $1 AND "teamId" = $2`,
      [runId, teamId],
    )
  )[0]?.status ?? null;

type ToolCallListed = {
  id: string;
  stepRunId: string;
  toolName: string;
  source: string;
  fidelity: "proxy" | "agent_reported";
  arguments: Prisma.JsonValue;
  result: Prisma.JsonValue;
  isError: boolean;
  errorType: string | null;
  startedAt: Date;
  durationMs: number;
};

/**
 * A page of a run's tool calls (every step's, or one step run's), in the order they started:
 * `after` is the id of the last call of the previous page (one of another run or team is
 * ignored: the page starts at the first call); `nextAfter` is null on the last page. Null
 * when the run is not the team's.
 */
export const listRunToolCalls = async (
  db: Db,
  teamId: string,
  runId: string,
  options: { after?: string; take?: number; stepRunId?: string } = {},
) => {
  const take = Math.min(Math.max(options.take ?? 100, 1), 500);
  const from = options.after
    ? (
        await rawQuery<{ startedAt: string; id: string }>(
          db,
          // As text: the bound below compares at the column's own precision.
          `SELECT "startedAt"::text AS "startedAt", id FROM "ToolCall" WHERE id = $1 AND "teamId" = $2 AND "runId" = $3`,
          [options.after, teamId, runId],
        )
      )[0]
    : undefined;
  const params: unknown[] = [teamId, runId];
  const p = parameters(params);
  const where = [`t."teamId" = $1`, `t."runId" = $2`];
  if (options.stepRunId) where.push(`t."stepRunId" = ${p(options.stepRunId)}`);
  if (from) {
    const at = `${p(from.startedAt)}::timestamp(3)`;
    // The redundant bound starts the index range (runId, startedAt, id) at the cursor.
    where.push(
      `t."startedAt" >= ${at} AND (t."startedAt" > ${at} OR (t."startedAt" = ${at} AND t.id > ${p(from.id)}))`,
    );
  }
  // The run's own row first, so a run that is not the team's is told apart from one without
  // calls in the same statement (a round trip and a write to Postgres fewer a request).
  const rows = await rawQuery<{ [K in keyof ToolCallListed]: ToolCallListed[K] | null }>(
    db,
    `SELECT t.id, t."stepRunId", t."toolName", t.source, t.fidelity::text AS fidelity, t.arguments, t.result,
       t."isError", t."errorType", ${utc("t", "startedAt")}, t."durationMs"
     FROM "Run" r LEFT JOIN LATERAL (
       SELECT t.* FROM "ToolCall" t WHERE ${where.join(" AND ")}
       ORDER BY t."startedAt", t.id LIMIT ${p(take + 1)}
     ) t ON true
     WHERE r.id = $2 AND r."teamId" = $1
     ORDER BY t."startedAt", t.id`,
    params,
  );
  if (rows.length === 0) return null;
  const calls = rows.filter((row): row is ToolCallListed => row.id !== null);
  const page = calls.slice(0, take);
  return {
    toolCalls: page,
    nextAfter: calls.length > take ? (page[page.length - 1]?.id ?? null) : null,
  };
};
