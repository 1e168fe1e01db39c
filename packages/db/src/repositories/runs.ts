/**
 * Team-scoped run persistence (a run's steps are in run-progress.ts, every change of its
 * status in run-lifecycle.ts). Every query filters on teamId; every text or JSON a run
 * produced is stored through storable.ts (no U+0000, which Postgres refuses).
 */
import type { Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { AppError } from "@switchyard/core/errors";
import { isStorableTime } from "@switchyard/core/time";
import type { ConversationState } from "@switchyard/core/workflow";
import type { Prisma, RunStatus, RunTrigger } from "../generated/prisma/client";
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

/**
 * The run with its steps, each with how many tool calls it made and its cost as a number
 * (a JSON answer has no decimal type), never its checkpoint or pinned versions.
 */
export const getRun = async (db: Db, teamId: string, runId: string) => {
  const run = await db.run.findFirst({
    where: { id: runId, teamId },
    omit: { checkpoint: true, pinnedVersions: true, idempotencyHash: true },
    include: {
      workflow: { select: { id: true, name: true } },
      startedBy: { select: { id: true, name: true } },
      version: { select: { number: true, bundleHash: true } },
      steps: {
        orderBy: { createdAt: "asc" },
        include: { _count: { select: { toolCalls: true } } },
      },
    },
  });
  if (!run) return null;
  const firedBy = run.triggerId
    ? await db.trigger.findFirst({
        where: { id: run.triggerId, teamId },
        select: { id: true, name: true, kind: true },
      })
    : null;
  return {
    ...run,
    firedBy,
    steps: run.steps.map(({ _count, costUsd, conversation, ...step }) => ({
      ...step,
      conversation: conversation as ConversationState | null,
      costUsd: costUsd === null ? null : costUsd.toNumber(),
      toolCallCount: _count.toolCalls,
    })),
  };
};

/** For the worker only: the run with its checkpoint and the worker that last held it. */
export const getRunForExecution = (db: Db, teamId: string, runId: string) =>
  db.run.findFirst({
    where: { id: runId, teamId },
    include: { workflow: { select: { id: true, name: true, pack: true } } },
  });

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

const whereOf = (teamId: string, filter: RunListFilter): Prisma.RunWhereInput => ({
  teamId,
  ...(filter.status?.length ? { status: { in: filter.status } } : {}),
  ...(filter.workflowId ? { workflowId: filter.workflowId } : {}),
  ...(filter.lane ? { lane: filter.lane } : {}),
  ...(filter.trigger?.length ? { trigger: { in: filter.trigger } } : {}),
  ...(filter.startedById ? { startedById: filter.startedById } : {}),
  ...(filter.example ? { exampleAt: { not: null } } : {}),
  ...(filter.from || filter.to
    ? {
        createdAt: {
          ...(filter.from ? { gte: filter.from } : {}),
          ...(filter.to ? { lt: filter.to } : {}),
        },
      }
    : {}),
});

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
  const after = options.cursor;
  const rows = await db.run.findMany({
    where: {
      AND: [
        whereOf(teamId, options),
        // The redundant bound lets Postgres start its index range at the cursor instead of
        // filtering every newer run out first (an OR alone is no range).
        after
          ? {
              createdAt: { lte: after.createdAt },
              OR: [
                { createdAt: { lt: after.createdAt } },
                { createdAt: after.createdAt, id: { lt: after.id } },
              ],
            }
          : {},
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: take + 1,
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
      rerunOfId: true,
      replayOfId: true,
      exampleAt: true,
      workflow: { select: { name: true } },
      startedBy: { select: { id: true, name: true } },
    },
  });
  const page = rows.slice(0, take);
  const last = page[page.length - 1];
  return { runs: page, nextCursor: rows.length > take && last ? encodeRunCursor(last) : null };
};

/** How many of the team's runs match the filter, per status (the filter's own status ignored). */
export const countRunsByStatus = async (db: Db, teamId: string, filter: RunListFilter = {}) => {
  const groups = await db.run.groupBy({
    by: ["status"],
    where: whereOf(teamId, { ...filter, status: undefined }),
    _count: { _all: true },
  });
  const counts: Record<RunStatus, number> = {
    queued: 0,
    running: 0,
    waiting: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
  };
  for (const group of groups) counts[group.status] = group._count._all;
  return counts;
};

/** The people who started the team's runs, for the list's "started by" filter. */
export const listRunStarters = (db: Db, teamId: string) =>
  db.user.findMany({
    where: { memberships: { some: { teamId } } },
    select: { id: true, name: true, email: true },
    orderBy: { name: "asc" },
  });
