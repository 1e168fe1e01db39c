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
