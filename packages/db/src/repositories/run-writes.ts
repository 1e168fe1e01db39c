/**
 * The worker's writes on a run's hot path, each one SQL statement and one round trip: the
 * claim of a queued run (with everything executing it needs), and a batch of progress (run
 * events, a step run opened or closed, the checkpoint, the trace id) written together,
 * guarded by the run still being held by this worker. Prisma wraps every updateMany and
 * createMany in a transaction of its own (three round trips each); a run used to spend most
 * of its orchestration time there. Team-scoped like every repository.
 */
import { inTransaction, rawQuery, type Db } from "../client";
import { storableJson, storableText } from "../storable";
import { CONNECTOR_TASK_ENDED } from "./connector-tasks";
import type { RunEnd } from "./run-lifecycle";

/** A queued run this worker now holds, with what executing it needs. */
type ClaimedRun = {
  id: string;
  teamId: string;
  workflowId: string;
  workflowVersionId: string;
  workflowName: string;
  /** the pack the workflow comes from; null for the team's own */
  workflowPack: string | null;
  inputs: unknown;
  lane: string;
  startedById: string | null;
  pinnedVersions: Record<string, string> | null;
  /** a replay: the attempt it replays and what it changes */
  replayOfId: string | null;
  replayOptions: unknown;
  /** the sequence number the run's next event takes */
  nextSeq: number;
};

const CLAIMED_COLUMNS = `id, "teamId", "workflowId", "workflowVersionId", inputs, lane, "startedById", "pinnedVersions", "replayOfId", "replayOptions"`;
const WITH_WORKFLOW = `SELECT c.*, w.name AS "workflowName", w.pack AS "workflowPack",
       (SELECT COALESCE(MAX(e.seq), 0) + 1 FROM "RunEvent" e WHERE e."runId" = c.id AND e."teamId" = c."teamId")::int AS "nextSeq"
     FROM claimed c JOIN "Workflow" w ON w.id = c."workflowId" AND w."teamId" = c."teamId"`;

/** What a claim of a run of a team with a limit reads and does, under the team's lock. */
type LimitedClaim = Partial<ClaimedRun> & { limited: boolean };

/**
 * Claims a queued run for `workerId` (queued → running) and returns it; undefined when the
 * run is not the team's or not queued (someone else claimed it, it ended, or it is running
 * and needs the resume path); "limited" when it is queued but its team already has
 * limit running: it stays queued, with one `run.waiting` event saying why. The limit is
 * the lower of the team's `maxConcurrentRuns` and the operator's `operatorLimit` (either
 * may be unset). A team without a limit is claimed in one statement. A team with one is
 * claimed under a per-team transaction lock, so workers claiming at once count each other's
 * claims (a statement alone would count what its snapshot saw, before the other claim committed).
 */
export const claimQueuedRun = async (
  db: Db,
  teamId: string,
  runId: string,
  workerId: string,
  operatorLimit: number | null = null,
): Promise<ClaimedRun | "limited" | undefined> => {
  const at = new Date().toISOString();
  const rows =
    operatorLimit !== null
      ? []
      : await rawQuery<ClaimedRun>(
          db,
          `WITH claimed AS (
       UPDATE "Run" SET status = 'running', "startedAt" = $4::timestamp(3), "workerId" = $3
       WHERE id = $1 AND "teamId" = $2 AND status = 'queued'
         AND NOT EXISTS (SELECT 1 FROM "Team" t WHERE t.id = $2 AND t."maxConcurrentRuns" IS NOT NULL)
       RETURNING ${CLAIMED_COLUMNS}
     )
     ${WITH_WORKFLOW}`,
          [runId, teamId, workerId, at],
        );
  if (rows[0]) return rows[0];
  const claim = await inTransaction(db, async (query) => {
    await query(
      `SELECT pg_advisory_xact_lock(hashtextextended('switchyard.team-runs:' || $1, 0))`,
      [teamId],
    );
    // Its start is when it got the team's place: after the lock, which may have waited for a run to end.
    const claimedAt = new Date().toISOString();
    const [row] = await query<LimitedClaim>(
      `WITH lim AS (
         SELECT LEAST(t."maxConcurrentRuns", $5::int) AS max,
           (SELECT count(*) FROM "Run" r WHERE r."teamId" = $2 AND r.status = 'running')::int AS running,
           EXISTS (SELECT 1 FROM "Run" r WHERE r.id = $1 AND r."teamId" = $2 AND r.status = 'queued') AS queued
         FROM "Team" t WHERE t.id = $2
       ),
       claimed AS (
         UPDATE "Run" SET status = 'running', "startedAt" = $4::timestamp(3), "workerId" = $3
         WHERE id = $1 AND "teamId" = $2 AND status = 'queued' AND (SELECT max IS NULL OR running < max FROM lim)
         RETURNING ${CLAIMED_COLUMNS}
       ),
       waiting AS (
         INSERT INTO "RunEvent" ("teamId", "runId", seq, type, payload, "createdAt")
         SELECT $2, $1, (SELECT COALESCE(MAX(e.seq), 0) + 1 FROM "RunEvent" e WHERE e."runId" = $1 AND e."teamId" = $2), 'run.waiting',
           jsonb_build_object('reason', 'team_limit', 'limit', lim.max, 'running', lim.running), $4::timestamp(3)
         FROM lim
         WHERE lim.queued AND lim.max IS NOT NULL AND lim.running >= lim.max
           AND NOT EXISTS (SELECT 1 FROM "RunEvent" e WHERE e."runId" = $1 AND e."teamId" = $2 AND e.type = 'run.waiting')
       ),
       got AS (${WITH_WORKFLOW})
       SELECT got.*, (lim.queued AND lim.max IS NOT NULL AND lim.running >= lim.max) AS limited
       FROM lim LEFT JOIN got ON true`,
      [runId, teamId, workerId, claimedAt, operatorLimit],
    );
    return row;
  });
  if (!claim) return undefined;
  const { limited, ...run } = claim;
  if (run.id !== undefined && run.id !== null) return run as ClaimedRun;
  return limited ? "limited" : undefined;
};

