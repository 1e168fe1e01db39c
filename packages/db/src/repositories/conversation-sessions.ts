/**
 * Sessions of AWF's session-tracked agent steps (`conversation:`), kept with their run for a
 * later `continue_from` step on any worker: an AgentSession row under the step's session key
 * (no wait, no held call), sealed by the worker, with the snapshot of the workspace the step
 * left (what a run resumed elsewhere starts from, see parkedSnapshotOf). A step that runs again replaces its row, so
 * the newest session is the one continued; the rows go with the run. Team-scoped.
 */
import type { Db } from "../client";
import { sessionRow } from "./wait-holds";

type KeptConversationSession = {
  teamId: string;
  runId: string;
  /** The step's session key (`conversation:` and where the state sits in the run). */
  stepKey: string;
  stepRunId: string;
  provider: string;
  sessionId?: string;
  /** the sealed session (an envelope, serialised) */
  sealed: Buffer;
  /** The workspace as the step left it, for a run resumed on a worker that lacks it. */
  snapshotId?: string;
};

/** Keeps a step's session, replacing what it kept before. */
export const keepConversationSession = (db: Db, session: KeptConversationSession) =>
  db.$transaction([
    db.agentSession.deleteMany({
      where: { teamId: session.teamId, runId: session.runId, stepKey: session.stepKey },
    }),
    db.agentSession.create({ data: sessionRow(session), select: { id: true } }),
  ]);

/** The session a step kept under `stepKey` in the run, or undefined. */
export const conversationSessionOf = (db: Db, teamId: string, runId: string, stepKey: string) =>
  db.agentSession
    .findFirst({
      where: { teamId, runId, stepKey, waitId: null },
      orderBy: { createdAt: "desc" },
      select: { provider: true, sessionId: true, sealed: true },
    })
    .then((row) => row ?? undefined);
