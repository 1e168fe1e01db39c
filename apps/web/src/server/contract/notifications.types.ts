/**
 * Request and response shapes of notification endpoints and deliveries, shared by the tRPC
 * procedures, the REST routes and the generated OpenAPI document.
 */
import { z } from "zod";
import { NOTIFICATION_EVENTS } from "@switchyard/core/triggers";
import { operation } from "./operation";
import { timestamp } from "./timestamp";

const events = z
  .array(z.enum(NOTIFICATION_EVENTS))
  .min(1, "choose at least one event")
  .max(NOTIFICATION_EVENTS.length);

export const createEndpointBody = z.object({
  url: z.string().min(1).max(2048),
  events,
  enabled: z.boolean().optional(),
});
export const updateEndpointBody = z.object({
  url: z.string().min(1).max(2048).optional(),
  events: events.optional(),
  enabled: z.boolean().optional(),
});
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

const deliveriesQuery = z.object({
  limit: z.string().regex(/^\d+$/).optional().describe("at most 200; 50 when unset"),
});

export const notificationOperations = {
  endpoints: operation({
    kind: "query",
    access: "team",
    output: endpointList,
    rest: {
      method: "GET",
      path: "/notifications/endpoints",
      summary: "Admins: where the team is told that runs ended",
      status: 200,
      description: "Endpoints",
    },
  }),
  /** The signing secret is in this answer only. */
  create: operation({
    kind: "mutation",
    access: "team",
    input: createEndpointBody,
    output: endpointWithSecret,
    rest: {
      method: "POST",
      path: "/notifications/endpoints",
      body: createEndpointBody,
      summary:
        "Admins: add an endpoint (https to a public address, or what the operator's egress allow-list names) for run.succeeded, run.failed, run.cancelled, wait.opened (a run waits for a person's answer) and budget.warning (a step's spend passed 80% of a budget limit); its signing secret is in this answer only",
      status: 201,
      description: "Created",
    },
  }),
  update: operation({
    kind: "mutation",
    access: "team",
    input: endpointIdInput.extend(updateEndpointBody.shape),
    output: notificationEndpoint,
    rest: {
      method: "PUT",
      path: "/notifications/endpoints/{id}",
      body: updateEndpointBody,
      summary: "Admins: change an endpoint's URL, events or whether it is enabled",
      status: 200,
      description: "The endpoint",
    },
  }),
  delete: operation({
    kind: "mutation",
    access: "team",
    input: endpointIdInput,
    output: deletedEndpoint,
    rest: {
      method: "DELETE",
      path: "/notifications/endpoints/{id}",
      summary: "Admins: remove an endpoint",
      status: 200,
      description: "Removed",
    },
  }),
  sendTest: operation({
    kind: "mutation",
    access: "team",
    input: endpointIdInput,
    output: testSent,
    rest: {
      method: "POST",
      path: "/notifications/endpoints/{id}/test",
      summary: "Admins: send a test notification to an endpoint",
      status: 202,
      description: "Enqueued",
    },
  }),
  deliveries: operation({
    kind: "query",
    access: "team",
    input: z.object({ limit: z.number().int().min(1).max(200).optional() }).optional(),
    output: deliveryList,
    rest: {
      method: "GET",
      path: "/notifications/deliveries",
      query: deliveriesQuery,
      toInput: ({ limit }) => ({ limit: limit ? Number(limit) : undefined }),
      summary: "Admins: the team's latest notification deliveries, newest first",
      status: 200,
      description: "Deliveries",
    },
  }),
};
