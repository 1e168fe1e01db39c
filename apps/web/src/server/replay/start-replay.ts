/**
 * Starts a replay of a finished agent attempt: a run (trigger `replay`) of the attempt's
 * workflow version with its run's inputs, naming the attempt (`replayOfId`) and what the
 * replay changes, started through the one run start (lanes, reach, inputs, the queue), so a
 * replay needs exactly what starting the workflow needs. The worker sees `replayOfId` and
 * runs that one attempt again from its recording. Audited.
 */
import type { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { continuedFrom, continuedRefusal } from "@switchyard/core/replay/continued-from";
import { getReplaySource, recordAudit, type Role, type StartRunDeps } from "@switchyard/db";
import type { replayChanges } from "../contract/replay.types";
import { startRun } from "../runs/start-run";

export type ReplayChangesInput = z.output<typeof replayChanges>;

export type ReplayStarter = { teamId: string; userId: string; role: Role; tokenId?: string };

const FINISHED = new Set(["succeeded", "failed"]);

/** What the audit entry says of the changes: which were made, never the prompt itself. */
const changesNamed = (changes: ReplayChangesInput) => ({
  ...(changes.provider ? { provider: changes.provider } : {}),
  ...(changes.model ? { model: changes.model } : {}),
  ...(changes.agentVersion ? { agentVersion: changes.agentVersion } : {}),
  ...(changes.unmatched ? { unmatched: changes.unmatched } : {}),
  ...(changes.prompt === undefined ? {} : { promptChanged: true }),
});

/** The attempt as a replay's source, or why it cannot be one. */
const replayableSource = async (
  deps: StartRunDeps,
  teamId: string,
  stepRunId: string,
  runId: string | undefined,
) => {
  const source = await getReplaySource(deps.db, teamId, stepRunId);
  // an attempt of another run than the path names is not found there
  if (!source || (runId !== undefined && source.runId !== runId))
    throw new AppError("NOT_FOUND", "step attempt not found");
  const refuse = (why: string) =>
    new AppError("USER.REPLAY.NOT_REPLAYABLE", `this attempt cannot be replayed: ${why}`, {
      location: { path: "stepRunId" },
    });
  if (source.stepType !== "agent") throw refuse("it is not an agent step");
  if (!FINISHED.has(source.status)) throw refuse(`it has not finished (${source.status})`);
  if (source.agentRequest === null)
    throw refuse("its request was not recorded (it ran before replays were kept)");
  const continued = continuedFrom(source.agentRequest);
  if (continued) throw refuse(continuedRefusal(continued));
  if (source.snapshotId === null)
    throw new AppError(
      "USER.REPLAY.NO_SNAPSHOT",
      "this attempt cannot be replayed: the workspace it started from was not kept (over the team's snapshot cap, or removed by retention)",
      { location: { path: "stepRunId" } },
    );
  return source;
};

export const startReplay = async (
  deps: StartRunDeps,
  starter: ReplayStarter,
  input: { stepRunId: string; runId?: string; changes: ReplayChangesInput; suiteId?: string },
) => {
  const source = await replayableSource(deps, starter.teamId, input.stepRunId, input.runId);
  const run = await startRun(deps, {
    teamId: starter.teamId,
    userId: starter.userId,
    role: starter.role,
    workflowId: source.run.workflowId,
    versionId: source.run.workflowVersionId,
    inputs: source.run.inputs as Record<string, unknown>,
    trigger: "replay",
    replay: { ofId: source.id, options: input.changes, suiteId: input.suiteId },
  });
  await recordAudit(deps.db, {
    teamId: starter.teamId,
    actorUserId: starter.userId,
    actorToken: starter.tokenId,
    action: "run.replay",
    targetType: "run",
    targetId: run.id,
    metadata: { replayOfId: source.id, sourceRunId: source.runId, ...changesNamed(input.changes) },
  });
  return run;
};
