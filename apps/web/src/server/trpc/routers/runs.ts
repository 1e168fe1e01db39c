import { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { getRun, listRuns } from "@switchyard/db";
import { cancelRun } from "../../runs/cancel-run";
import { startRun } from "../../runs/start-run";
import { readStepActivity } from "../../runs/step-activity";
import {
  cancelRunResponse,
  runDetailResponse,
  runList,
  startRunInput,
  startRunResponse,
  stepActivityInput,
  stepActivityResponse,
} from "../../contract/runs.types";
import { router, teamProcedure } from "../init";

export const runsRouter = router({
  start: teamProcedure
    .input(startRunInput)
    .output(startRunResponse)
    .mutation(async ({ ctx, input }) => {
      const run = await startRun(
        { db: ctx.db, queue: ctx.queue() },
        { teamId: ctx.teamId, userId: ctx.userId, role: ctx.role, workflowId: input.workflowId, inputs: input.inputs, trigger: "dashboard" },
      );
      return { id: run.id, status: run.status };
    }),
  cancel: teamProcedure.input(z.object({ id: z.string().min(1) })).output(cancelRunResponse).mutation(({ ctx, input }) =>
    cancelRun({ db: ctx.db, queue: ctx.queue(), prefix: ctx.queuePrefix, publish: ctx.publish }, { teamId: ctx.teamId, role: ctx.role, runId: input.id }),
  ),
  get: teamProcedure
    .input(z.object({ id: z.string().min(1) }))
    .output(runDetailResponse)
    .query(async ({ ctx, input }) => {
      const run = await getRun(ctx.db, ctx.teamId, input.id);
      if (!run) throw new AppError("NOT_FOUND", "run not found");
      return run;
    }),
  list: teamProcedure
    .input(z.object({ workflowId: z.string().optional() }).optional())
    .output(runList)
    .query(({ ctx, input }) => listRuns(ctx.db, ctx.teamId, { workflowId: input?.workflowId })),
  stepActivity: teamProcedure
    .input(stepActivityInput)
    .output(stepActivityResponse)
    .query(({ ctx, input }) => readStepActivity(ctx.db, { teamId: ctx.teamId, ...input })),
});
