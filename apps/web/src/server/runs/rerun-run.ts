/**
 * Re-runs a run: the same workflow version with the same inputs, as a new run that names
 * the one it re-runs, started by the caller on the caller's surface with the checks of any
 * start (lanes, reach), so a re-run needs exactly what starting the workflow needs.
 */
import { AppError } from "@switchyard/core/errors";
import { getRunToRerun, type RunTrigger, type StartRunDeps } from "@switchyard/db";
import type { Role } from "@switchyard/db";
import { startRun } from "./start-run";

export const rerunRun = async (
  deps: StartRunDeps,
  input: { teamId: string; userId: string; role: Role; runId: string; trigger: RunTrigger },
) => {
  const original = await getRunToRerun(deps.db, input.teamId, input.runId);
  if (!original) throw new AppError("NOT_FOUND", "run not found");
  return startRun(deps, {
    teamId: input.teamId,
    userId: input.userId,
    role: input.role,
    workflowId: original.workflowId,
    versionId: original.workflowVersionId,
    inputs: original.inputs as Record<string, unknown>,
    trigger: input.trigger,
    rerunOfId: original.id,
  });
};
