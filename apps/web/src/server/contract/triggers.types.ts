/**
 * Request and response shapes of trigger operations (schedules and inbound webhooks),
 * shared by the tRPC procedures, the REST routes and the generated OpenAPI document.
 */
import { z } from "zod";
import { operation } from "./operation";
import { timestamp } from "./timestamp";

const inputs = z
  .record(z.string(), z.unknown())
  .describe("input values every run gets (webhook: the defaults under the mapped ones)");
const inputMap = z
  .record(z.string(), z.string().max(512))
  .describe("webhook: input name -> RFC 6901 JSON pointer into the request body");

export const createTriggerBody = z.object({
  kind: z.enum(["schedule", "webhook"]),
  name: z.string().max(128).optional(),
  cron: z.string().max(128).optional().describe("schedule: 5 fields, or 6 with seconds first"),
  timezone: z.string().max(64).optional().describe("schedule: an IANA time zone, UTC when unset"),
  inputs: inputs.optional(),
  inputMap: inputMap.optional(),
  paused: z.boolean().optional(),
});
export const createTriggerInput = createTriggerBody.extend({ workflowId: z.string().min(1) });

export const updateTriggerBody = z.object({
  name: z.string().max(128).optional(),
  cron: z.string().max(128).optional(),
  timezone: z.string().max(64).optional(),
  inputs: inputs.optional(),
  inputMap: inputMap.optional(),
});
export const triggerIdInput = z.object({ id: z.string().min(1) });
export const workflowIdInput = z.object({ workflowId: z.string().min(1) });

export const trigger = z.object({
  id: z.string(),
  workflowId: z.string(),
  kind: z.enum(["schedule", "webhook"]),
  name: z.string(),
  cron: z.string().nullable(),
  timezone: z.string().nullable(),
  inputs: z.record(z.string(), z.unknown()),
  inputMap: z.record(z.string(), z.string()),
  paused: z.boolean(),
  lastFiredAt: timestamp.nullable(),
  lastRunId: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: timestamp,
  nextFires: z.array(timestamp).describe("schedule: the next three fire times"),
  webhookPath: z
    .string()
    .nullable()
    .describe("webhook: POST here (under the dashboard's address) with X-Switchyard-Signature"),
  runsAs: z
    .object({ id: z.string(), name: z.string() })
    .nullable()
    .describe(
      "the member its runs start as, with their role and own connector accounts: its creator, or the admin who last changed it; null when that user is gone",
    ),
  canManage: z
    .boolean()
    .describe(
      "whether the caller may change, pause, resume, rotate or delete it: the member it runs as, or an admin",
    ),
});
export const triggerList = z.object({
  canCreate: z
    .boolean()
    .describe(
      "whether the caller may create triggers of this workflow (a member who may start runs in its lane)",
    ),
  triggers: z.array(trigger),
});
export const triggerWithSecret = z.object({
  trigger,
  secret: z.string().nullable().describe("webhook: the signing secret, shown only in this answer"),
});
export const rotatedSecret = z.object({
  id: z.string(),
  secret: z.string().describe("the new signing secret, shown only in this answer"),
});
export const deletedTrigger = z.object({ id: z.string() });
export const webhookAccepted = z.object({ runId: z.string() });

export const triggerOperations = {
  /** A workflow's schedules and webhooks, and whether the caller may change them. */
  list: operation({
    kind: "query",
    access: "team",
    input: workflowIdInput,
    output: triggerList,
    rest: {
      method: "GET",
      path: "/workflows/{id}/triggers",
      params: { id: "workflowId" },
      summary:
        "A workflow's schedule and webhook triggers, with each schedule's next fire times, whom each runs as and what the caller may do",
      status: 200,
      description: "Triggers",
    },
  }),
  get: operation({
    kind: "query",
    access: "team",
    input: triggerIdInput,
    output: trigger,
    rest: {
      method: "GET",
      path: "/triggers/{id}",
      summary: "A trigger",
      status: 200,
      description: "The trigger",
    },
  }),
  /** A webhook's signing secret is in this answer only. */
  create: operation({
    kind: "mutation",
    access: "team",
    input: createTriggerInput,
    output: triggerWithSecret,
    rest: {
      method: "POST",
      path: "/workflows/{id}/triggers",
      params: { id: "workflowId" },
      body: createTriggerBody,
      summary:
        "Members who may start runs in the workflow's lane: create a schedule (cron, time zone) or webhook trigger, which runs as them; a webhook's signing secret is in this answer only",
      status: 201,
      description: "Created",
    },
  }),
  update: operation({
    kind: "mutation",
    access: "team",
    input: triggerIdInput.extend(updateTriggerBody.shape),
    output: trigger,
    rest: {
      method: "PUT",
      path: "/triggers/{id}",
      body: updateTriggerBody,
      summary:
        "The member it runs as, or an admin: change a trigger's name, schedule, inputs or input map; an admin's change of someone else's trigger makes it run as the admin",
      status: 200,
      description: "The trigger",
    },
  }),
  pause: operation({
    kind: "mutation",
    access: "team",
    input: triggerIdInput,
    output: trigger,
    rest: {
      method: "POST",
      path: "/triggers/{id}/pause",
      summary:
        "The member it runs as, or an admin: pause a trigger (a schedule stops firing, a webhook answers 409); whom it runs as stays",
      status: 200,
      description: "Paused",
    },
  }),
  resume: operation({
    kind: "mutation",
    access: "team",
    input: triggerIdInput,
    output: trigger,
    rest: {
      method: "POST",
      path: "/triggers/{id}/resume",
      summary: "The member it runs as, or an admin: resume a paused trigger; whom it runs as stays",
      status: 200,
      description: "Resumed",
    },
  }),
  rotateSecret: operation({
    kind: "mutation",
    access: "team",
    input: triggerIdInput,
    output: rotatedSecret,
    rest: {
      method: "POST",
      path: "/triggers/{id}/rotate-secret",
      summary:
        "The member it runs as, or an admin: give a webhook trigger a new signing secret (in this answer only), the old one stops working; an admin's rotation of someone else's trigger makes it run as the admin",
      status: 200,
      description: "The new secret",
      errors: { 409: "A schedule has no signing secret (CONFLICT)" },
    },
  }),
  delete: operation({
    kind: "mutation",
    access: "team",
    input: triggerIdInput,
    output: deletedTrigger,
    rest: {
      method: "DELETE",
      path: "/triggers/{id}",
      summary: "The member it runs as, or an admin: delete a trigger (a schedule stops firing)",
      status: 200,
      description: "Deleted",
    },
  }),
};
