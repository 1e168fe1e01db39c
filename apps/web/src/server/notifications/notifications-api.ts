/** What runs each notification operation (contract/notifications.types.ts): the team's endpoints and their recent deliveries, on both surfaces. */
import { notificationOperations } from "../contract/notifications.types";
import { implement, type Services } from "../api/implement";
import { egressOr } from "../egress";
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  sendTestNotification,
  updateEndpoint,
} from "./notification-operations";

const withEgress = (services: Services) => ({ ...services, egress: egressOr(services.egress) });

export const notificationsApi = implement(notificationOperations, {
  endpoints: ({ db, caller }) => listEndpoints(db, caller),
  create: (ctx, input) => createEndpoint(withEgress(ctx), ctx.caller, input),
  update: (ctx, { id, ...fields }) => updateEndpoint(withEgress(ctx), ctx.caller, id, fields),
  delete: ({ db, caller }, input) => deleteEndpoint(db, caller, input.id),
  sendTest: (ctx, input) => sendTestNotification(withEgress(ctx), ctx.caller, input.id),
  deliveries: ({ db, caller }, input) => listDeliveries(db, caller, input?.limit),
});
