/**
 * Open runs (queued or running) as the worker's requeue sweep reads them: the runs whose
 * job may have been lost with Redis's data. Unlike the other repositories these read every
 * team's runs, one team at a time through the (team, status, created) index, since the
 * sweep serves the whole queue.
 */
import { rawQuery, type Db } from "../client";

/** An open run as the sweep saw it: who held it (running) or nobody yet (queued). */
export type OpenRun = {
  id: string;
  teamId: string;
  status: "queued" | "running";
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
       SELECT id, "teamId", status, "workerId", "createdAt" FROM "Run"
       WHERE "teamId" = t.id AND status IN ('queued', 'running') AND "createdAt" < $1::timestamp(3)
       ORDER BY "createdAt" LIMIT $2
     ) r
     ORDER BY r."createdAt", r.id`,
    [createdBefore.toISOString(), limit],
  );

/** Those of `runs` that are still as they were seen: open, with the same status and holder. */
export const unchangedOpenRuns = async (db: Db, runs: readonly OpenRun[]): Promise<OpenRun[]> => {
  if (runs.length === 0) return [];
  const now = await rawQuery<OpenRun>(
    db,
    `SELECT id, "teamId", status::text AS status, "workerId" FROM "Run"
     WHERE id = ANY($1::text[]) AND status IN ('queued', 'running')`,
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
