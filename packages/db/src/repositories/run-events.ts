/**
 * A run's stored events as viewers read them: in `seq` order from any point, so a stream
 * that resumes (SSE Last-Event-ID) gets exactly what it missed. Team-scoped.
 */
import type { Db } from "../client";

/** Events after `afterSeq`, oldest first, at most `limit`. */
export const listRunEventsAfter = (
  db: Db,
  teamId: string,
  runId: string,
  afterSeq: number,
  limit = 500,
) =>
  db.runEvent.findMany({
    where: { teamId, runId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take: Math.min(Math.max(limit, 1), 1000),
    select: { seq: true, type: true, payload: true, createdAt: true },
  });

/** The run's status, for a stream that ends with the run; null when it is not the team's. */
export const runStatusOf = async (db: Db, teamId: string, runId: string) =>
  (await db.run.findFirst({ where: { id: runId, teamId }, select: { status: true } }))?.status ??
  null;
