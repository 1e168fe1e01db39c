/**
 * REST routes of triggers (a workflow's schedules and webhooks) and notifications (the
 * team's endpoints and their recent deliveries), the same operations as the dashboard's.
 */
import { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import {
  createEndpointBody,
  deletedEndpoint,
  deliveryList,
  endpointList,
  endpointWithSecret,
  notificationEndpoint,
  testSent,
  updateEndpointBody,
} from "../../contract/notifications.types";
import { createTriggerBody, deletedTrigger, rotatedSecret, trigger, triggerList, triggerWithSecret, updateTriggerBody } from "../../contract/triggers.types";
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, sendTestNotification, updateEndpoint } from "../../notifications/notification-operations";
import {
  createWorkflowTrigger,
  deleteWorkflowTrigger,
  listWorkflowTriggers,
  readTrigger,
  rotateTriggerSecret,
  setTriggerPaused,
  updateWorkflowTrigger,
} from "../../triggers/trigger-operations";
import { egressOr } from "../../egress";
import { answer, parse, routeFinder, sealingKeyring, type RestDeps, type Route } from "../route-kit";

const services = (deps: RestDeps) => {
  const redis = deps.redis;
  if (!redis) throw new AppError("SYSTEM.CONFIG", "this server has no Redis connection for schedules and notifications");
  return { db: deps.db, keyring: () => sealingKeyring(deps), redis, prefix: deps.prefix, egress: egressOr(deps.egress) };
};

const deliveriesQuery = z.object({ limit: z.string().regex(/^\d+$/).optional().describe("at most 200; 50 when unset") });

