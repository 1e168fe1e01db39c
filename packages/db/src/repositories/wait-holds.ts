/**
 * The worker's side of waits (docs/governance.md): a held tool call opens a Wait (with its
 * audit entry), the hold reads it until it is answered, and a step that outlasts its hold
 * limit parks its run on it: the wait marked parked and the run moved running -> waiting in
 * one transaction, only while the wait is still open (an answer that came first wins, and
 * the run goes on where it is). A suspended agent attempt keeps its session sealed here
 * (AgentSession) with the workspace snapshot; the attempt that resumes it takes it once.
 * The answering side (web, expiry) is waits.ts. Team-scoped like every repository.
 */
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

/** Opens a wait of `kind` and its audit entry (`wait.opened`, by no one: the run), in `tx`. */
const openWaitIn = async (
  tx: Prisma.TransactionClient,
  kind: "tool_call" | "message" | "elicitation",
  data: Omit<Prisma.WaitUncheckedCreateInput, "id" | "kind">,
): Promise<string> => {
  const id = newRowId();
  await tx.wait.create({ data: { ...data, id, kind } });
  await recordAudit(tx, {
    teamId: data.teamId,
    actorUserId: null,
    action: "wait.opened",
    targetType: "wait",
    targetId: id,
    metadata: { runId: data.runId, kind, question: data.question },
  });
  return id;
};

const openWait = (
  db: Db,
  kind: "tool_call" | "message" | "elicitation",
  data: Omit<Prisma.WaitUncheckedCreateInput, "id" | "kind">,
): Promise<string> => db.$transaction((tx) => openWaitIn(tx, kind, data));

/** Opens a tool call's wait and its audit entry. */
export const openToolCallWait = (db: Db, wait: OpenedToolCallWait): Promise<string> =>
  openWait(db, "tool_call", {
    ...wait,
    minRole: wait.minRole ?? "member",
    notStarter: wait.notStarter ?? false,
  });

type OpenedElicitationWait = {
  teamId: string;
  /** null: a call made by hand in the connector console, answered by `askedById` alone */
  runId: string | null;
  stepRunId?: string | null;
  askedById?: string | null;
  question: string;
  detail: Prisma.InputJsonValue;
  lane: string;
  minRole?: Role;
  expiresAt: Date;
};

/**
 * A connector server's form (elicitation) during a tool call: for the run's starter (or,
 * when the run has none, those the lane lets start runs), or for the member who made a
 * console call. Expiry cancels it.
 */
export const openElicitationWait = (db: Db, wait: OpenedElicitationWait): Promise<string> =>
  openWait(db, "elicitation", {
    ...wait,
    minRole: wait.minRole ?? "member",
    starterOnly: true,
    onExpiry: "deny",
  });

type OpenedMessageWait = {
  teamId: string;
  runId: string;
  stepRunId: string;
  question: string;
  detail: Prisma.InputJsonValue;
  lane: string;
  expiresAt: Date;
};

/**
 * A conversation's turn replied: its wait for the person's next message (kind `message`, with
 * its audit entry) opens, and the session the next turn goes on from replaces every session
 * the step kept before (the one this turn began from), all in one transaction. A worker
 * stopped at any point leaves either the turn to run again from the session it began with
 * (its wait answered) or the run to park on the new wait with its session: never a wait
 * without its session, nor a turn without the session it resumes.
 *
 * Only the run's starter may answer (a member or above allowed to start runs in the lane); a
 * run a trigger started, anyone an approval allows. Expiry is the step's timeout: the
 * conversation ends, whatever the answer says.
 */
export const openConversationTurn = (
  db: Db,
  turn: { wait: OpenedMessageWait; session: Omit<StoredAgentSession, "waitId" | "pendingCall"> },
): Promise<string> =>
  db.$transaction(async (tx) => {
    const waitId = await openWaitIn(tx, "message", {
      ...turn.wait,
      onExpiry: "deny",
      starterOnly: true,
    });
    const { teamId, runId, stepKey } = turn.session;
    await tx.agentSession.deleteMany({ where: { teamId, runId, stepKey } });
    await tx.agentSession.create({ data: sessionRow({ ...turn.session, waitId }) });
    return waitId;
  });

/** Where a wait stands, for a hold that reads it until it is answered. */
export const readWaitState = (db: Db, teamId: string, waitId: string) =>
  db.wait.findFirst({
    where: { id: waitId, teamId },
    select: { status: true, answer: true, argumentsHash: true },
  });

/**
 * Parks the run on its open wait: the wait parked, the run waiting and held by no worker.
 * False (nothing changed) when the wait was answered first, a cancel came, or the run is no
 * longer this worker's: its job then runs it again at once.
 */
