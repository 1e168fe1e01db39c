import { listWorkers } from "@switchyard/core/runs";
import { workerList } from "../../contract/system.types";
import { router, teamProcedure } from "../init";

export const systemRouter = router({
  /** Workers whose heartbeat is fresh, with the sandbox level each runs steps at. */
  workers: teamProcedure.output(workerList).query(({ ctx }) => listWorkers(ctx.redis(), ctx.queuePrefix)),
});
