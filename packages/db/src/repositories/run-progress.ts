/**
 * What a run needs to survive its worker: its checkpoint, the workflow versions pinned at
 * its start, its ordered event log, and the step runs the engine records (one per attempt
 * of a step or agent, with where it sits in the run). Team-scoped like every repository;
 * everything is stored through storable.ts (no U+0000, which Postgres refuses).
 */
import type { StepPath } from "@switchyard/core/workflow";
import type { Db } from "../client";
import type { Prisma, StepStatus } from "../generated/prisma/client";
import { storableJson, storableText } from "../storable";

/** Saves the checkpoint while `workerId` holds the run; false when another worker took it over. */
export const saveCheckpoint = async (
  db: Db,
  teamId: string,
  runId: string,
  workerId: string,
  checkpoint: unknown,
) => {
  const { count } = await db.run.updateMany({
    where: { id: runId, teamId, workerId, status: "running" },
    data: { checkpoint: storableJson(checkpoint) as Prisma.InputJsonValue },
  });
  return count === 1;
};

type RunEventInput = { type: string; payload: Record<string, unknown> };

/** Appends events in order; returns the next sequence number. */
export const appendRunEvents = async (
  db: Db,
  teamId: string,
  runId: string,
  fromSeq: number,
  events: RunEventInput[],
) => {
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

/** The sequence number the run's next event gets. */
export const nextEventSeq = async (db: Db, teamId: string, runId: string) => {
  const last = await db.runEvent.aggregate({ where: { teamId, runId }, _max: { seq: true } });
  return (last._max.seq ?? 0) + 1;
};

/** The run's events after `afterSeq`, in order, at most 1000. */
export const listRunEvents = (db: Db, teamId: string, runId: string, afterSeq = 0) =>
  db.runEvent.findMany({
    where: { teamId, runId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take: 1000,
  });

type StepRunStart = {
  teamId: string;
  runId: string;
  stateName: string;
  stepType: "step" | "agent" | "operation";
  attempt: number;
  path: StepPath;
  provider?: string;
  sandboxLevel?: string;
};

/** Opens the row of an attempt that starts now, `running`. */
export const startStepRun = (db: Db, input: StepRunStart) =>
  db.stepRun.create({
    data: {
      teamId: input.teamId,
      runId: input.runId,
      stateName: storableText(input.stateName),
      stepType: input.stepType,
      attempt: input.attempt,
      path: storableJson(input.path),
      provider: storableText(input.provider),
      status: "running",
      sandboxLevel: input.sandboxLevel,
      startedAt: new Date(),
    },
  });

type StepRunEnd = {
  status: StepStatus;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** What the attempt produced when it is not its stdout (an agent's answer). */
  output?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** What the attempt's model requests cost (USD), as metered. */
  costUsd?: number;
  agentSessionId?: string;
  errorCode?: string;
  errorMessage?: string;
};

/** Records how a step run ended. */
export const finishStepRun = (db: Db, teamId: string, stepRunId: string, result: StepRunEnd) =>
  db.stepRun.updateMany({
    where: { id: stepRunId, teamId },
    data: {
      status: result.status,
      exitCode: result.exitCode,
      stdout: storableText(result.stdout),
      stderr: storableText(result.stderr),
      output: storableText(result.output ?? result.stdout),
      inputTokens: result.inputTokens ?? null,
      outputTokens: result.outputTokens ?? null,
      costUsd: result.costUsd ?? null,
      agentSessionId: storableText(result.agentSessionId) ?? null,
      errorCode: storableText(result.errorCode) ?? null,
      errorMessage: storableText(result.errorMessage) ?? null,
      finishedAt: new Date(),
    },
  });
