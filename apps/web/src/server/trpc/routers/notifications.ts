import { z } from "zod";
import {
  createEndpointBody,
  deletedEndpoint,
  deliveryList,
  endpointIdInput,
  endpointList,
  endpointWithSecret,
  notificationEndpoint,
  testSent,
  updateEndpointBody,
} from "../../contract/notifications.types";
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  sendTestNotification,
  updateEndpoint,
  type NotificationServices,
} from "../../notifications/notification-operations";
import { egressOr } from "../../egress";
import { router, teamProcedure, type TrpcContext } from "../init";

const services = (ctx: TrpcContext): NotificationServices => ({ db: ctx.db, keyring: ctx.keyring, redis: ctx.redis, prefix: ctx.queuePrefix, egress: egressOr(ctx.egress) });

export const notificationsRouter = router({
  endpoints: teamProcedure.output(endpointList).query(({ ctx }) => listEndpoints(ctx.db, ctx)),
  /** The signing secret is in this answer only. */
  create: teamProcedure.input(createEndpointBody).output(endpointWithSecret).mutation(({ ctx, input }) => createEndpoint(services(ctx), ctx, input)),
  update: teamProcedure
    .input(endpointIdInput.extend(updateEndpointBody.shape))
    .output(notificationEndpoint)
    .mutation(({ ctx, input: { id, ...fields } }) => updateEndpoint(services(ctx), ctx, id, fields)),
  delete: teamProcedure.input(endpointIdInput).output(deletedEndpoint).mutation(({ ctx, input }) => deleteEndpoint(ctx.db, ctx, input.id)),
  sendTest: teamProcedure.input(endpointIdInput).output(testSent).mutation(({ ctx, input }) => sendTestNotification(services(ctx), ctx, input.id)),
  deliveries: teamProcedure
    .input(z.object({ limit: z.number().int().min(1).max(200).optional() }).optional())
    .output(deliveryList)
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx, input?.limit)),
});
