import { listWorkflows } from "@switchyard/db";
import { workflowGraph } from "@switchyard/core/workflow/graph";
import { saveWorkflow } from "../../workflows/save-workflow";
import { toDiagnostic, validateBundle } from "../../workflows/validate-bundle";
import { archiveTeamWorkflow, diffVersions, listVersions, readVersion, readWorkflow } from "../../workflows/workflow-operations";
import {
  archiveWorkflowResponse,
  bundleInput,
  diffVersionsInput,
  diffVersionsResponse,
  listVersionsResponse,
  saveWorkflowResponse,
  validateBundleResponse,
  workflowBundleResponse,
  workflowIdInput,
  workflowList,
  workflowVersionInput,
  workflowVersionResponse,
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

  /** The current version's bundle with its graph and input declaration, for the workflow page. */
  get: teamProcedure.input(workflowIdInput).output(workflowBundleResponse).query(({ ctx, input }) => readWorkflow(ctx.db, ctx, input.id)),

  /** Every saved version, newest first, with who saved it. */
  versions: teamProcedure.input(workflowIdInput).output(listVersionsResponse).query(({ ctx, input }) => listVersions(ctx.db, ctx, input.id)),

  /** One saved version's files, graph and inputs. */
  version: teamProcedure.input(workflowVersionInput).output(workflowVersionResponse).query(({ ctx, input }) => readVersion(ctx.db, ctx, input)),

  /** A unified diff of each file between two versions. */
  diff: teamProcedure.input(diffVersionsInput).output(diffVersionsResponse).query(({ ctx, input }) => diffVersions(ctx.db, ctx, input)),

  /** Every problem with a bundle, in the team's context, without saving anything. */
  validate: teamProcedure.input(bundleInput).output(validateBundleResponse).mutation(async ({ ctx, input }) => {
    const result = await validateBundle(ctx.db, ctx.teamId, input);
    return {
      ok: result.workflow !== undefined,
      name: result.workflow?.name ?? null,
      errors: result.errors.map(toDiagnostic),
      warnings: result.warnings.map(toDiagnostic),
      graph: result.workflow ? workflowGraph(result.workflow) : null,
      inputs: result.workflow?.inputs ?? [],
    };
  }),

  save: teamProcedure.input(bundleInput).output(saveWorkflowResponse).mutation(async ({ ctx, input }) => {
    const { version, warnings } = await saveWorkflow(ctx.db, { ...input, teamId: ctx.teamId, userId: ctx.userId, role: ctx.role });
    return { workflowId: version.workflowId, version: version.number, bundleHash: version.bundleHash, warnings };
  }),

  /** Archive: it leaves the list and can no longer be started; its versions and runs stay. */
  archive: teamProcedure.input(workflowIdInput).output(archiveWorkflowResponse).mutation(({ ctx, input }) => archiveTeamWorkflow(ctx.db, ctx, input.id)),
});
