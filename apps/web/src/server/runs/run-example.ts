/**
 * Marks a run an example of its workflow, or unmarks it: who may start runs in the run's
 * lane may. Suite replays ("replay all examples") replay the agent attempts of the marked.
 */
import { AppError } from "@switchyard/core/errors";
import { mayStart } from "@switchyard/core/policy";
import {
  getRunToRerun,
  laneRules,
  recordAudit,
  setRunExample,
  type Db,
  type Role,
} from "@switchyard/db";

export const setExample = async (
  db: Db,
  caller: { teamId: string; userId: string; role: Role; tokenId?: string },
  runId: string,
  example: boolean,
) => {
  const run = await getRunToRerun(db, caller.teamId, runId);
  if (!run) throw new AppError("NOT_FOUND", "run not found");
  const denied = mayStart(await laneRules(db, caller.teamId), caller.role, run.lane);
  if (denied) throw denied;
  const exampleAt = example ? new Date() : null;
  if (!(await setRunExample(db, caller.teamId, runId, exampleAt)))
    throw new AppError("NOT_FOUND", "run not found");
  await recordAudit(db, {
    teamId: caller.teamId,
    actorUserId: caller.userId,
    actorToken: caller.tokenId,
    action: example ? "run.example.mark" : "run.example.unmark",
    targetType: "run",
    targetId: runId,
  });
  return { id: runId, exampleAt };
};
