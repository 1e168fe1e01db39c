/**
 * The queues of triggers and notifications, shared by the web app (which schedules and
 * enqueues) and the worker (which fires and delivers). A schedule is a BullMQ job scheduler
 * whose id is the trigger's, so however many workers listen each fire is one job.
 */
import { z } from "zod";

export const TRIGGER_QUEUE = "triggers";
export const NOTIFICATION_QUEUE = "notifications";

export const triggerJobSchema = z.object({
  triggerId: z.string().min(1),
  teamId: z.string().min(1),
});
export type TriggerJob = z.infer<typeof triggerJobSchema>;

/** The job scheduler of a schedule trigger. */
export const triggerSchedulerId = (triggerId: string) => `trigger:${triggerId}`;

/**
 * What an endpoint may listen to: a run's end, a wait for a person opening (wait.opened), and
 * a step's spend crossing 80% of a budget limit (budget.warning).
 */
export const NOTIFICATION_EVENTS = [
  "run.succeeded",
  "run.failed",
  "run.cancelled",
  "wait.opened",
  "budget.warning",
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** The event a run's final status sends, if any. */
export const eventOfRunStatus = (
  status: string,
): Exclude<NotificationEvent, "wait.opened"> | undefined =>
  status === "succeeded"
    ? "run.succeeded"
    : status === "failed"
      ? "run.failed"
      : status === "cancelled"
        ? "run.cancelled"
        : undefined;

export const notificationJobSchema = z.object({
  deliveryId: z.string().min(1),
  teamId: z.string().min(1),
});
export type NotificationJob = z.infer<typeof notificationJobSchema>;

/**
 * A wait for a person that opened where no mail is sent (the web app: a webhook's run waiting
 * for its inputs): a worker announces it as it announces the waits it opens itself.
 */
export const waitAnnouncementJobSchema = z.object({
  announceWait: z.object({
    teamId: z.string().min(1),
    runId: z.string().min(1),
    waitId: z.string().min(1),
  }),
});
/** The jobs of the notification queue: a delivery, or a wait to announce. */
export type NotificationQueueJob = NotificationJob | z.infer<typeof waitAnnouncementJobSchema>;
/** One announcement per wait, however often it is asked for. */
export const waitAnnouncementJobId = (waitId: string) => `wait-opened-${waitId}`;

/** Delivery attempts before a notification is given up as failed, and the first retry's delay. */
export const NOTIFICATION_ATTEMPTS = 6;
export const NOTIFICATION_BACKOFF_MS = 1000;
/** How long a receiver has to answer one delivery. */
export const NOTIFICATION_TIMEOUT_MS = 10_000;

/** What a notification's POST carries. `test` marks the one sent by "send test". */
export type NotificationPayload = {
  event: NotificationEvent;
  test?: boolean;
  run: {
    id: string;
    workflow: string;
    status: string;
    errorCode: string | null;
    startedAt: string | null;
    finishedAt: string | null;
    url: string;
  };
  /** wait.opened: the wait, and where to answer it (the run's page) */
  wait?: { id: string; kind: string; question: string; url: string };
  /** budget.warning: which amount of which limit crossed 80% (`limit` says where it is set) */
  budget?: { amount: string; limit: string };
};

/**
 * A budget warning's key on its deliveries (one per run, limit and amount): it also carries
 * what the payload says of it, `budget:<amount>|<where the limit is set>`.
 */
export const budgetWarningKey = (amount: string, limit: string) =>
  `budget:${amount}|${limit}`.slice(0, 500);

/** What a budget warning's key says, or undefined for any other key. */
export const budgetOfKey = (key: string): { amount: string; limit: string } | undefined => {
  const m = /^budget:([^|]*)\|(.*)$/s.exec(key);
  return m ? { amount: m[1]!, limit: m[2]! } : undefined;
};