export type StepRunOpen = {
  id: string;
  stateName: string;
  stepType: "step" | "agent" | "operation";
  attempt: number;
  path: unknown;
  provider?: string;
  sandboxLevel?: string;
};

export type StepRunClose = {
  id: string;
  status: "succeeded" | "failed" | "cancelled";
  exitCode: number | null;
  stdout: string;
  stderr: string;
  output: string;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  agentSessionId?: string;
  /** The agent CLI's version; unset keeps what the row holds. */
  agentVersion?: string;
  /** AWF's state.conversation of a session-tracked or conversation step. */
  conversation?: unknown;
  errorCode?: string;
  errorMessage?: string;
  /** Only while the row is still running (closing one whose end could not be stored). */
  onlyIfRunning?: boolean;
  /**
   * A conversation that ended: its step's kept sessions (AgentSession.stepKey) go in the
   * same statement as its end, so no worker ever sees the one without the other.
   */
  endsSessionsOf?: string;
};

/** What an agent attempt started with, stored on its open row (StepRun.agentRequest, snapshotId). */
export type StepRunStarted = {
  id: string;
  /** The scrubbed request record (AgentRequestRecord). */
  agentRequest: unknown;
  /** The workspace snapshot taken as it started; null: none was kept. */
  snapshotId: string | null;
};

export type RunBatch = {
  events: { seq: number; type: string; payload: unknown }[];
  open?: StepRunOpen;
  started?: StepRunStarted;
  close?: StepRunClose;
  checkpoint?: unknown;
  traceId?: string;
};

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Strings as Postgres takes them: no U+0000, no lone surrogate (which the driver cannot send). */
const text = (value: string) => storableText(value).replace(LONE_SURROGATE, "\ufffd");
const optionalText = (value: string | undefined | null) =>
  value === undefined || value === null ? null : text(value);
const json = (value: unknown) => JSON.stringify(storableJson(value ?? null));

/**
 * Writes a batch of a run's progress in one statement while `workerId` holds the run
 * (running, its worker): nothing is written otherwise, and `held` says which. Sent twice
 * (its answer lost with the connection), it stores the same: the step row's id and the
 * events' numbers are the caller's, and what is already there is skipped.
 */
