/**
 * A run's spans as its page draws them (a waterfall nested by parentSpanId), oldest first,
 * at most `limit` of them. Team-scoped.
 */
import type { Db } from "../client";

/** The run's spans in the order they started, at most `limit` of them. */
export const listRunSpans = async (db: Db, teamId: string, runId: string, limit = 2000) => {
  const rows = await db.span.findMany({
    where: { teamId, runId },
    orderBy: [{ startTime: "asc" }, { id: "asc" }],
    take: limit + 1,
    select: {
      spanId: true,
      parentSpanId: true,
      name: true,
      kind: true,
      status: true,
      attributes: true,
      startTime: true,
      endTime: true,
    },
  });
  return { spans: rows.slice(0, limit), truncated: rows.length > limit };
};
