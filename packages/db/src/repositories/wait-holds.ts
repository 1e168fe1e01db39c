/**
 * The worker's side of waits (docs/governance.md): a held tool call opens a Wait (with its
 * audit entry), the hold reads it until it is answered, and a step that outlasts its hold
 * limit parks its run on it: the wait marked parked and the run moved running -> waiting in
 * one transaction, only while the wait is still open (an answer that came first wins, and
 * the run goes on where it is). A suspended agent attempt keeps its session sealed here
 * (AgentSession) with the workspace snapshot; the attempt that resumes it takes it once.
 * The answering side (web, expiry) is waits.ts. Team-scoped like every repository.
 */
import { approvalRulesSchema } from "@switchyard/core/governance";
import type { Prisma, Role } from "../generated/prisma/client";
import { inTransaction, type Db } from "../client";
import { newRowId } from "../row-id";
import { recordAudit } from "./audit-log";

type OpenedToolCallWait = {
  teamId: string;
  runId: string;
  stepRunId: string;
  question: string;
  detail: Prisma.InputJsonValue;
  argumentsHash: string;
  lane: string;
  minRole?: Role;
  notStarter?: boolean;
  expiresAt: Date | null;
  onExpiry: "deny" | "fail" | "default";
};

/** Opens a tool call's wait and its audit entry (`wait.opened`, by no one: the run). */
export const openToolCallWait = (db: Db, wait: OpenedToolCallWait): Promise<string> => {
  const id = newRowId();
  return db.$transaction(async (tx) => {
    await tx.wait.create({
      data: {
        id,
        teamId: wait.teamId,
        runId: wait.runId,
        stepRunId: wait.stepRunId,
        kind: "tool_call",
        question: wait.question,
        detail: wait.detail,
        argumentsHash: wait.argumentsHash,
        lane: wait.lane,
        minRole: wait.minRole ?? "member",
        notStarter: wait.notStarter ?? false,
        expiresAt: wait.expiresAt,
        onExpiry: wait.onExpiry,
      },
    });
    await recordAudit(tx, {
      teamId: wait.teamId,
      actorUserId: null,
      action: "wait.opened",
      targetType: "wait",
      targetId: id,
      metadata: { runId: wait.runId, kind: "tool_call", question: wait.question },
    });
    return id;
  });
};

/** Where a wait stands, for a hold that reads it until it is answered. */
export const readWaitState = (db: Db, teamId: string, waitId: string) =>
  db.wait.findFirst({
    where: { id: waitId, teamId },
    select: { status: true, answer: true, argumentsHash: true },
  });

/**
 * Parks the run on its open wait: the wait parked, the run waiting and held by no worker.
 * False (nothing changed) when the wait was answered first; an error when the run is no
 * longer this worker's.
 */
export const parkRunOnWait = (
  db: Db,
  input: { teamId: string; runId: string; waitId: string; workerId: string },
): Promise<boolean> =>
  inTransaction(db, async (query) => {
    const parked = await query<{ id: string }>(
      `UPDATE "Wait" SET parked = true WHERE id = $1 AND "teamId" = $2 AND status = 'open' RETURNING id`,
      [input.waitId, input.teamId],
    );
    if (parked.length === 0) return false;
    const run = await query<{ id: string }>(
      `UPDATE "Run" SET status = 'waiting', "workerId" = NULL
       WHERE id = $1 AND "teamId" = $2 AND status = 'running' AND "workerId" = $3 RETURNING id`,
      [input.runId, input.teamId, input.workerId],
    );
    if (run.length === 0) throw new Error(`run ${input.runId} is no longer held by this worker`);
    return true;
  });

/** The attempt's row waits with the run (not ended): StepStatus waiting. */
export const markStepRunWaiting = (db: Db, teamId: string, stepRunId: string) =>
  db.stepRun.updateMany({
    where: { id: stepRunId, teamId, status: "running" },
    data: { status: "waiting" },
  });

/** The rows of a run's attempts that wait (suspended), to be continued by the attempt that resumes each. */
export const waitingAttemptsOf = (db: Db, teamId: string, runId: string) =>
  db.stepRun.findMany({
    where: { teamId, runId, status: "waiting" },
    select: { id: true, stateName: true, attempt: true, path: true },
  });

/** A suspended attempt's row continues (running again) under the attempt that resumes it. */
export const resumeStepRun = (db: Db, teamId: string, stepRunId: string) =>
  db.stepRun.updateMany({
    where: { id: stepRunId, teamId, status: "waiting" },
    data: { status: "running" },
  });

type StoredAgentSession = {
  teamId: string;
  runId: string;
  stepKey: string;
  stepRunId: string;
  provider: string;
  sessionId?: string;
  /** the sealed session (an envelope, serialised) */
  sealed: Buffer;
  snapshotId?: string;
  waitId: string;
  pendingCall: Prisma.InputJsonValue;
};

export const saveAgentSession = (db: Db, session: StoredAgentSession) =>
  db.agentSession.create({
    data: {
      teamId: session.teamId,
      runId: session.runId,
      stepKey: session.stepKey,
      stepRunId: session.stepRunId,
      provider: session.provider,
      sessionId: session.sessionId ?? null,
      sealed: new Uint8Array(session.sealed),
      snapshotId: session.snapshotId ?? null,
      waitId: session.waitId,
      pendingCall: session.pendingCall,
    },
    select: { id: true },
  });

/**
 * The session a step at `stepKey` resumes from, with the answer of the wait it was parked on:
 * the newest one whose wait is no longer open. Undefined when there is none.
 */
export const resumableSessionOf = async (
  db: Db,
  teamId: string,
  runId: string,
  stepKey: string,
) => {
  const session = await db.agentSession.findFirst({
    where: { teamId, runId, stepKey },
    orderBy: { createdAt: "desc" },
  });
  if (!session?.waitId) return undefined;
  const wait = await db.wait.findFirst({
    where: { id: session.waitId, teamId },
    select: { id: true, status: true, answer: true, argumentsHash: true },
  });
  if (!wait || wait.status === "open") return undefined;
  return { session, wait };
};

/** A session is used once: the attempt that resumed from it removes it. */
export const removeAgentSession = (db: Db, teamId: string, id: string) =>
  db.agentSession.deleteMany({ where: { id, teamId } });

/** The workspace snapshot a parked run resumes with: its newest session's. */
export const parkedSnapshotOf = async (db: Db, teamId: string, runId: string) =>
  (
    await db.agentSession.findFirst({
      where: { teamId, runId, snapshotId: { not: null } },
      orderBy: { createdAt: "desc" },
      select: { snapshotId: true },
    })
  )?.snapshotId ?? undefined;

/** A lane's approval rules (Settings → Lanes); none when the lane has none or does not exist. */
export const laneRulesOf = async (db: Db, teamId: string, lane: string) => {
  const row = await db.lane.findFirst({
    where: { teamId, name: lane },
    select: { approvalRules: true },
  });
  const parsed = approvalRulesSchema.safeParse(row?.approvalRules ?? []);
  return parsed.success ? parsed.data : [];
};

/** A run that ended leaves nothing to answer: its open waits are cancelled. */
export const cancelOpenWaitsOf = (db: Db, teamId: string, runId: string) =>
  db.wait.updateMany({ where: { teamId, runId, status: "open" }, data: { status: "cancelled" } });
