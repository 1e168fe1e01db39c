/**
 * What the worker reads to replay an agent attempt: the attempt's stored request, where it
 * sat in its run, its workspace snapshot, and its tool calls (replayPlanOf keeps those the
 * proxy served as the recordings).
 */
import type { Db } from "../client";

/** The attempt a replay run replays, with its recordings in the order they started; undefined: not the team's. */
export const replaySourceOf = async (db: Db, teamId: string, stepRunId: string) => {
  const attempt = await db.stepRun.findFirst({
    where: { id: stepRunId, teamId, stepType: "agent" },
    select: {
      id: true,
      runId: true,
      stateName: true,
      path: true,
      agentRequest: true,
      snapshotId: true,
      toolCalls: {
        where: { teamId },
        orderBy: [{ startedAt: "asc" }, { id: "asc" }],
        select: {
          toolName: true,
          source: true,
          connectorId: true,
          fidelity: true,
          arguments: true,
          result: true,
          isError: true,
          replay: true,
        },
      },
    },
  });
  return attempt ?? undefined;
};
