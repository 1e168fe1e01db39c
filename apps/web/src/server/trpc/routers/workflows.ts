import { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { getWorkflow, listWorkflows, loadBundle } from "@switchyard/db";
import { saveWorkflow } from "../../workflows/save-workflow";
import { toDiagnostic, validateBundle } from "../../workflows/validate-bundle";
import {
  bundleInput,
  saveWorkflowResponse,
  validateBundleResponse,
  workflowBundleResponse,
  workflowList,
} from "../../contract/workflows.types";
import { router, teamProcedure } from "../init";

export const workflowsRouter = router({
  list: teamProcedure.output(workflowList).query(async ({ ctx }) => {
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

  /** The current version's bundle, for the editor. */
  get: teamProcedure.input(z.object({ id: z.string().min(1) })).output(workflowBundleResponse).query(async ({ ctx, input }) => {
    const workflow = await getWorkflow(ctx.db, ctx.teamId, input.id);
    if (!workflow?.currentVersion) throw new AppError("NOT_FOUND", "workflow not found");
    const bundle = await loadBundle(ctx.db, ctx.teamId, workflow.currentVersion.id);
    if (!bundle) throw new AppError("NOT_FOUND", "workflow version not found");
    return {
      id: workflow.id,
      name: workflow.name,
      lane: workflow.lane,
      version: bundle.version.number,
      bundleHash: bundle.version.bundleHash,
      entry: bundle.version.entryPath,
      files: bundle.files,
    };
  }),

  /** Every problem with a bundle, in the team's context, without saving anything. */
  validate: teamProcedure.input(bundleInput).output(validateBundleResponse).mutation(async ({ ctx, input }) => {
    const result = await validateBundle(ctx.db, ctx.teamId, input);
    return {
      ok: result.workflow !== undefined,
      name: result.workflow?.name ?? null,
      errors: result.errors.map(toDiagnostic),
      warnings: result.warnings.map(toDiagnostic),
    };
  }),

  save: teamProcedure.input(bundleInput).output(saveWorkflowResponse).mutation(async ({ ctx, input }) => {
    const { version, warnings } = await saveWorkflow(ctx.db, { ...input, teamId: ctx.teamId, userId: ctx.userId, role: ctx.role });
    return { workflowId: version.workflowId, version: version.number, bundleHash: version.bundleHash, warnings };
  }),
});
