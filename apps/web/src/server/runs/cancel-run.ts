/**
 * Cancels a run. A queued run is marked cancelled at once (the worker skips it when it
 * arrives); a running one is signalled to whichever worker holds it, and that worker
 * records the cancellation when its processes have stopped.
 */
import type { Queue } from "bullmq";
import { AppError } from "@switchyard/core/errors";
import { runCancelChannel, type RunJob } from "@switchyard/core/runs";
import { mayCancel } from "@switchyard/core/policy";
import { laneRules, type Db, type Role } from "@switchyard/db";

export type CancelRunDeps = {
  db: Db;
  queue: Queue<RunJob>;
  prefix: string;
  publish: (channel: string, message: string) => Promise<unknown>;
};

export const cancelRun = async (deps: CancelRunDeps, input: { teamId: string; role: Role; runId: string }) => {
  const run = await deps.db.run.findFirst({ where: { id: input.runId, teamId: input.teamId } });
  if (!run) throw new AppError("NOT_FOUND", "run not found");
  const denied = mayCancel(await laneRules(deps.db, input.teamId), input.role, run.lane);
  if (denied) throw denied;
  const { count } = await deps.db.run.updateMany({
    where: { id: run.id, teamId: input.teamId, status: "queued" },
    data: { status: "cancelled", errorCode: "EXECUTION.CANCELLED", errorMessage: "cancelled before it started", finishedAt: new Date() },
  });
  if (count === 1) {
    await deps.queue.remove(run.id).catch(() => 0);
    return { status: "cancelled" as const };
  }
  // The run may have been taken by a worker since it was read: decide on its state now.
  const { count: requested } = await deps.db.run.updateMany({
    where: { id: run.id, teamId: input.teamId, status: "running" },
    data: { cancelRequestedAt: new Date() },
  });
  if (requested === 0) {
    const now = await deps.db.run.findFirst({ where: { id: run.id, teamId: input.teamId }, select: { status: true } });
    throw new AppError("CONFLICT", `run already ${now?.status ?? "gone"}`);
  }
  await deps.publish(runCancelChannel(deps.prefix), run.id);
  return { status: "cancelling" as const };
};
