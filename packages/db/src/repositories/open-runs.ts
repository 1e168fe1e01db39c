/**
 * Open runs (queued or running, and waiting runs no open parked wait holds) as the worker's
 * requeue sweep reads them: the runs whose job may have been lost with Redis's data, or
 * whose resume after an answer was lost. Unlike the other repositories these read every
 * team's runs, one team at a time through the (team, status, created) index, since the
 * sweep serves the whole queue.
 */
import { rawQuery, type Db } from "../client";

/**
 * The runs a worker should have: queued, running, or waiting with no open parked wait (its
 * answer came, so it should be queued again). `r` is the run's alias.
 */
const SHOULD_HAVE_A_JOB = `(r.status IN ('queued', 'running') OR (r.status = 'waiting' AND NOT EXISTS (
  SELECT 1 FROM "Wait" w WHERE w."runId" = r.id AND w.status = 'open' AND w.parked)))`;

/** An open run as the sweep saw it: who held it (running) or nobody yet (queued). */
export type OpenRun = {
  id: string;
  teamId: string;
  status: "queued" | "running" | "waiting";
  workerId: string | null;
};

/**
 * Open runs of every team created before `createdBefore` (younger ones may still be getting
 * their job from whoever started them), oldest first, at most `limit` per team.
 */
export const listOpenRuns = (db: Db, createdBefore: Date, limit = 500): Promise<OpenRun[]> =>
  rawQuery<OpenRun>(
    db,
    `SELECT r.id, r."teamId", r.status::text AS status, r."workerId"
     FROM "Team" t CROSS JOIN LATERAL (
       SELECT r.id, r."teamId", r.status, r."workerId", r."createdAt" FROM "Run" r
       WHERE r."teamId" = t.id AND r.status IN ('queued', 'running', 'waiting')
         AND ${SHOULD_HAVE_A_JOB} AND r."createdAt" < $1::timestamp(3)
       ORDER BY r."createdAt" LIMIT $2
     ) r
     ORDER BY r."createdAt", r.id`,
    [createdBefore.toISOString(), limit],
  );

/** Those of `runs` that are still as they were seen: open, with the same status and holder. */
export const unchangedOpenRuns = async (db: Db, runs: readonly OpenRun[]): Promise<OpenRun[]> => {
  if (runs.length === 0) return [];
  const now = await rawQuery<OpenRun>(
    db,
    `SELECT r.id, r."teamId", r.status::text AS status, r."workerId" FROM "Run" r
     WHERE r.id = ANY($1::text[]) AND ${SHOULD_HAVE_A_JOB}`,
    [runs.map((r) => r.id)],
  );
  const current = new Map(now.map((r) => [r.id, r]));
  return runs.filter((r) => {
    const row = current.get(r.id);
    return (
      row !== undefined &&
      row.teamId === r.teamId &&
      row.status === r.status &&
      row.workerId === r.workerId
    );
  });
};
