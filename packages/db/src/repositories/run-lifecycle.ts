/**
 * Every change of a run's status, in one place. Each write is a compare-and-set: its WHERE
 * clause names the statuses the run may be in for the move to be allowed, taken from core's
 * transition table (`statusesBefore`), so a late or duplicate writer changes nothing and
 * learns so (false or a count of 0). Team-scoped like every repository; each takes a client
 * or a transaction.
 */
import { statusesBefore } from "@switchyard/core/runs";
import type { PrismaClientOrTransaction } from "../transaction";
import { storableText } from "../storable";

/** What deciding on a run's lifecycle needs; undefined when the team has no such run. */
export const getRunLifecycle = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  runId: string,
) =>
  (await db.run.findFirst({
    where: { id: runId, teamId },
    select: { id: true, status: true, lane: true, workerId: true, cancelRequestedAt: true },
  })) ?? undefined;

/**
 * Claims a run for a worker: a queued run (which starts running now), a running one still
 * held by the worker seen when it was read (a dead worker, or this one on a retry), or a
 * waiting one whose parked waits were all answered (it resumes from its checkpoint). Two
 * workers can never both claim it; false when someone else did.
 */
export const claimRun = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  runId: string,
  workerId: string,
  seen: { status: string; workerId: string | null },
) => {
  if (seen.status === "waiting") {
    // Parked on a person's answer: taken again once none of its parked waits is open.
    const { count } = await db.run.updateMany({
      where: {
        id: runId,
        teamId,
        status: { in: statusesBefore("running", ["waiting"]) },
        waits: { none: { parked: true, status: "open" } },
      },
      data: { status: "running", workerId },
    });
    return count === 1;
  }
  const { count } = await db.run.updateMany({
    where:
      seen.status === "queued"
        ? { id: runId, teamId, status: { in: statusesBefore("running", ["queued"]) } }
        : { id: runId, teamId, status: "running", workerId: seen.workerId },
    data:
      seen.status === "queued"
        ? { status: "running", startedAt: new Date(), workerId }
        : { workerId },
  });
  return count === 1;
};

/**
 * Queues a run that was written waiting for its inputs and never started, once none of its
 * parked waits is open: its job then claims it as any queued run, within the team's limit
 * of running runs. False when it is not such a run (it started before it parked).
 */
export const queueUnstartedRun = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  runId: string,
) => {
  const { count } = await db.run.updateMany({
    where: {
      id: runId,
      teamId,
      status: { in: statusesBefore("queued", ["waiting"]) },
      startedAt: null,
      waits: { none: { parked: true, status: "open" } },
    },
    data: { status: "queued", workerId: null },
  });
  return count === 1;
};

/** Cancels a run no worker has started yet; false when it is no longer queued. */
export const cancelQueuedRun = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  runId: string,
) => {
  const { count } = await db.run.updateMany({
    where: { id: runId, teamId, status: { in: statusesBefore("cancelled", ["queued"]) } },
    data: {
      status: "cancelled",
      errorCode: "EXECUTION.CANCELLED",
      errorMessage: "cancelled before it started",
      finishedAt: new Date(),
    },
  });
  return count === 1;
};

/**
 * Cancels a run parked on a person's answer (no worker holds it): the run ends cancelled,
 * its waiting steps with it; false when it is no longer waiting. Run it in a transaction
 * with the closing of its waits.
 */
export const cancelWaitingRun = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  runId: string,
) => {
  const finishedAt = new Date();
  const { count } = await db.run.updateMany({
    where: { id: runId, teamId, status: { in: statusesBefore("cancelled", ["waiting"]) } },
    data: {
      status: "cancelled",
      errorCode: "EXECUTION.CANCELLED",
      errorMessage: "cancelled while it waited for a person's answer",
      finishedAt,
    },
  });
  if (count !== 1) return false;
  await db.stepRun.updateMany({
    where: { teamId, runId, status: "waiting" },
    data: {
      status: "cancelled",
      errorCode: "EXECUTION.CANCELLED",
      errorMessage: "the run was cancelled while this step waited for a person's answer",
      finishedAt,
    },
  });
  return true;
};

