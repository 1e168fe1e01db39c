/**
 * The app's tRPC router: the areas of the operation table (api/api-table.ts), and the
 * routers still written by hand.
 */
import { areaRouters } from "../api/api-table";
import { createCallerFactory, router } from "./init";
import { notificationsRouter } from "./routers/notifications";
import { triggersRouter } from "./routers/triggers";

export const appRouter = router({
  ...areaRouters,
  triggers: triggersRouter,
  notifications: notificationsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
