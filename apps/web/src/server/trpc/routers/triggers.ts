import {
  createTriggerInput,
  deletedTrigger,
  rotatedSecret,
  trigger,
  triggerIdInput,
  triggerList,
  triggerWithSecret,
  updateTriggerBody,
  workflowIdInput,
} from "../../contract/triggers.types";
import {
  createWorkflowTrigger,
  deleteWorkflowTrigger,
  listWorkflowTriggers,
  readTrigger,
  rotateTriggerSecret,
  setTriggerPaused,
  updateWorkflowTrigger,
  type TriggerServices,
} from "../../triggers/trigger-operations";
import { router, teamProcedure, type TrpcContext } from "../init";

const services = (ctx: TrpcContext): TriggerServices => ({ db: ctx.db, keyring: ctx.keyring, redis: ctx.redis, prefix: ctx.queuePrefix });

export const triggersRouter = router({
  /** A workflow's schedules and webhooks, and whether the caller may change them. */
  list: teamProcedure.input(workflowIdInput).output(triggerList).query(({ ctx, input }) => listWorkflowTriggers(ctx.db, ctx, input.workflowId)),
  get: teamProcedure.input(triggerIdInput).output(trigger).query(({ ctx, input }) => readTrigger(ctx.db, ctx, input.id)),
  /** A webhook's signing secret is in this answer only. */
  create: teamProcedure.input(createTriggerInput).output(triggerWithSecret).mutation(({ ctx, input }) => createWorkflowTrigger(services(ctx), ctx, input)),
  update: teamProcedure
    .input(triggerIdInput.extend(updateTriggerBody.shape))
    .output(trigger)
    .mutation(({ ctx, input: { id, ...fields } }) => updateWorkflowTrigger(services(ctx), ctx, id, fields)),
  pause: teamProcedure.input(triggerIdInput).output(trigger).mutation(({ ctx, input }) => setTriggerPaused(services(ctx), ctx, input.id, true)),
  resume: teamProcedure.input(triggerIdInput).output(trigger).mutation(({ ctx, input }) => setTriggerPaused(services(ctx), ctx, input.id, false)),
  rotateSecret: teamProcedure.input(triggerIdInput).output(rotatedSecret).mutation(({ ctx, input }) => rotateTriggerSecret(services(ctx), ctx, input.id)),
  delete: teamProcedure.input(triggerIdInput).output(deletedTrigger).mutation(({ ctx, input }) => deleteWorkflowTrigger(services(ctx), ctx, input.id)),
});
