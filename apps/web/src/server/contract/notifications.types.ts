/**
 * Request and response shapes of notification endpoints and deliveries, shared by the tRPC
 * procedures, the REST routes and the generated OpenAPI document.
 */
import { z } from "zod";
import { NOTIFICATION_EVENTS } from "@switchyard/core/triggers";
import { timestamp } from "./timestamp";

const events = z.array(z.enum(NOTIFICATION_EVENTS)).min(1, "choose at least one event").max(3);

export const createEndpointBody = z.object({
  url: z.string().min(1).max(2048),
  events,
  enabled: z.boolean().optional(),
});
export const updateEndpointBody = z.object({ url: z.string().min(1).max(2048).optional(), events: events.optional(), enabled: z.boolean().optional() });
export const endpointIdInput = z.object({ id: z.string().min(1) });

export const notificationEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const endpointList = z.object({ endpoints: z.array(notificationEndpoint) });
export const endpointWithSecret = z.object({
  endpoint: notificationEndpoint,
  secret: z.string().describe("the signing secret, shown only in this answer"),
});
export const deletedEndpoint = z.object({ id: z.string() });
export const testSent = z.object({ deliveryId: z.string() });

export const notificationDelivery = z.object({
  id: z.string(),
  endpointId: z.string(),
  url: z.string(),
  runId: z.string(),
  event: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: timestamp,
  deliveredAt: timestamp.nullable(),
});
export const deliveryList = z.object({ deliveries: z.array(notificationDelivery) });
