/**
 * The app's tRPC router.
 */
import { createCallerFactory, router } from "./init";
import { runsRouter } from "./routers/runs";
import { workflowsRouter } from "./routers/workflows";

export const appRouter = router({
  workflows: workflowsRouter,
  runs: runsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