export const parkRunOnWait = (
  db: Db,
  input: { teamId: string; runId: string; waitId: string; workerId: string },
): Promise<boolean> =>
  inTransaction(db, async (query) => {
    // The wait's row first, locked: an answer committing now is seen, or waits for this.
    const [wait] = await query<{ status: string }>(
      `SELECT status FROM "Wait" WHERE id = $1 AND "teamId" = $2 FOR UPDATE`,
      [input.waitId, input.teamId],
    );
    if (wait?.status !== "open") return false;
    // Not when a cancel came meanwhile (or the run is no longer this worker's): the run's
    // job runs it again at once, and the claim honours the cancel.
    const run = await query<{ id: string }>(
      `UPDATE "Run" SET status = 'waiting', "workerId" = NULL
       WHERE id = $1 AND "teamId" = $2 AND status = 'running' AND "workerId" = $3
         AND "cancelRequestedAt" IS NULL RETURNING id`,
      [input.runId, input.teamId, input.workerId],
    );
    if (run.length === 0) return false;
    await query(`UPDATE "Wait" SET parked = true WHERE id = $1 AND "teamId" = $2`, [
      input.waitId,
      input.teamId,
    ]);
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
  /** the held call; a conversation's session between turns has none */
  pendingCall?: Prisma.InputJsonValue;
};

/** An AgentSession row's columns; without a wait, a session kept for `continue_from`. */
export const sessionRow = (
  session: Omit<StoredAgentSession, "waitId"> & { waitId?: string | undefined },
) => ({
  teamId: session.teamId,
  runId: session.runId,
  stepKey: session.stepKey,
  stepRunId: session.stepRunId,
  provider: session.provider,
  sessionId: session.sessionId ?? null,
  sealed: new Uint8Array(session.sealed),
  snapshotId: session.snapshotId ?? null,
  waitId: session.waitId ?? null,
  ...(session.pendingCall === undefined ? {} : { pendingCall: session.pendingCall }),
});

export const saveAgentSession = (db: Db, session: StoredAgentSession) =>
  db.agentSession.create({ data: sessionRow(session), select: { id: true } });

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
    select: { id: true, kind: true, status: true, answer: true, argumentsHash: true },
  });
  if (!wait || wait.status === "open") return undefined;
  return { session, wait };
};

/**
 * A conversation's session between its turns (its `message` wait answered), while a turn
 * that went on from it is suspended on a held call: that turn's resume reads the turns and
 * tokens before it there. Undefined when the step has none (a held call in its first turn).
 */
export const chatSessionUnder = async (db: Db, teamId: string, runId: string, stepKey: string) => {
  const sessions = await db.agentSession.findMany({
    where: { teamId, runId, stepKey, waitId: { not: null } },
    orderBy: { createdAt: "desc" },
  });
  const waits = await db.wait.findMany({
    where: { teamId, kind: "message", id: { in: sessions.map((s) => s.waitId!) } },
    select: { id: true, kind: true, status: true, answer: true },
  });
  const session = sessions.find((s) => waits.some((w) => w.id === s.waitId));
  const wait = waits.find((w) => w.id === session?.waitId);
  return session && wait ? { session, wait } : undefined;
};

/** A session is used once: the attempt that resumed from it removes it. */
export const removeAgentSession = (db: Db, teamId: string, id: string) =>
  db.agentSession.deleteMany({ where: { id, teamId } });

/**
 * The workspace snapshot a resumed run starts from: its newest session's, a suspended step's
 * (a parked run) or a session-tracked step's (a run resumed on another worker after a kill).
 */
export const parkedSnapshotOf = async (db: Db, teamId: string, runId: string) =>
  (
    await db.agentSession.findFirst({
      where: { teamId, runId, snapshotId: { not: null } },
      orderBy: { createdAt: "desc" },
      select: { snapshotId: true },
    })
  )?.snapshotId ?? undefined;

/** A run that ended leaves no attempt waiting: its suspended rows end cancelled with it. */
export const closeWaitingAttempts = (db: Db, teamId: string, runId: string) =>
  db.stepRun.updateMany({
    where: { teamId, runId, status: "waiting" },
    data: {
      status: "cancelled",
      errorCode: "EXECUTION.CANCELLED",
      errorMessage: "the run ended while this step waited for a person",
      finishedAt: new Date(),
    },
  });

/** A suspended step whose run was not parked yet (the worker stopped between the two): its open wait. */
export const unparkedSessionWaitOf = async (
  db: Db,
  teamId: string,
  runId: string,
  stepKey: string,
) => {
  const session = await db.agentSession.findFirst({
    where: { teamId, runId, stepKey },
    orderBy: { createdAt: "desc" },
    select: { waitId: true },
  });
  if (!session?.waitId) return undefined;
  const wait = await db.wait.findFirst({
    where: { id: session.waitId, teamId, status: "open" },
    select: { id: true },
  });
  return wait?.id;
};

/** A held call given up before anyone answered: its wait is cancelled, if still open. */
export const cancelWait = (db: Db, teamId: string, waitId: string) =>
  db.wait.updateMany({
    where: { id: waitId, teamId, status: "open" },
    data: { status: "cancelled", answeredAt: new Date() },
  });

/** How many turns of a conversation's attempt have replied (its `message` waits). */
export const countMessageWaits = (db: Db, teamId: string, stepRunId: string) =>
  db.wait.count({ where: { teamId, stepRunId, kind: "message" } });
