/**
 * What the replay operations read and write: the attempt a replay runs again, the two
 * attempts a compare reads (with their proxy-recorded tool calls in order), runs marked as
 * examples, and suite replays with their runs. Every query filters on teamId.
 */
import type { Db } from "../client";
import { Prisma } from "../generated/prisma/client";

/** An agent attempt a replay may start from, with its run's workflow, version, lane and inputs. */
export const getReplaySource = (db: Db, teamId: string, stepRunId: string) =>
  db.stepRun.findFirst({
    where: { id: stepRunId, teamId },
    select: {
      id: true,
      runId: true,
      stateName: true,
      stepType: true,
      status: true,
      agentRequest: true,
      snapshotId: true,
      run: {
        select: {
          id: true,
          workflowId: true,
          workflowVersionId: true,
          inputs: true,
          lane: true,
        },
      },
    },
  });

/** An attempt as the compare view reads it: its record and its proxy-recorded calls in order. */
export const getAttemptToCompare = async (db: Db, teamId: string, stepRunId: string) => {
  const step = await db.stepRun.findFirst({
    where: { id: stepRunId, teamId },
    select: {
      id: true,
      runId: true,
      stateName: true,
      status: true,
      output: true,
      provider: true,
      agentVersion: true,
      agentRequest: true,
      inputTokens: true,
      outputTokens: true,
      costUsd: true,
      startedAt: true,
      finishedAt: true,
      run: { select: { replayOfId: true } },
    },
  });
  if (!step) return null;
  const toolCalls = await db.toolCall.findMany({
    where: { teamId, stepRunId, fidelity: "proxy" },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
    select: { toolName: true, arguments: true, result: true, isError: true, replay: true },
  });
  return { ...step, costUsd: step.costUsd === null ? null : step.costUsd.toNumber(), toolCalls };
};

/** The replay run's attempt of the state it replays (the first one it recorded). */
export const getReplayAttemptOf = (db: Db, teamId: string, runId: string) =>
  db.stepRun.findFirst({
    where: { teamId, runId, stepType: "agent" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });

/** Marks a run an example of its workflow (`at`), or unmarks it (null); false when the team has no such run. */
export const setRunExample = async (db: Db, teamId: string, runId: string, at: Date | null) =>
  (await db.run.updateMany({ where: { id: runId, teamId }, data: { exampleAt: at } })).count === 1;

/** The agent attempts of a workflow's example runs that can be replayed (their request and workspace kept), oldest run first. */
export const listExampleAttempts = (db: Db, teamId: string, workflowId: string) =>
  db.stepRun.findMany({
    where: {
      teamId,
      stepType: "agent",
      status: { in: ["succeeded", "failed"] },
      NOT: { agentRequest: { equals: Prisma.DbNull } },
      snapshotId: { not: null },
      run: { teamId, workflowId, exampleAt: { not: null } },
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      runId: true,
      stateName: true,
      path: true,
      attempt: true,
      agentRequest: true,
    },
  });

export const createReplaySuite = (
  db: Db,
  input: {
    teamId: string;
    workflowId: string;
    options: Prisma.InputJsonObject;
    createdById: string;
  },
) => db.replaySuite.create({ data: input, select: { id: true } });

/** A workflow's suite replays, newest first, with how many replays each started. */
export const listReplaySuites = (db: Db, teamId: string, workflowId: string) =>
  db.replaySuite.findMany({
    where: { teamId, workflowId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 50,
    select: {
      id: true,
      options: true,
      createdAt: true,
      _count: { select: { runs: true } },
    },
  });

/** A suite replay with its runs (each with its status and the attempt it replays). */
export const getReplaySuite = (db: Db, teamId: string, suiteId: string) =>
  db.replaySuite.findFirst({
    where: { id: suiteId, teamId },
    select: {
      id: true,
      workflowId: true,
      options: true,
      createdAt: true,
      runs: {
        where: { teamId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { id: true, status: true, replayOfId: true, errorCode: true },
      },
    },
  });
