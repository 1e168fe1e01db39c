import { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { getRun, listRunEventsAfter, listRunSpans, listRunStarters, listRunToolCalls, runStatusOf } from "@switchyard/db";
import { cancelRun } from "../../runs/cancel-run";
import { readRunList } from "../../runs/list-runs";
import { readRunGraph } from "../../runs/run-graph";
import { rerunRun } from "../../runs/rerun-run";
import { startRun } from "../../runs/start-run";
import { readStepActivity } from "../../runs/step-activity";
import {
  cancelRunResponse,
  runDetailResponse,
  runEventsInput,
  runEventsResponse,
  runListQuery,
  runListResponse,
  runSpansQuery,
  runSpansResponse,
  runStartersResponse,
  runToolCallsQuery,
  runToolCallsResponse,
  startRunInput,
  startRunResponse,
  stepActivityInput,
  stepActivityResponse,
} from "../../contract/runs.types";
import { workflowGraph } from "../../contract/workflows.types";
import { router, teamProcedure } from "../init";

const runId = z.object({ id: z.string().min(1) });

export const runsRouter = router({
  start: teamProcedure
    .input(startRunInput)
    .output(startRunResponse)
    .mutation(async ({ ctx, input }) => {
      const run = await startRun(
        { db: ctx.db, queue: ctx.queue() },
        {
          teamId: ctx.teamId,
          userId: ctx.userId,
          role: ctx.role,
          workflowId: input.workflowId,
          versionId: input.versionId,
          inputs: input.inputs,
          idempotencyKey: input.idempotencyKey,
          trigger: "dashboard",
        },
      );
      return { id: run.id, status: run.status };
    }),
  rerun: teamProcedure
    .input(runId)
    .output(startRunResponse)
    .mutation(async ({ ctx, input }) => {
      const run = await rerunRun({ db: ctx.db, queue: ctx.queue() }, { teamId: ctx.teamId, userId: ctx.userId, role: ctx.role, runId: input.id, trigger: "dashboard" });
      return { id: run.id, status: run.status };
    }),
  cancel: teamProcedure.input(runId).output(cancelRunResponse).mutation(({ ctx, input }) =>
    cancelRun({ db: ctx.db, queue: ctx.queue(), prefix: ctx.queuePrefix, publish: ctx.publish }, { teamId: ctx.teamId, role: ctx.role, runId: input.id }),
  ),
  get: teamProcedure
    .input(runId)
    .output(runDetailResponse)
    .query(async ({ ctx, input }) => {
      const run = await getRun(ctx.db, ctx.teamId, input.id);
      if (!run) throw new AppError("NOT_FOUND", "run not found");
      return run;
    }),
  list: teamProcedure
    .input(runListQuery.optional())
    .output(runListResponse)
    .query(({ ctx, input }) => readRunList(ctx.db, ctx.teamId, input ?? {})),
  graph: teamProcedure
    .input(runId)
    .output(z.object({ graph: workflowGraph.nullable() }))
    .query(({ ctx, input }) => readRunGraph(ctx.db, ctx.teamId, input.id)),
  starters: teamProcedure.output(runStartersResponse).query(({ ctx }) => listRunStarters(ctx.db, ctx.teamId)),
  spans: teamProcedure
    .input(runId.extend(runSpansQuery.shape))
    .output(runSpansResponse)
    .query(async ({ ctx, input }) => {
      if ((await runStatusOf(ctx.db, ctx.teamId, input.id)) === null) throw new AppError("NOT_FOUND", "run not found");
      return listRunSpans(ctx.db, ctx.teamId, input.id, input.limit);
    }),
  toolCalls: teamProcedure
    .input(runId.extend(runToolCallsQuery.shape))
    .output(runToolCallsResponse)
    .query(async ({ ctx, input }) => {
      if ((await runStatusOf(ctx.db, ctx.teamId, input.id)) === null) throw new AppError("NOT_FOUND", "run not found");
      return listRunToolCalls(ctx.db, ctx.teamId, input.id, { after: input.after, take: input.limit, stepRunId: input.stepRunId });
    }),
  events: teamProcedure
    .input(runEventsInput)
    .output(runEventsResponse)
    .query(async ({ ctx, input }) => {
      if ((await runStatusOf(ctx.db, ctx.teamId, input.id)) === null) throw new AppError("NOT_FOUND", "run not found");
      const rows = await listRunEventsAfter(ctx.db, ctx.teamId, input.id, input.after, input.limit);
      return { events: rows.map((e) => ({ seq: e.seq, type: e.type, payload: e.payload, at: e.createdAt })), lastSeq: rows[rows.length - 1]?.seq ?? input.after };
    }),
  stepActivity: teamProcedure
    .input(stepActivityInput)
    .output(stepActivityResponse)
    .query(({ ctx, input }) => readStepActivity(ctx.db, { teamId: ctx.teamId, ...input })),
});
