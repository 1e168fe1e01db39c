import { listWorkflows } from "@switchyard/db";
import { router, teamProcedure } from "../init";

export const workflowsRouter = router({
  list: teamProcedure.query(async ({ ctx }) => {
    const rows = await listWorkflows(ctx.db, ctx.teamId);
    return rows.map((w) => ({
      id: w.id,
      name: w.name,
      description: w.description,
      lane: w.lane,
      version: w.currentVersion?.number ?? null,
      lastRun: w.runs[0] ?? null,
    }));
  }),
});
