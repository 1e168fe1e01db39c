/**
 * Starts a run of a workflow's current version: checks the caller may start runs in the
 * workflow's lane, writes the run row and enqueues its job. If the job cannot be enqueued
 * the row is removed again, so no run is left queued that no worker will ever see.
 */
import { context, propagation } from "@opentelemetry/api";
import type { Queue } from "bullmq";
import { AppError } from "@switchyard/core/errors";
import type { RunJob } from "@switchyard/core/runs";
import { createRun, getWorkflow, roleAtLeast, type Db, type Role, type RunTrigger } from "@switchyard/db";

export type StartRunDeps = { db: Db; queue: Queue<RunJob> };
export type StartRunInput = {
  teamId: string;
  userId: string;
  role: Role;
  workflowId: string;
  inputs?: Record<string, unknown>;
  trigger: RunTrigger;
};

export const startRun = async (deps: StartRunDeps, input: StartRunInput) => {
  const workflow = await getWorkflow(deps.db, input.teamId, input.workflowId);
  if (!workflow || workflow.archivedAt) throw new AppError("NOT_FOUND", "workflow not found");
  if (!workflow.currentVersion) throw new AppError("CONFLICT", "workflow has no saved version");

  const lane = await deps.db.lane.findUnique({
    where: { teamId_name: { teamId: input.teamId, name: workflow.lane } },
  });
  const allowed = lane ? lane.startRoles.includes(input.role) : roleAtLeast(input.role, "admin");
  if (!allowed) {
    throw new AppError("FORBIDDEN", `your role (${input.role}) may not start runs in lane "${workflow.lane}"`);
  }

  const run = await createRun(deps.db, {
    teamId: input.teamId,
    workflowId: workflow.id,
    workflowVersionId: workflow.currentVersion.id,
    lane: workflow.lane,
    trigger: input.trigger,
    inputs: input.inputs,
    startedById: input.userId,
  });
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  try {
    await deps.queue.add(
      "run",
      { runId: run.id, teamId: input.teamId, traceparent: carrier.traceparent },
      // A job fails only when the worker's own infrastructure does (a database blip, say);
      // a failing workflow still completes its job. Retries resume the run where it was.
      { jobId: run.id, attempts: 5, backoff: { type: "exponential", delay: 2000 }, removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } },
    );
  } catch (cause) {
    await deps.db.run.deleteMany({ where: { id: run.id, teamId: input.teamId } });
    throw new AppError("SYSTEM.QUEUE_UNAVAILABLE", "the run queue is unavailable; nothing was started", {
      retryable: true,
      cause,
    });
  }
  return run;
};
