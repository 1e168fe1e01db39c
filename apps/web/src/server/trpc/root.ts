/**
 * The app's tRPC router: one router per area of the operation table (api/api-table.ts),
 * each derived from the area's declared operations (contract/<area>.types.ts).
 */
import { areaRouters } from "../api/api-table";
import { createCallerFactory, router } from "./init";

export const appRouter = router(areaRouters);

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
