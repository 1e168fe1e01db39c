import { listWorkers, type WorkerInfo } from "@switchyard/core/runs";
import { authedProcedure, router } from "../init";

export const systemRouter = router({
  /** Workers whose heartbeat is fresh, with the sandbox level each runs steps at. */
  workers: authedProcedure.query(({ ctx }): Promise<WorkerInfo[]> => listWorkers(ctx.redis(), ctx.queuePrefix)),
});
