/** What runs each trigger operation (contract/triggers.types.ts): a workflow's schedules and webhooks, on both surfaces. */
import { triggerOperations } from "../contract/triggers.types";
import { implement } from "../api/implement";
import {
  createWorkflowTrigger,
  deleteWorkflowTrigger,
  listWorkflowTriggers,
  readTrigger,
  rotateTriggerSecret,
  setTriggerPaused,
  updateWorkflowTrigger,
} from "./trigger-operations";

export const triggersApi = implement(triggerOperations, {
  list: ({ db, caller }, input) => listWorkflowTriggers(db, caller, input.workflowId),
  get: ({ db, caller }, input) => readTrigger(db, caller, input.id),
  create: (services, input) => createWorkflowTrigger(services, services.caller, input),
  update: (services, { id, ...fields }) =>
    updateWorkflowTrigger(services, services.caller, id, fields),
  pause: (services, input) => setTriggerPaused(services, services.caller, input.id, true),
  resume: (services, input) => setTriggerPaused(services, services.caller, input.id, false),
  rotateSecret: (services, input) => rotateTriggerSecret(services, services.caller, input.id),
  delete: (services, input) => deleteWorkflowTrigger(services, services.caller, input.id),
});
