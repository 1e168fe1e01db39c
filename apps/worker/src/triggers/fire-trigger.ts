/**
 * One fire of a schedule: the trigger is read again (gone or paused: nothing happens), the
 * membership of the member it runs as is checked now (a member who left, or lost the right
 * to start runs in the lane, makes the fire fail, with the reason left on the trigger for
 * the page), and the run starts through the shared startRun with the trigger's inputs (one
 * without a required input waits for a person to fill it in, told as wait.opened). The
 * fire is a span of its own, the root of the run's trace (docs/observability.md).
 */
import { ROOT_CONTEXT } from "@opentelemetry/api";
import { AppError } from "@switchyard/core/errors";
import type { TriggerJob } from "@switchyard/core/triggers";
import {
  getTrigger,
  recordTriggerFire,
  startRun,
  triggerRunner,
  type Db,
  type StartRunDeps,
} from "@switchyard/db";
import type { Logger } from "../logger";
import { traceparentOfSpan, withChildSpan } from "../tracing";

export type FireTriggerDeps = {
  db: Db;
  queue: StartRunDeps["queue"];
  log: Logger;
  /** told when the run waits for inputs the schedule does not give (wait.opened) */
  onWaitOpened?: StartRunDeps["onWaitOpened"];
};

export const fireTrigger = (deps: FireTriggerDeps, job: TriggerJob) =>
  withChildSpan(
    ROOT_CONTEXT,
    "trigger schedule",
    { "switchyard.trigger.id": job.triggerId, "switchyard.team.id": job.teamId },
    (span) => fire(deps, job, traceparentOfSpan(span)),
  );

const fire = async (deps: FireTriggerDeps, job: TriggerJob, traceparent: string | undefined) => {
  const { db, log } = deps;
  const trigger = await getTrigger(db, job.teamId, job.triggerId);
  if (!trigger || trigger.kind !== "schedule" || trigger.paused) return { skipped: true as const };
  try {
    const runner = await triggerRunner(db, {
      teamId: job.teamId,
      runAsUserId: trigger.runAsUserId,
    });
    const run = await startRun(
      { db, queue: deps.queue, onWaitOpened: deps.onWaitOpened },
      {
        teamId: job.teamId,
        userId: runner.userId,
        role: runner.role,
        workflowId: trigger.workflowId,
        inputs: (trigger.inputs ?? {}) as Record<string, unknown>,
        trigger: "schedule",
        triggerId: trigger.id,
        ...(traceparent ? { traceparent } : {}),
      },
    );
    await recordTriggerFire(db, job.teamId, trigger.id, { runId: run.id });
    log.info("schedule fired", { triggerId: trigger.id, runId: run.id });
    return { runId: run.id };
  } catch (error) {
    // A refusal (lane, role, workflow gone) is the trigger's to show; infrastructure errors throw.
    if (!(error instanceof AppError) || error.retryable) throw error;
    await recordTriggerFire(db, job.teamId, trigger.id, {
      error: `${error.code}: ${error.userMessage}`,
    });
    log.warn("schedule could not start a run", { triggerId: trigger.id, code: error.code });
    return { error: error.code };
  }
};
