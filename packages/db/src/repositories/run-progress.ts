/**
 * What a run needs to survive its worker: its checkpoint, the workflow versions pinned at
 * its start, and its ordered event log. Team-scoped like every repository; checkpoints and
 * events are stored through storable.ts (no U+0000, which Postgres refuses).
 */
import type { Db } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { storableJson, storableText } from "../storable";

/** Saves the checkpoint while `workerId` holds the run; false when another worker took it over. */
export const saveCheckpoint = async (db: Db, teamId: string, runId: string, workerId: string, checkpoint: unknown) => {
  const { count } = await db.run.updateMany({
    where: { id: runId, teamId, workerId, status: "running" },
    data: { checkpoint: storableJson(checkpoint) as Prisma.InputJsonValue },
  });
  return count === 1;
};

/** The team's workflow name → version id map pinned when the run was created. */
export const pinnedVersions = async (db: Db, teamId: string, runId: string): Promise<Record<string, string>> => {
  const run = await db.run.findFirst({ where: { id: runId, teamId }, select: { pinnedVersions: true } });
  return (run?.pinnedVersions as Record<string, string> | null) ?? {};
};

export type RunEventInput = { type: string; payload: Record<string, unknown> };

/** Appends events in order; returns the next sequence number. */
export const appendRunEvents = async (db: Db, teamId: string, runId: string, fromSeq: number, events: RunEventInput[]) => {
  if (events.length === 0) return fromSeq;
  await db.runEvent.createMany({
    data: events.map((e, i) => ({
      teamId,
      runId,
      seq: fromSeq + i,
      type: storableText(e.type),
      payload: storableJson(e.payload) as Prisma.InputJsonObject,
    })),
  });
  return fromSeq + events.length;
};

export const nextEventSeq = async (db: Db, teamId: string, runId: string) => {
  const last = await db.runEvent.aggregate({ where: { teamId, runId }, _max: { seq: true } });
  return (last._max.seq ?? 0) + 1;
};

export const listRunEvents = (db: Db, teamId: string, runId: string, afterSeq = 0) =>
  db.runEvent.findMany({ where: { teamId, runId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" }, take: 1000 });