export const writeRunBatch = async (
  db: Db,
  scope: { teamId: string; runId: string; workerId: string },
  batch: RunBatch,
): Promise<{ held: boolean }> => {
  const params: unknown[] = [scope.runId, scope.teamId, scope.workerId, new Date().toISOString()];
  const p = (value: unknown) => `$${params.push(value)}`;
  const at = "$4::timestamp(3)";
  const sets: string[] = [];
  if (batch.checkpoint !== undefined) sets.push(`checkpoint = ${p(json(batch.checkpoint))}::jsonb`);
  if (batch.traceId !== undefined) sets.push(`"traceId" = ${p(batch.traceId)}`);
  const held = `id = $1 AND "teamId" = $2 AND "workerId" = $3 AND status = 'running'`;
  const ctes = [
    sets.length > 0
      ? `g AS (UPDATE "Run" SET ${sets.join(", ")} WHERE ${held} RETURNING 1)`
      : `g AS (SELECT 1 FROM "Run" WHERE ${held})`,
  ];
  const ifHeld = "EXISTS (SELECT 1 FROM g)";
  if (batch.events.length > 0) {
    ctes.push(
      `e AS (INSERT INTO "RunEvent" ("teamId", "runId", seq, type, payload, "createdAt")
        SELECT $2, $1, x.seq, x.type, x.payload::jsonb, ${at}
        FROM unnest(${p(batch.events.map((e) => e.seq))}::int[], ${p(batch.events.map((e) => text(e.type)))}::text[], ${p(batch.events.map((e) => json(e.payload)))}::text[]) AS x(seq, type, payload)
        WHERE ${ifHeld}
        ON CONFLICT ("runId", seq) DO NOTHING)`,
    );
  }
  const open = batch.open;
  if (open) {
    ctes.push(
      `o AS (INSERT INTO "StepRun" (id, "teamId", "runId", "stateName", "stepType", attempt, path, provider, status, "sandboxLevel", "createdAt", "startedAt")
        SELECT ${p(open.id)}, $2, $1, ${p(text(open.stateName))}, ${p(open.stepType)}, ${p(open.attempt)}::int, ${p(json(open.path))}::jsonb,
          ${p(optionalText(open.provider))}, 'running', ${p(open.sandboxLevel ?? null)}, ${at}, ${at}
        WHERE ${ifHeld}
        ON CONFLICT (id) DO NOTHING)`,
    );
  }
  const started = batch.started;
  if (started) {
    ctes.push(
      `s AS (UPDATE "StepRun" SET "agentRequest" = ${p(json(started.agentRequest))}::jsonb, "snapshotId" = ${p(started.snapshotId)}
        WHERE id = ${p(started.id)} AND "teamId" = $2 AND "runId" = $1 AND ${ifHeld})`,
    );
  }
  const close = batch.close;
  if (close) {
    ctes.push(
      `f AS (UPDATE "StepRun" SET status = ${p(close.status)}::"StepStatus", "exitCode" = ${p(close.exitCode)}::int,
          stdout = ${p(text(close.stdout))}, stderr = ${p(text(close.stderr))}, output = ${p(text(close.output))},
          "inputTokens" = ${p(close.inputTokens ?? null)}::int, "outputTokens" = ${p(close.outputTokens ?? null)}::int,
          "costUsd" = ${p(close.costUsd ?? null)}::numeric, "agentSessionId" = ${p(optionalText(close.agentSessionId))},
          "agentVersion" = COALESCE(${p(optionalText(close.agentVersion))}, "agentVersion"),
          conversation = ${p(close.conversation === undefined ? null : json(close.conversation))}::jsonb,
          "errorCode" = ${p(optionalText(close.errorCode))}, "errorMessage" = ${p(optionalText(close.errorMessage))}, "finishedAt" = ${at}
        WHERE id = ${p(close.id)} AND "teamId" = $2${close.onlyIfRunning ? ` AND status = 'running'` : ""} AND ${ifHeld}
        RETURNING 1)`,
    );
    if (close.endsSessionsOf !== undefined)
      ctes.push(
        `d AS (DELETE FROM "AgentSession" WHERE "teamId" = $2 AND "runId" = $1 AND "stepKey" = ${p(close.endsSessionsOf)}
          AND EXISTS (SELECT 1 FROM f))`,
      );
  }
  const rows = await rawQuery<{ held: number }>(
    db,
    `WITH ${ctes.join(",\n")} SELECT (SELECT count(*) FROM g)::int AS held, ${at} AS at`,
    params,
  );
  return { held: (rows[0]?.held ?? 0) > 0 };
};

/**
 * Ends a run while this worker holds it, in one statement: the run's status, and what can
 * no longer wait with it (its open waits cancelled, its attempts parked on a person closed
 * as cancelled). Says whether it ended the run, and whether a connector task of the run is
 * still open at its server (then the caller cancels it there).
 */
export const endRun = async (
  db: Db,
  teamId: string,
  runId: string,
  result: RunEnd,
  workerId: string,
): Promise<{ ended: boolean; openTasks: boolean }> => {
  const at = new Date().toISOString();
  const [row] = await rawQuery<{ ended: boolean; openTasks: boolean }>(
    db,
    `WITH r AS (
       UPDATE "Run" SET status = $3::"RunStatus", "errorCode" = $4, "errorMessage" = $5, "finishedAt" = $6::timestamp(3)
       WHERE id = $1 AND "teamId" = $2 AND status = 'running' AND "workerId" = $7
       RETURNING id
     ),
     w AS (
       UPDATE "Wait" SET status = 'cancelled', "answeredAt" = $6::timestamp(3)
       WHERE "runId" = $1 AND "teamId" = $2 AND status = 'open' AND EXISTS (SELECT 1 FROM r)
       RETURNING id
     ),
     s AS (
       UPDATE "StepRun" SET status = 'cancelled', "errorCode" = 'EXECUTION.CANCELLED',
         "errorMessage" = 'the run ended while this step waited for a person', "finishedAt" = $6::timestamp(3)
       WHERE "runId" = $1 AND "teamId" = $2 AND status = 'waiting' AND EXISTS (SELECT 1 FROM r)
       RETURNING id
     )
     SELECT EXISTS (SELECT 1 FROM r) AS ended,
       EXISTS (SELECT 1 FROM "ConnectorTask" t WHERE t."runId" = $1 AND t."teamId" = $2
         AND t.status <> ALL ($8::text[])) AS "openTasks"`,
    [
      runId,
      teamId,
      result.status,
      storableText(result.errorCode) ?? null,
      storableText(result.errorMessage) ?? null,
      at,
      workerId,
      CONNECTOR_TASK_ENDED,
    ],
  );
  return { ended: row?.ended ?? false, openTasks: row?.openTasks ?? false };
};
