/**
 * A team's notification endpoints (where a signed POST goes when a run ends) and the
 * deliveries made to them. An endpoint's signing secret is kept as the envelope it was
 * sealed into (a Credential row named after the endpoint). A delivery is one run's event
 * to one endpoint, unique on the three, so however often a run's end is reported it is
 * delivered once. Sealing, opening, sending and audit entries happen in the callers.
 */
import {
  eventOfRunStatus,
  NOTIFICATION_ATTEMPTS,
  NOTIFICATION_BACKOFF_MS,
  signingSecretHolder,
  type NotificationEvent,
  type NotificationJob,
} from "@switchyard/core/triggers";
import { rawQuery, type Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { storableText } from "../storable";
import { envelopeOf, sealedColumns } from "./sealed-columns";
import type { SealedValue } from "./variables";

type EndpointFields = { url?: string; events?: NotificationEvent[]; enabled?: boolean };

const listing = {
  id: true,
  url: true,
  events: true,
  enabled: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** The team's notification endpoints, oldest first. */
export const listNotificationEndpoints = (db: Db, teamId: string) =>
  db.notificationEndpoint.findMany({
    where: { teamId },
    orderBy: { createdAt: "asc" },
    select: listing,
  });

const credentialName = (endpointId: string, credentialId: string) =>
  `${signingSecretHolder({ kind: "notification", id: endpointId })}:${credentialId}`;

export const createNotificationEndpoint = async (
  tx: PrismaClientOrTransaction,
  input: {
    id: string;
    teamId: string;
    url: string;
    events: NotificationEvent[];
    enabled: boolean;
    createdById: string;
    sealed: SealedValue;
  },
) => {
  const { sealed } = input;
  await tx.credential.create({
    data: {
      id: sealed.credentialId,
      teamId: input.teamId,
      name: credentialName(input.id, sealed.credentialId),
      kind: "secret",
      ...sealedColumns(sealed.envelope),
    },
  });
  return tx.notificationEndpoint.create({
    data: {
      id: input.id,
      teamId: input.teamId,
      url: input.url,
      events: input.events,
      enabled: input.enabled,
      createdById: input.createdById,
      credentialId: sealed.credentialId,
    },
    select: listing,
  });
};

/** Null when the team has no such endpoint. */
export const updateNotificationEndpoint = async (
  tx: PrismaClientOrTransaction,
  teamId: string,
  endpointId: string,
  fields: EndpointFields,
) => {
  const { count } = await tx.notificationEndpoint.updateMany({
    where: { id: endpointId, teamId },
    data: fields,
  });
  return count === 0
    ? null
    : tx.notificationEndpoint.findFirst({ where: { id: endpointId, teamId }, select: listing });
};

/** Removes an endpoint, its deliveries and its secret; false when there was none. */
export const deleteNotificationEndpoint = async (
  tx: PrismaClientOrTransaction,
  teamId: string,
  endpointId: string,
) => {
  const existing = await tx.notificationEndpoint.findFirst({ where: { id: endpointId, teamId } });
  if (!existing) return false;
  await tx.notificationEndpoint.deleteMany({ where: { id: endpointId, teamId } });
  if (existing.credentialId)
    await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId } });
  return true;
};

/** The team's latest deliveries, newest first, with their endpoint's URL. */
export const listNotificationDeliveries = async (db: Db, teamId: string, limit: number) =>
  (
    await db.notificationDelivery.findMany({
      where: { teamId },
      orderBy: { createdAt: "desc" },
      take: limit,
      include: { endpoint: { select: { url: true } } },
    })
  ).map(({ endpoint, teamId: _team, ...d }) => ({ ...d, url: endpoint.url }));

/** A delivery job's queue, as far as enqueuing needs it (a BullMQ `Queue<NotificationJob>`). */
type NotificationEnqueuer = {
  add: (
    name: "deliver",
    data: NotificationJob,
    opts: {
      jobId: string;
      attempts: number;
      backoff: { type: "exponential"; delay: number };
      removeOnComplete: { count: number };
      removeOnFail: { count: number };
    },
  ) => Promise<unknown>;
};

const enqueue = (queue: NotificationEnqueuer, teamId: string, deliveryId: string) =>
  queue.add(
    "deliver",
    { deliveryId, teamId },
    {
      jobId: deliveryId,
      attempts: NOTIFICATION_ATTEMPTS,
      backoff: { type: "exponential", delay: NOTIFICATION_BACKOFF_MS },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 1000 },
    },
  );

/**
 * A pending delivery of `event` (about a run, and a wait for wait.opened) for each enabled
 * endpoint of the team that listens to it, each enqueued once: the row's unique key and the
 * job id make a second report a no-op. Returns how many were new.
 */
const deliverToListeners = async (
  db: Db,
  queue: NotificationEnqueuer,
  input: { teamId: string; runId: string; event: NotificationEvent; waitId: string },
) => {
  const { teamId, runId, event, waitId } = input;
  // Every run's end asks this, and most teams have no endpoint: a plain statement.
  const endpoints = await rawQuery<{ id: string }>(
    db,
    `SELECT id FROM "NotificationEndpoint" WHERE "teamId" = $1 AND enabled AND $2 = ANY (events)`,
    [teamId, event],
  );
  if (endpoints.length === 0) return 0;
  const { count } = await db.notificationDelivery.createMany({
    data: endpoints.map((e) => ({ teamId, endpointId: e.id, runId, event, waitId })),
    skipDuplicates: true,
  });
  const pending = await db.notificationDelivery.findMany({
    where: { teamId, runId, event, waitId, status: "pending", attempts: 0 },
    select: { id: true },
  });
  for (const d of pending) await enqueue(queue, teamId, d.id);
  return count;
};