export const triggerRoutes: Route[] = [
  {
    method: "GET",
    path: "/workflows/{id}/triggers",
    summary: "A workflow's schedule and webhook triggers, with each schedule's next fire times, whom each runs as and what the caller may do",
    status: 200,
    description: "Triggers",
    response: triggerList,
    handler: async ({ deps, caller, params }) => answer(routeOf("GET", "/workflows/{id}/triggers"), await listWorkflowTriggers(deps.db, caller, params[0]!)),
  },
  {
    method: "POST",
    path: "/workflows/{id}/triggers",
    summary: "Members who may start runs in the workflow's lane: create a schedule (cron, time zone) or webhook trigger, which runs as them; a webhook's signing secret is in this answer only",
    body: createTriggerBody,
    status: 201,
    description: "Created",
    response: triggerWithSecret,
    handler: async ({ deps, caller, params, body }) =>
      answer(routeOf("POST", "/workflows/{id}/triggers"), await createWorkflowTrigger(services(deps), caller, { ...(await parse(createTriggerBody, body)), workflowId: params[0]! })),
  },
  {
    method: "GET",
    path: "/triggers/{id}",
    summary: "A trigger",
    status: 200,
    description: "The trigger",
    response: trigger,
    handler: async ({ deps, caller, params }) => answer(routeOf("GET", "/triggers/{id}"), await readTrigger(deps.db, caller, params[0]!)),
  },
  {
    method: "PUT",
    path: "/triggers/{id}",
    summary: "The member it runs as, or an admin: change a trigger's name, schedule, inputs or input map; an admin's change of someone else's trigger makes it run as the admin",
    body: updateTriggerBody,
    status: 200,
    description: "The trigger",
    response: trigger,
    handler: async ({ deps, caller, params, body }) =>
      answer(routeOf("PUT", "/triggers/{id}"), await updateWorkflowTrigger(services(deps), caller, params[0]!, await parse(updateTriggerBody, body))),
  },
  {
    method: "DELETE",
    path: "/triggers/{id}",
    summary: "The member it runs as, or an admin: delete a trigger (a schedule stops firing)",
    status: 200,
    description: "Deleted",
    response: deletedTrigger,
    handler: async ({ deps, caller, params }) => answer(routeOf("DELETE", "/triggers/{id}"), await deleteWorkflowTrigger(services(deps), caller, params[0]!)),
  },
  {
    method: "POST",
    path: "/triggers/{id}/pause",
    summary: "The member it runs as, or an admin: pause a trigger (a schedule stops firing, a webhook answers 409); whom it runs as stays",
    status: 200,
    description: "Paused",
    response: trigger,
    handler: async ({ deps, caller, params }) => answer(routeOf("POST", "/triggers/{id}/pause"), await setTriggerPaused(services(deps), caller, params[0]!, true)),
  },
  {
    method: "POST",
    path: "/triggers/{id}/resume",
    summary: "The member it runs as, or an admin: resume a paused trigger; whom it runs as stays",
    status: 200,
    description: "Resumed",
    response: trigger,
    handler: async ({ deps, caller, params }) => answer(routeOf("POST", "/triggers/{id}/resume"), await setTriggerPaused(services(deps), caller, params[0]!, false)),
  },
  {
    method: "POST",
    path: "/triggers/{id}/rotate-secret",
    summary: "The member it runs as, or an admin: give a webhook trigger a new signing secret (in this answer only), the old one stops working; an admin's rotation of someone else's trigger makes it run as the admin",
    status: 200,
    description: "The new secret",
    response: rotatedSecret,
    errors: { 409: "A schedule has no signing secret (CONFLICT)" },
    handler: async ({ deps, caller, params }) => answer(routeOf("POST", "/triggers/{id}/rotate-secret"), await rotateTriggerSecret(services(deps), caller, params[0]!)),
  },
  {
    method: "GET",
    path: "/notifications/endpoints",
    summary: "Admins: where the team is told that runs ended",
    status: 200,
    description: "Endpoints",
    response: endpointList,
    handler: async ({ deps, caller }) => answer(routeOf("GET", "/notifications/endpoints"), await listEndpoints(deps.db, caller)),
  },
  {
    method: "POST",
    path: "/notifications/endpoints",
    summary: "Admins: add an endpoint (https to a public address, or what the operator's egress allow-list names) for run.succeeded, run.failed, run.cancelled; its signing secret is in this answer only",
    body: createEndpointBody,
    status: 201,
    description: "Created",
    response: endpointWithSecret,
    handler: async ({ deps, caller, body }) => answer(routeOf("POST", "/notifications/endpoints"), await createEndpoint(services(deps), caller, await parse(createEndpointBody, body))),
  },
  {
    method: "PUT",
    path: "/notifications/endpoints/{id}",
    summary: "Admins: change an endpoint's URL, events or whether it is enabled",
    body: updateEndpointBody,
    status: 200,
    description: "The endpoint",
    response: notificationEndpoint,
    handler: async ({ deps, caller, params, body }) =>
      answer(routeOf("PUT", "/notifications/endpoints/{id}"), await updateEndpoint({ db: deps.db, egress: egressOr(deps.egress) }, caller, params[0]!, await parse(updateEndpointBody, body))),
  },
  {
    method: "DELETE",
    path: "/notifications/endpoints/{id}",
    summary: "Admins: remove an endpoint",
    status: 200,
    description: "Removed",
    response: deletedEndpoint,
    handler: async ({ deps, caller, params }) => answer(routeOf("DELETE", "/notifications/endpoints/{id}"), await deleteEndpoint(deps.db, caller, params[0]!)),
  },
  {
    method: "POST",
    path: "/notifications/endpoints/{id}/test",
    summary: "Admins: send a test notification to an endpoint",
    status: 202,
    description: "Enqueued",
    response: testSent,
    handler: async ({ deps, caller, params }) => answer(routeOf("POST", "/notifications/endpoints/{id}/test"), await sendTestNotification(services(deps), caller, params[0]!)),
  },
  {
    method: "GET",
    path: "/notifications/deliveries",
    summary: "Admins: the team's latest notification deliveries, newest first",
    query: deliveriesQuery,
    status: 200,
    description: "Deliveries",
    response: deliveryList,
    handler: async ({ deps, caller, query }) =>
      answer(routeOf("GET", "/notifications/deliveries"), await listDeliveries(deps.db, caller, query.get("limit") ? Number(query.get("limit")) : undefined)),
  },
];

const routeOf = routeFinder(triggerRoutes);
