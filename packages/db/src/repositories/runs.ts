/**
 * Team-scoped run persistence (a run's steps are in run-progress.ts, every change of its
 * status in run-lifecycle.ts). Every query filters on teamId; every text or JSON a run
 * produced is stored through storable.ts (no U+0000, which Postgres refuses).
 */
import type { Db } from "../client";
import type { Prisma, RunTrigger } from "../generated/prisma/client";
import { storableJson } from "../storable";

type CreateRunInput = {
  teamId: string;
  workflowId: string;
  workflowVersionId: string;
  lane: string;
  trigger: RunTrigger;
  inputs?: Record<string, unknown>;
  startedById?: string;
  /** the schedule or webhook trigger that started it */
  triggerId?: string;
};

/**
 * Writes a queued run. The team's workflow versions current at this moment are pinned on
 * it, so call_workflow resolves them even if a workflow is saved again mid-run.
 */
export const createRun = async (db: Db, input: CreateRunInput) => {
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
    },
  });
};

/**
 * The run with its steps, each with how many tool calls it made and its cost as a number
 * (a JSON answer has no decimal type), never its checkpoint or pinned versions.
 */
export const getRun = async (db: Db, teamId: string, runId: string) => {
  const run = await db.run.findFirst({
    where: { id: runId, teamId },
    omit: { checkpoint: true, pinnedVersions: true },
    include: {
      workflow: { select: { id: true, name: true } },
      version: { select: { number: true, bundleHash: true } },
      steps: { orderBy: { createdAt: "asc" }, include: { _count: { select: { toolCalls: true } } } },
    },
  });
  if (!run) return null;
  return {
    ...run,
    steps: run.steps.map(({ _count, costUsd, ...step }) => ({
      ...step,
      costUsd: costUsd === null ? null : costUsd.toNumber(),
      toolCallCount: _count.toolCalls,
    })),
  };
};

/** For the worker only: the run with its checkpoint and the worker that last held it. */
export const getRunForExecution = (db: Db, teamId: string, runId: string) =>
  db.run.findFirst({ where: { id: runId, teamId }, include: { workflow: { select: { id: true, name: true } } } });

/**
 * The team's latest runs, with what a list shows: never a run's checkpoint (every value it
 * captured), its inputs or its pinned versions, which only the run's own page may read.
 */
export const listRuns = (db: Db, teamId: string, options: { workflowId?: string; take?: number } = {}) =>
  db.run.findMany({
    where: { teamId, workflowId: options.workflowId },
    orderBy: { createdAt: "desc" },
    take: options.take ?? 50,
    select: {
      id: true,
      workflowId: true,
      status: true,
      trigger: true,
      lane: true,
      errorCode: true,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
      workflow: { select: { name: true } },
    },
  });
