/**
 * Cancels a run. A queued run is marked cancelled at once (the worker skips it when it
 * arrives), and so is a run parked on a person's answer (no worker holds it), its open
 * waits closed with it; a running one is signalled to whichever worker holds it, and that
 * worker records the cancellation when its processes have stopped.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { AppError } from "@switchyard/core/errors";
import { runCancelChannel, runUpdatesChannel, type RunJob } from "@switchyard/core/runs";
import { mayCancel } from "@switchyard/core/policy";
import {
  cancelQueuedRun,
  cancelRunWaits,
  cancelWaitingRun,
  getRunLifecycle,
  laneRules,
  requestRunCancel,
  type Db,
  type Role,
} from "@switchyard/db";
import { notifyRunEnded } from "../notifications/notification-queue";

export type CancelRunDeps = {
  db: Db;
  queue: Queue<RunJob>;
  prefix: string;
  publish: (channel: string, message: string) => Promise<unknown>;
};

export const cancelRun = async (
  deps: CancelRunDeps,
  input: { teamId: string; role: Role; runId: string },
) => {
  const run = await getRunLifecycle(deps.db, input.teamId, input.runId);
  if (!run) throw new AppError("NOT_FOUND", "run not found");
  const denied = mayCancel(await laneRules(deps.db, input.teamId), input.role, run.lane);
  if (denied) throw denied;
  const endedHere =
    (await cancelQueuedRun(deps.db, input.teamId, run.id)) ||
    (await deps.db.$transaction(async (tx) => {
      if (!(await cancelWaitingRun(tx, input.teamId, run.id))) return false;
      await cancelRunWaits(tx, input.teamId, run.id);
      return true;
    }));
  if (endedHere) {
    await deps.queue.remove(run.id).catch(() => 0);
    await deps.publish(runUpdatesChannel(deps.prefix), run.id).catch(() => 0);
    // No worker will see it end: the team's notification endpoints are told from here.
    await notifyRunEnded(
      { db: deps.db, redis: deps.queue.opts.connection as Redis, prefix: deps.prefix },
      { teamId: input.teamId, runId: run.id },
    );
    return { status: "cancelled" as const };
  }
  // The run may have been taken by a worker since it was read: decide on its state now.
  if (!(await requestRunCancel(deps.db, input.teamId, run.id))) {
    const now = await getRunLifecycle(deps.db, input.teamId, run.id);
    throw new AppError("CONFLICT", `run already ${now?.status ?? "gone"}`);
  }
  await deps.publish(runCancelChannel(deps.prefix), run.id);
  return { status: "cancelling" as const };
};