/**
 * When a run has ended: a pending delivery for each enabled endpoint of the team that
 * listens to its event, each enqueued once (the row's unique key and the job id make a
 * second report of the same end a no-op). Returns how many were new.
 */
export const enqueueRunNotifications = async (
  db: Db,
  queue: NotificationEnqueuer,
  /** `status`: how the run ended, when the caller has just written it (else it is read). */
  input: { teamId: string; runId: string; status?: string },
) => {
  const status =
    input.status ??
    (
      await db.run.findFirst({
        where: { id: input.runId, teamId: input.teamId },
        select: { status: true },
      })
    )?.status;
  const event = status ? eventOfRunStatus(status) : undefined;
  if (!event) return 0;
  return deliverToListeners(db, queue, {
    teamId: input.teamId,
    runId: input.runId,
    event,
    waitId: "",
  });
};

/**
 * When a wait for a person has opened: a pending delivery of `wait.opened` for each enabled
 * endpoint of the team that listens to it, one per endpoint and wait however often it is
 * announced. Returns how many were new.
 */
export const enqueueWaitNotifications = async (
  db: Db,
  queue: NotificationEnqueuer,
  input: { teamId: string; runId: string; waitId: string },
) => deliverToListeners(db, queue, { ...input, event: "wait.opened" });

/**
 * When a step's spend crossed 80% of a budget limit: a pending delivery of `budget.warning`
 * for each enabled endpoint listening, one per run, limit and amount (`key`, budgetWarningKey).
 */
export const enqueueBudgetWarningNotifications = async (
  db: Db,
  queue: NotificationEnqueuer,
  input: { teamId: string; runId: string; key: string },
) =>
  deliverToListeners(db, queue, {
    teamId: input.teamId,
    runId: input.runId,
    event: "budget.warning",
    waitId: input.key,
  });

/** A test delivery to one endpoint (its run id is made up and marked as a test). */
export const enqueueTestNotification = async (
  db: Db,
  queue: NotificationEnqueuer,
  input: { teamId: string; endpointId: string; testRunId: string },
) => {
  const endpoint = await db.notificationEndpoint.findFirst({
    where: { id: input.endpointId, teamId: input.teamId },
    select: { id: true },
  });
  if (!endpoint) return null;
  const delivery = await db.notificationDelivery.create({
    data: {
      teamId: input.teamId,
      endpointId: endpoint.id,
      runId: input.testRunId,
      event: "run.succeeded",
    },
    select: { id: true },
  });
  await enqueue(queue, input.teamId, delivery.id);
  return delivery.id;
};

/** What sending one delivery needs: where, the sealed secret, the run it reports (null for a test) and the wait a wait.opened is about. */
export const deliveryToSend = async (db: Db, teamId: string, deliveryId: string) => {
  const delivery = await db.notificationDelivery.findFirst({
    where: { id: deliveryId, teamId },
    include: { endpoint: { select: { id: true, url: true, credentialId: true, enabled: true } } },
  });
  if (!delivery) return null;
  const credential = delivery.endpoint.credentialId
    ? await db.credential.findFirst({ where: { id: delivery.endpoint.credentialId, teamId } })
    : null;
  const run = await db.run.findFirst({
    where: { id: delivery.runId, teamId },
    select: {
      id: true,
      status: true,
      errorCode: true,
      startedAt: true,
      finishedAt: true,
      workflow: { select: { name: true } },
    },
  });
  const wait =
    delivery.waitId && delivery.event === "wait.opened"
      ? await db.wait.findFirst({
          where: { id: delivery.waitId, teamId },
          select: { id: true, kind: true, question: true },
        })
      : null;
  return {
    delivery: {
      id: delivery.id,
      runId: delivery.runId,
      event: delivery.event,
      status: delivery.status,
      /** the wait's id (wait.opened) or the budget warning's key (budget.warning) */
      subject: delivery.waitId,
    },
    wait,
    endpoint: delivery.endpoint,
    sealed: credential
      ? ({ credentialId: credential.id, envelope: envelopeOf(credential) } satisfies SealedValue)
      : null,
    run: run ? { ...run, workflow: run.workflow.name } : null,
  };
};

/** Records one attempt: delivered, still pending (a retry follows) or failed for good. */
export const recordDeliveryAttempt = (
  db: Db,
  teamId: string,
  deliveryId: string,
  result: { status: "delivered" | "pending" | "failed"; statusCode?: number; error?: string },
) =>
  db.notificationDelivery.updateMany({
    where: { id: deliveryId, teamId, status: { not: "delivered" } },
    data: {
      status: result.status,
      attempts: { increment: 1 },
      lastStatusCode: result.statusCode ?? null,
      lastError: storableText(result.error) ?? null,
      ...(result.status === "delivered" ? { deliveredAt: new Date() } : {}),
    },
  });
