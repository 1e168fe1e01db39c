/**
 * Notification endpoints and their deliveries, for the dashboard's procedures and the REST
 * API alike; admins only. An endpoint's signing secret is made and sealed here and shown
 * once; "send test" enqueues a delivery marked as a test. Creating and deleting an
 * endpoint commit with their audit entries.
 */
import type { z } from "zod";
import type { Redis } from "ioredis";
import { newCredentialId, type Keyring } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import { checkEndpointUrl, newSigningSecret, sealSigningSecret } from "@switchyard/core/triggers";
import {
  createNotificationEndpoint,
  deleteNotificationEndpoint,
  enqueueTestNotification,
  listNotificationDeliveries,
  listNotificationEndpoints,
  recordAudit,
  updateNotificationEndpoint,
  type Db,
  type Role,
} from "@switchyard/db";
import { requireRole } from "../trpc/init";
import type {
  createEndpointBody,
  notificationDelivery,
  updateEndpointBody,
} from "../contract/notifications.types";
import { notificationQueue } from "./notification-queue";
import type { WebEgress } from "../egress";

export type NotificationActor = { teamId: string; userId: string; role: Role };
/** `egress`: the operator's egress rule, which an endpoint's URL must pass to be saved. */
export type NotificationServices = {
  db: Db;
  keyring: () => Keyring;
  redis: () => Redis;
  prefix: string;
  egress: WebEgress;
};

const audit = (
  actor: NotificationActor,
  action: string,
  endpointId: string,
  metadata?: Record<string, string>,
) => ({
  teamId: actor.teamId,
  actorUserId: actor.userId,
  action,
  targetType: "notification_endpoint",
  targetId: endpointId,
  metadata,
});

export const listEndpoints = async (db: Db, actor: NotificationActor) => {
  requireRole("admin", actor.role);
  return { endpoints: await listNotificationEndpoints(db, actor.teamId) };
};

export const createEndpoint = async (
  services: NotificationServices,
  actor: NotificationActor,
  input: z.infer<typeof createEndpointBody>,
) => {
  requireRole("admin", actor.role);
  const url = checkEndpointUrl(input.url, services.egress.allow);
  const id = `ntf_${newCredentialId().slice(5)}`;
  const secret = newSigningSecret();
  const credentialId = newCredentialId();
  const envelope = sealSigningSecret(
    services.keyring(),
    { teamId: actor.teamId, credentialId, holder: { kind: "notification", id } },
    secret,
  );
  const endpoint = await services.db.$transaction(async (tx) => {
    const row = await createNotificationEndpoint(tx, {
      id,
      teamId: actor.teamId,
      url,
      events: [...new Set(input.events)],
      enabled: input.enabled ?? true,
      createdById: actor.userId,
      sealed: { credentialId, envelope },
    });
    await recordAudit(tx, audit(actor, "notification.endpoint.create", id, { url }));
    return row;
  });
  return { endpoint, secret };
};

export const updateEndpoint = async (
  services: Pick<NotificationServices, "db" | "egress">,
  actor: NotificationActor,
  endpointId: string,
  input: z.infer<typeof updateEndpointBody>,
) => {
  requireRole("admin", actor.role);
  const { db } = services;
  const fields = {
    ...input,
    ...(input.url !== undefined ? { url: checkEndpointUrl(input.url, services.egress.allow) } : {}),
    ...(input.events ? { events: [...new Set(input.events)] } : {}),
  };
  const endpoint = await db.$transaction(async (tx) => {
    const row = await updateNotificationEndpoint(tx, actor.teamId, endpointId, fields);
    if (!row) throw new AppError("NOT_FOUND", "notification endpoint not found");
    await recordAudit(tx, audit(actor, "notification.endpoint.update", endpointId));
    return row;
  });
  return endpoint;
};

export const deleteEndpoint = async (db: Db, actor: NotificationActor, endpointId: string) => {
  requireRole("admin", actor.role);
  await db.$transaction(async (tx) => {
    if (!(await deleteNotificationEndpoint(tx, actor.teamId, endpointId)))
      throw new AppError("NOT_FOUND", "notification endpoint not found");
    await recordAudit(tx, audit(actor, "notification.endpoint.delete", endpointId));
  });
  return { id: endpointId };
};

export const sendTestNotification = async (
  services: NotificationServices,
  actor: NotificationActor,
  endpointId: string,
) => {
  requireRole("admin", actor.role);
  const deliveryId = await enqueueTestNotification(
    services.db,
    notificationQueue(services.redis(), services.prefix),
    {
      teamId: actor.teamId,
      endpointId,
      testRunId: `test_${newCredentialId().slice(5)}`,
    },
  );
  if (!deliveryId) throw new AppError("NOT_FOUND", "notification endpoint not found");
  return { deliveryId };
};

export const listDeliveries = async (db: Db, actor: NotificationActor, limit = 50) => {
  requireRole("admin", actor.role);
  const rows = await listNotificationDeliveries(
    db,
    actor.teamId,
    Math.min(Math.max(limit, 1), 200),
  );
  return {
    deliveries: rows.map((d) => ({
      ...d,
      status: d.status as z.infer<typeof notificationDelivery>["status"],
    })),
  };
};
