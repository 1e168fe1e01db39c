import { listWorkers, type WorkerInfo } from "@switchyard/core/runs";
import { router, teamProcedure } from "../init";

export const systemRouter = router({
  /** Workers whose heartbeat is fresh, with the sandbox level each runs steps at. */
  workers: teamProcedure.query(({ ctx }): Promise<WorkerInfo[]> => listWorkers(ctx.redis(), ctx.queuePrefix)),
});
