/**
 * AWF's session tracking in the worker (docs/workflows.md, "Sessions"): the session a
 * `conversation:` step kept (a CLI's own session files, or openai_compatible's messages) is
 * sealed with the team's keyring and stored with the run under the step's session key, so a
 * later `continue_from` step resumes it on whichever worker runs it; it goes with the run.
 * The workspace the step left is kept with it as a snapshot: a run resumed on another worker
 * (after a kill) starts from it (execute-run.ts), so the session's files are still there.
 */
import { openSecret, sealSecret, type Keyring } from "@switchyard/core/crypto";
import {
  conversationSessionKey as sessionKey,
  type AgentRequest,
  type AgentResult,
} from "@switchyard/core/workflow";
import { conversationSessionOf, keepConversationSession, type Db } from "@switchyard/db";
import { deserialise, serialise, sessionOwner } from "./attempt-governance";

type Kept = NonNullable<AgentResult["kept"]>;

export const conversationSessions = (deps: {
  db: Db;
  keyring: Keyring;
  teamId: string;
  runId: string;
  /** Keeps the run's workspace as a snapshot; undefined when it was not kept (an event says why). */
  keepWorkspace: (request: AgentRequest) => Promise<string | undefined>;
}) => ({
  /** Stores the session the attempt kept, sealed, in place of the one its state kept before. */
  keep: async (request: AgentRequest, kept: Kept) => {
    const stepKey = sessionKey(request, request.stateName);
    const snapshotId = await deps.keepWorkspace(request);
    const sealed = sealSecret(
      deps.keyring,
      sessionOwner(deps.teamId, deps.runId, stepKey),
      JSON.stringify(kept),
    );
    await keepConversationSession(deps.db, {
      teamId: deps.teamId,
      runId: deps.runId,
      stepKey,
      stepRunId: request.attemptId,
      provider: request.provider,
      ...(kept.sessionId ? { sessionId: kept.sessionId } : {}),
      sealed: serialise(sealed),
      ...(snapshotId ? { snapshotId } : {}),
    });
  },
  /** The session the `continue_from` step of `request` resumes, opened; undefined when none was kept. */
  continued: async (request: AgentRequest): Promise<Kept | undefined> => {
    const from = request.conversation?.continueFrom;
    if (!from) return undefined;
    const stepKey = sessionKey(request, from.state);
    const row = await conversationSessionOf(deps.db, deps.teamId, deps.runId, stepKey);
    if (!row || row.provider !== request.provider) return undefined;
    return JSON.parse(
      openSecret(
        deps.keyring,
        sessionOwner(deps.teamId, deps.runId, stepKey),
        deserialise(row.sealed),
      ),
    ) as Kept;
  },
});
