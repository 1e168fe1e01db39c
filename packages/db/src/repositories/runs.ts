/**
 * Team-scoped run persistence (a run's steps are in run-progress.ts, every change of its
 * status in run-lifecycle.ts, the web's hot reads in run-reads.ts). Every query filters on
 * teamId; every text or JSON a run produced is stored through storable.ts (no U+0000, which
 * Postgres refuses).
 */
import type { Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import type { Prisma, RunTrigger } from "../generated/prisma/client";
import { storableJson } from "../storable";

export type CreateRunInput = {
  teamId: string;
  workflowId: string;
  workflowVersionId: string;
  lane: string;
  trigger: RunTrigger;
  inputs?: Record<string, unknown>;
  startedById?: string;
  /** the schedule or webhook trigger that started it */
  triggerId?: string;
  /** the run this one re-runs */
  rerunOfId?: string;
  /** the caller's Idempotency-Key and the hash of the request it came with */
  idempotency?: { key: string; hash: string };
  /** a replay: the agent attempt it runs again, what it changes, and its suite replay */
  replay?: RunReplay;
  /** `waiting`: written parked on a wait the same transaction opens (no job runs it yet) */
  status?: "waiting";
};

/** What makes a run a replay (trigger `replay`): the attempt, the changes (ReplayChanges) and the suite. */
export type RunReplay = { ofId: string; options: Prisma.InputJsonObject; suiteId?: string };

/**
 * Writes a queued run. The team's workflow versions current at this moment are pinned on
 * it, so call_workflow resolves them even if a workflow is saved again mid-run.
 */
export const createRun = async (db: PrismaClientOrTransaction, input: CreateRunInput) => {
  const workflows = await db.workflow.findMany({
    where: { teamId: input.teamId, archivedAt: null, currentVersionId: { not: null } },
    select: { name: true, currentVersionId: true },
  });
  return db.run.create({
    data: {
      pinnedVersions: Object.fromEntries(workflows.map((w) => [w.name, w.currentVersionId])),
      teamId: input.teamId,
      workflowId: input.workflowId,
      workflowVersionId: input.workflowVersionId,
      lane: input.lane,
      trigger: input.trigger,
      inputs: storableJson(input.inputs ?? {}) as Prisma.InputJsonObject,
      startedById: input.startedById,
      triggerId: input.triggerId,
      rerunOfId: input.rerunOfId,
      idempotencyKey: input.idempotency?.key,
      idempotencyHash: input.idempotency?.hash,
      replayOfId: input.replay?.ofId,
      replayOptions: input.replay?.options,
      replaySuiteId: input.replay?.suiteId,
      ...(input.status ? { status: input.status } : {}),
    },
  });
};

/** The team's run started with this Idempotency-Key, if any. */
export const findRunByIdempotencyKey = (db: Db, teamId: string, key: string) =>
  db.run.findFirst({ where: { teamId, idempotencyKey: key } });

/** What a re-run starts again: the run's workflow, version and inputs (and the lane it ran in). */
export const getRunToRerun = (db: Db, teamId: string, runId: string) =>
  db.run.findFirst({
    where: { id: runId, teamId },
    select: { id: true, workflowId: true, workflowVersionId: true, inputs: true, lane: true },
  });

/** For the worker only: the run with its checkpoint and the worker that last held it. */
export const getRunForExecution = (db: Db, teamId: string, runId: string) =>
  db.run.findFirst({
    where: { id: runId, teamId },
    include: { workflow: { select: { id: true, name: true, pack: true } } },
  });

/** The people who started the team's runs, for the list's "started by" filter. */
export const listRunStarters = (db: Db, teamId: string) =>
  db.user.findMany({
    where: { memberships: { some: { teamId } } },
    select: { id: true, name: true, email: true },
    orderBy: { name: "asc" },
  });