/**
 * Asks whichever worker holds a running run to cancel it (the mark outlives that worker);
 * false when the run is not running.
 */
export const requestRunCancel = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  runId: string,
) => {
  const { count } = await db.run.updateMany({
    where: { id: runId, teamId, status: { in: statusesBefore("cancelled", ["running"]) } },
    data: { cancelRequestedAt: new Date() },
  });
  return count === 1;
};

/** Removes a run that was never handed to a worker (its queueing failed). */
export const discardQueuedRun = (db: PrismaClientOrTransaction, teamId: string, runId: string) =>
  db.run.deleteMany({ where: { id: runId, teamId, status: "queued" } });

/**
 * Ends a running run. Only a move the transition table allows is made, so a run that already
 * ended (cancelled by someone else, finished by another worker) is never overwritten.
 */
/** How a run ended, as its row keeps it. */
export type RunEnd = {
  status: "succeeded" | "failed" | "cancelled";
  errorCode?: string;
  errorMessage?: string;
};

export const finishRun = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  runId: string,
  result: RunEnd,
  /** Only while this worker still holds the run. */
  workerId?: string,
) => {
  // One statement (updateMany would wrap it in a transaction of its own: three round trips).
  const count = await db.$executeRawUnsafe(
    `UPDATE "Run" SET status = $3::"RunStatus", "errorCode" = $4, "errorMessage" = $5, "finishedAt" = $6::timestamp(3)
     WHERE id = $1 AND "teamId" = $2 AND status::text = ANY($7::text[])${workerId ? ` AND "workerId" = $8` : ""}`,
    runId,
    teamId,
    result.status,
    storableText(result.errorCode) ?? null,
    storableText(result.errorMessage) ?? null,
    new Date().toISOString(),
    statusesBefore(result.status, ["running"]),
    ...(workerId ? [workerId] : []),
  );
  return { count };
};

/**
 * Ends that say the attempt was cut short by the worker, the database or a stop rather than
 * ended by the step itself: such an attempt runs again on resume, under the same number.
 */
const CUT_SHORT = [
  "EXECUTION.WORKER_LOST",
  "EXECUTION.OUTPUT_NOT_STORED",
  "EXECUTION.RUN_TAKEN_OVER",
  "EXECUTION.CANCELLED",
];

/**
 * The attempts of a run that ended on their own (succeeded, or failed by the step itself),
 * with what they recorded: read when a run is resumed, so an attempt that finished after
 * the last checkpoint is taken as recorded instead of being run a second time.
 */
export const finishedAttemptsOf = (db: PrismaClientOrTransaction, teamId: string, runId: string) =>
  db.stepRun.findMany({
    where: {
      teamId,
      runId,
      OR: [
        { status: "succeeded" },
        { status: "failed", errorCode: { notIn: CUT_SHORT, not: { startsWith: "SYSTEM." } } },
      ],
    },
    select: {
      stateName: true,
      attempt: true,
      path: true,
      status: true,
      exitCode: true,
      stdout: true,
      stderr: true,
      output: true,
      inputTokens: true,
      outputTokens: true,
      conversation: true,
      costUsd: true,
      agentSessionId: true,
      errorCode: true,
      errorMessage: true,
    },
  });

/**
 * Step runs a dead worker left `running` in a run that is running again: they will never
 * finish, so they are closed as lost.
 */
export const closeLostStepRuns = (db: PrismaClientOrTransaction, teamId: string, runId: string) =>
  db.stepRun.updateMany({
    where: { teamId, runId, status: "running", run: { status: "running" } },
    data: {
      status: "failed",
      errorCode: "EXECUTION.WORKER_LOST",
      errorMessage: "the worker running this step stopped; the run resumed elsewhere",
      finishedAt: new Date(),
    },
  });
