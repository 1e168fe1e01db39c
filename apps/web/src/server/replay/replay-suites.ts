/**
 * Suite replays: "replay all examples" of a workflow starts one replay for the last attempt
 * of each agent state of each run marked as an example, all with the same changes; a
 * suite's table shows each replay's source, status, and, once its attempt has finished,
 * whether it matched its source or where it first diverged, with token and cost changes.
 */
import { AppError } from "@switchyard/core/errors";
import { continuedFrom } from "@switchyard/core/replay/continued-from";
import { mayStart } from "@switchyard/core/policy";
import {
  createReplaySuite,
  getAttemptToCompare,
  getReplayAttemptOf,
  getReplaySuite,
  getWorkflow,
  laneRules,
  listExampleAttempts,
  recordAudit,
  type Db,
  type RunStatus,
  type StartRunDeps,
} from "@switchyard/db";
import { compareStored } from "./read-comparison";
import { startReplay, type ReplayChangesInput, type ReplayStarter } from "./start-replay";

/**
 * The last attempt of each agent state (by its path in the run) of each example run; a
 * state that resumed another's session (continue_from) is left out, as no replay restores it.
 */
const lastAttempts = (attempts: Awaited<ReturnType<typeof listExampleAttempts>>) => {
  const last = new Map<string, string>();
  for (const attempt of attempts)
    if (!continuedFrom(attempt.agentRequest))
      last.set(
        `${attempt.runId}\u0000${JSON.stringify(attempt.path ?? attempt.stateName)}`,
        attempt.id,
      );
  return [...last.values()];
};

export const startReplaySuite = async (
  deps: StartRunDeps,
  starter: ReplayStarter,
  input: { workflowId: string; changes: ReplayChangesInput },
) => {
  const workflow = await getWorkflow(deps.db, starter.teamId, input.workflowId);
  if (!workflow || workflow.archivedAt) throw new AppError("NOT_FOUND", "workflow not found");
  const denied = mayStart(await laneRules(deps.db, starter.teamId), starter.role, workflow.lane);
  if (denied) throw denied;
  const sources = lastAttempts(
    await listExampleAttempts(deps.db, starter.teamId, input.workflowId),
  );
  if (sources.length === 0)
    throw new AppError(
      "USER.REPLAY.NO_EXAMPLES",
      "no run marked as an example of this workflow has a finished agent attempt with its request recorded",
    );
  const suite = await createReplaySuite(deps.db, {
    teamId: starter.teamId,
    workflowId: input.workflowId,
    options: input.changes,
    createdById: starter.userId,
  });
  await recordAudit(deps.db, {
    teamId: starter.teamId,
    actorUserId: starter.userId,
    actorToken: starter.tokenId,
    action: "replay.suite.start",
    targetType: "replay_suite",
    targetId: suite.id,
    metadata: { workflowId: input.workflowId, replays: sources.length },
  });
  const runs = [];
  for (const stepRunId of sources) {
    const run = await startReplay(deps, starter, {
      stepRunId,
      changes: input.changes,
      suiteId: suite.id,
    });
    runs.push({ id: run.id, replayOfId: stepRunId });
  }
  return { id: suite.id, runs };
};

const FINISHED = new Set(["succeeded", "failed"]);

/** One replay's row: its source, and its comparison once its attempt has finished. */
const replayRow = async (
  db: Db,
  teamId: string,
  run: { id: string; status: RunStatus; replayOfId: string | null },
) => {
  const source = run.replayOfId ? await getAttemptToCompare(db, teamId, run.replayOfId) : null;
  const own = await getReplayAttemptOf(db, teamId, run.id);
  const attempt = own ? await getAttemptToCompare(db, teamId, own.id) : null;
  const compared =
    source && attempt && FINISHED.has(attempt.status) ? compareStored(source, attempt) : null;
  return {
    runId: run.id,
    status: run.status,
    source: {
      stepRunId: run.replayOfId ?? "",
      runId: source?.runId ?? "",
      stateName: source?.stateName ?? "",
    },
    stepRunId: attempt?.id ?? null,
    match: compared?.match ?? null,
    firstDivergence: compared?.firstDivergence ?? null,
    sameAnswer: compared?.sameAnswer ?? null,
    inputTokens: compared?.inputTokens ?? null,
    outputTokens: compared?.outputTokens ?? null,
    costUsd: compared?.costUsd ?? null,
  };
};

export const readReplaySuite = async (db: Db, teamId: string, suiteId: string) => {
  const suite = await getReplaySuite(db, teamId, suiteId);
  if (!suite) throw new AppError("NOT_FOUND", "replay suite not found");
  const replays = [];
  for (const run of suite.runs) replays.push(await replayRow(db, teamId, run));
  return {
    id: suite.id,
    workflowId: suite.workflowId,
    options: suite.options as ReplayChangesInput,
    createdAt: suite.createdAt,
    counts: {
      total: replays.length,
      matched: replays.filter((r) => r.match === true).length,
      diverged: replays.filter((r) => r.match === false).length,
      pending: replays.filter((r) => r.match === null).length,
    },
    replays,
  };
};
