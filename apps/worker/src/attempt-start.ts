/**
 * What an agent attempt starts with, kept so it can be replayed: its request, scrubbed and
 * without a key (AgentRequestRecord), and the run's workspace as it was then, as a workspace
 * snapshot (packages/db/src/repositories/workspace-snapshots.ts). Both go on the attempt's
 * StepRun row through the run's writer, after the row it opened (the engine awaits the open
 * before it calls the executor), so the update is ordered with the run's other writes and
 * refused once another worker holds the run. A snapshot that is not kept (over a limit, the
 * team's cap, a file the worker cannot read) is said in a `snapshot.not_kept` run event and
 * the attempt runs all the same; only a lost run stops it.
 */
import { agentRequestRecord } from "@switchyard/core/replay";
import type { Scrubber } from "@switchyard/core/secrets";
import type { AgentRequest } from "@switchyard/core/workflow";
import { saveWorkspaceSnapshot, type Db } from "@switchyard/db";
import type { Logger } from "./logger";
import type { RunWriter } from "./run-writer";

/** Limits of the workspace snapshots (SWITCHYARD_SNAPSHOT_MAX_BYTES, SWITCHYARD_SNAPSHOT_TEAM_BYTES). */
export type SnapshotSettings = { maxBytes: number; teamBytes: number };

export type AttemptStartDeps = {
  db: Db;
  log: Logger;
  teamId: string;
  runId: string;
  /** The run's workspace folder. */
  workspace: string;
  scrubber: Scrubber;
  writer: Pick<RunWriter, "started" | "event">;
  /** Unset: no snapshot is kept. */
  snapshots: SnapshotSettings | undefined;
  /** The snapshot the workspace was just restored from (a replay): kept as the attempt's without walking the folder again. */
  restored?: string;
};

/** An error's message, scrubbed, as a run event says it. */
const reasonOf = (error: unknown, scrubber: Scrubber) =>
  scrubber.scrub(error instanceof Error ? error.message : String(error));

/**
 * Keeps the workspace for `request`'s attempt; undefined (and an event saying why) when it is
 * not kept. Also used when a session-tracked step ends (conversation-sessions.ts).
 */
export const keepAttemptWorkspace = async (
  deps: Omit<AttemptStartDeps, "snapshots" | "restored"> & { snapshots: SnapshotSettings },
  request: Pick<AgentRequest, "attemptId" | "stateName" | "attempt">,
) => {
  let reason: string;
  try {
    const saved = await saveWorkspaceSnapshot(deps.db, {
      teamId: deps.teamId,
      runId: deps.runId,
      dir: deps.workspace,
      limits: {
        maxFileBytes: deps.snapshots.maxBytes,
        maxTotalBytes: deps.snapshots.maxBytes,
        teamBytes: deps.snapshots.teamBytes,
      },
    });
    if (saved.kept) return saved.snapshotId;
    reason = saved.reason;
  } catch (error) {
    reason = reasonOf(error, deps.scrubber);
    deps.log.warn("could not keep the workspace of an agent attempt", {
      runId: deps.runId,
      stepRunId: request.attemptId,
      error: reason,
    });
  }
  deps.writer.event("snapshot.not_kept", {
    stepRunId: request.attemptId,
    state: request.stateName,
    attempt: request.attempt,
    reason: deps.scrubber.scrub(reason),
  });
  return undefined;
};

/** Records an agent attempt's start on its row: the request record and the workspace snapshot. */
export const recordAttemptStart =
  (deps: AttemptStartDeps) =>
  async (request: AgentRequest): Promise<void> => {
    // A key written literally in the workflow is a secret wherever else it appears.
    const key = request.options.api_key;
    if (typeof key === "string" && key !== "") deps.scrubber.add(key);
    const snapshotId =
      deps.restored ??
      (deps.snapshots
        ? await keepAttemptWorkspace({ ...deps, snapshots: deps.snapshots }, request)
        : undefined);
    await deps.writer.started({
      id: request.attemptId,
      agentRequest: agentRequestRecord(request, deps.scrubber),
      snapshotId: snapshotId ?? null,
    });
  };
