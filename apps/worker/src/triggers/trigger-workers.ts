/**
 * The worker's part of triggers and notifications: a queue worker firing schedule jobs
 * (BullMQ job schedulers make each fire one job, whichever worker takes it), a queue worker
 * delivering notifications with retries, the boot-time re-sync of schedules, what the
 * run queue's processor calls when a run has ended, and what tells that a wait opened.
 */
import { Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Keyring } from "@switchyard/core/crypto";
import type { FetchLike } from "@switchyard/core/egress";
import { AppError } from "@switchyard/core/errors";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import {
  budgetWarningKey,
  NOTIFICATION_QUEUE,
  notificationJobSchema,
  waitAnnouncementJobSchema,
  TRIGGER_QUEUE,
  triggerJobSchema,
  type NotificationJob,
  type NotificationQueueJob,
  type TriggerJob,
} from "@switchyard/core/triggers";
import {
  enqueueBudgetWarningNotifications,
  enqueueRunNotifications,
  type Db,
} from "@switchyard/db";
import type { Logger } from "../logger";
import { deliverNotification, DeliveryAttemptFailed } from "../notifications/deliver-notification";
import { announceWaitOpened, type WaitMail } from "../notifications/wait-opened";
import { fireTrigger } from "./fire-trigger";
import { syncSchedules } from "./sync-schedules";

type TriggerWorkersDeps = {
  connection: Redis;
  prefix: string;
  db: Db;
  keyring: Keyring;
  log: Logger;
  baseUrl: string;
  /** notifications go out through it */ fetch: FetchLike;
  /** mail to those who may answer a wait; none without SMTP */
  mail?: WaitMail;
};

const asUnrecoverable = (error: unknown) =>
  error instanceof AppError && !error.retryable
    ? new UnrecoverableError(`${error.code}: ${error.message}`)
    : error;

export const startTriggerWorkers = async (deps: TriggerWorkersDeps) => {
  const { connection, prefix, db, log } = deps;
  const runQueue = new Queue<RunJob>(RUN_QUEUE, { connection, prefix });
  const triggerQueue = new Queue<TriggerJob>(TRIGGER_QUEUE, { connection, prefix });
  const notificationQueue = new Queue<NotificationJob>(NOTIFICATION_QUEUE, { connection, prefix });

  /** wait.opened to the endpoints listening, and mail to those who may answer where SMTP is configured */
  const waitOpened = (input: { teamId: string; runId: string; waitId: string }) =>
    announceWaitOpened(
      { db, queue: notificationQueue, baseUrl: deps.baseUrl, mail: deps.mail, log },
      input,
    ).catch((e: unknown) =>
      log.error("could not announce an open wait", {
        waitId: input.waitId,
        error: e instanceof Error ? e.message : String(e),
      }),
    );

  const triggers = new Worker<TriggerJob>(
    TRIGGER_QUEUE,
    async (job) => {
      const data = triggerJobSchema.safeParse(job.data);
      if (!data.success) throw new UnrecoverableError(`bad job data: ${data.error.message}`);
      try {
        return await fireTrigger({ db, queue: runQueue, log, onWaitOpened: waitOpened }, data.data);
      } catch (error) {
        throw asUnrecoverable(error);
      }
    },
    { connection, prefix, concurrency: 4 },
  );
  triggers.on("error", (err) => log.error("trigger queue error", { error: err.message }));

  const notifications = new Worker<NotificationQueueJob>(
    NOTIFICATION_QUEUE,
    async (job) => {
      // A wait the web app opened: announced here, where mail can go out.
      const announce = waitAnnouncementJobSchema.safeParse(job.data);
      if (announce.success) return waitOpened(announce.data.announceWait);
      const data = notificationJobSchema.safeParse(job.data);
      if (!data.success) throw new UnrecoverableError(`bad job data: ${data.error.message}`);
      try {
        return await deliverNotification(
          { db, keyring: deps.keyring, baseUrl: deps.baseUrl, fetch: deps.fetch },
          data.data,
          job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
        );
      } catch (error) {
        if (error instanceof DeliveryAttemptFailed) throw error;
        throw asUnrecoverable(error);
      }
    },
    { connection, prefix, concurrency: 8 },
  );
  notifications.on("failed", (job, err) =>
    log.warn("notification attempt failed", { deliveryId: job?.id, error: err.message }),
  );
  notifications.on("error", (err) => log.error("notification queue error", { error: err.message }));

  await Promise.all([triggers.waitUntilReady(), notifications.waitUntilReady()]);
  const synced = await syncSchedules(db, triggerQueue);
  log.info("schedules synced", synced);

  return {
    /** Makes Redis's job schedulers match Postgres again, as at boot (after Redis lost its data, say). */
    resync: async () => {
      const again = await syncSchedules(db, triggerQueue);
      log.info("schedules synced", again);
      return again;
    },
    /** Enqueues the notifications of a run that has ended (nothing for one still going). */
    runEnded: (teamId: string, runId: string, status?: string) =>
      enqueueRunNotifications(db, notificationQueue, {
        teamId,
        runId,
        ...(status ? { status } : {}),
      }).catch((e: unknown) =>
        log.error("could not enqueue run notifications", {
          runId,
          error: e instanceof Error ? e.message : String(e),
        }),
      ),
    /**
     * Tells that a wait for a person opened: wait.opened to the endpoints listening, and mail
     * to those who may answer where SMTP is configured. Call it once the wait's row is written.
     */
    /** Tells endpoints listening to budget.warning that a step's spend crossed 80% of a limit. */
    budgetWarning: (input: { teamId: string; runId: string; amount: string; limit: string }) =>
      enqueueBudgetWarningNotifications(db, notificationQueue, {
        teamId: input.teamId,
        runId: input.runId,
        key: budgetWarningKey(input.amount, input.limit),
      }).catch((e: unknown) =>
        log.error("could not enqueue a budget warning", {
          runId: input.runId,
          error: e instanceof Error ? e.message : String(e),
        }),
      ),
    waitOpened,
    close: async () => {
      await triggers.close();
      await notifications.close();
      await Promise.all([runQueue.close(), triggerQueue.close(), notificationQueue.close()]);
    },
  };
};
