/**
 * A replay run: one recorded agent attempt run again instead of the workflow. Its workspace
 * is the snapshot taken when that attempt started, its request the one it started with
 * (with the replay's changes: provider, model, CLI version, prompt), and its proxy answers
 * every tool call from the attempt's recorded calls (the executor's `replay` port): nothing
 * runs live but, if the replay allows it, a built-in with no recording left. The attempt is
 * recorded as any other (one StepRun at the source's place, attempt 1), so the run page, the
 * compare view and the trace read it the same way.
 */
import { AppError } from "@switchyard/core/errors";
import {
  continuedFrom,
  continuedRefusal,
  replayedRequest,
  replayPlanOf,
  type AgentRequestRecord,
  type ReplayChanges,
  type ReplayPlan,
} from "@switchyard/core/replay";
import type { Scrubber } from "@switchyard/core/secrets";
import {
  runAgentAttempt,
  type AgentExecutor,
  type EventSink,
  type RunOutcome,
  type StepPath,
  type StepRecorder,
} from "@switchyard/core/workflow";
import { replaySourceOf, type Db } from "@switchyard/db";

export type ReplayRunDeps = {
  db: Db;
  teamId: string;
  runId: string;
  workflow: string;
  scrubber: Scrubber;
  recorder: StepRecorder;
  events: EventSink;
  /** The worker's agent executor for this replay: recorded results, the CLI install it names. */
  agents: (replay: ReplayPlan, agentVersion: ReplayChanges["agentVersion"]) => AgentExecutor;
  /** Puts the snapshot's files into the run's (empty) workspace. */
  restore: (snapshotId: string) => Promise<void>;
  signal: AbortSignal;
};

export type ReplayOf = { attemptId: string; changes: ReplayChanges };

const isRecord = (value: unknown): value is AgentRequestRecord =>
  !!value && typeof value === "object" && (value as { v?: unknown }).v === 1;

/** Runs the recorded attempt again; what the run ends with. */
export const runReplay = async (
  deps: ReplayRunDeps,
  of: ReplayOf,
): Promise<Pick<RunOutcome, "status" | "errorCode" | "errorMessage">> => {
  const source = await replaySourceOf(deps.db, deps.teamId, of.attemptId);
  if (!source) throw new AppError("NOT_FOUND", `agent attempt ${of.attemptId} not found`);
  const record = source.agentRequest;
  if (!isRecord(record))
    throw new AppError(
      "USER.REPLAY.NOT_REPLAYABLE",
      `attempt ${of.attemptId} of "${source.stateName}" ran before its request was kept`,
    );
  const continued = continuedFrom(record);
  if (continued)
    throw new AppError(
      "USER.REPLAY.NOT_REPLAYABLE",
      `attempt ${of.attemptId} of "${source.stateName}" cannot be replayed: ${continuedRefusal(continued)}`,
    );
  if (!source.snapshotId)
    throw new AppError(
      "USER.REPLAY.NO_SNAPSHOT",
      `the workspace before attempt ${of.attemptId} of "${source.stateName}" was not kept`,
    );
  await deps.restore(source.snapshotId);
  const plan = replayPlanOf(source.toolCalls, of.changes.unmatched ?? "error");
  deps.events({ type: "run.started", workflow: deps.workflow, runId: deps.runId });
  deps.events({ type: "state.started", state: record.stateName, kind: "agent" });
  deps.events({
    type: "log",
    state: record.stateName,
    message: `replaying attempt ${of.attemptId} of run ${source.runId} with ${plan.recordings.length} recorded tool call(s)`,
  });
  const request = replayedRequest(record, of.changes);
  const signal =
    request.timeoutMs === undefined
      ? deps.signal
      : AbortSignal.any([deps.signal, AbortSignal.timeout(request.timeoutMs)]);
  const result = await runAgentAttempt(
    {
      agents: deps.agents(plan, of.changes.agentVersion),
      recorder: deps.recorder,
      scrubber: deps.scrubber,
    },
    request,
    signal,
    { attempt: 1, path: source.path as StepPath },
  );
  deps.events({
    type: "state.finished",
    state: record.stateName,
    status: result.status,
    exitCode: result.exitCode,
    attempts: 1,
  });
  const outcome: Pick<RunOutcome, "status" | "errorCode" | "errorMessage"> =
    result.status === "success"
      ? { status: "succeeded" }
      : result.status === "cancelled"
        ? { status: "cancelled", errorCode: "EXECUTION.CANCELLED", errorMessage: "cancelled" }
        : {
            status: "failed",
            errorCode: "EXECUTION.AGENT_FAILED",
            errorMessage: result.error ?? `"${record.stateName}" failed`,
          };
  deps.events({ type: "run.finished", ...outcome });
  return outcome;
};
