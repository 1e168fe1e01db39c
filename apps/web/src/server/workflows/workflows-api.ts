/** What runs each workflow operation (contract/workflows.types.ts), on both surfaces. */
import { workflowGraph } from "@switchyard/core/workflow/graph";
import { listWorkflows } from "@switchyard/db";
import { workflowOperations } from "../contract/workflows.types";
import { implement } from "../api/implement";
import { saveWorkflow } from "./save-workflow";
import { toDiagnostic, validateBundle } from "./validate-bundle";
import {
  archiveTeamWorkflow,
  diffVersions,
  listVersions,
  readVersion,
  readWorkflow,
} from "./workflow-operations";

export const workflowsApi = implement(workflowOperations, {
  list: async ({ db, caller }) =>
    (await listWorkflows(db, caller.teamId)).map((w) => ({
      id: w.id,
      name: w.name,
      description: w.description,
      lane: w.lane,
      pack: w.pack,
      version: w.currentVersion?.number ?? null,
      lastRun: w.runs[0] ?? null,
    })),
  get: ({ db, caller }, input) => readWorkflow(db, caller, input.id),
  versions: ({ db, caller }, input) => listVersions(db, caller, input.id),
  version: ({ db, caller }, input) => readVersion(db, caller, input),
  diff: ({ db, caller }, input) => diffVersions(db, caller, input),
  validate: async ({ db, caller }, input) => {
    const result = await validateBundle(db, caller.teamId, input);
    return {
      ok: result.workflow !== undefined,
      name: result.workflow?.name ?? null,
      errors: result.errors.map(toDiagnostic),
      warnings: result.warnings.map(toDiagnostic),
      graph: result.workflow ? workflowGraph(result.workflow) : null,
      inputs: result.workflow?.inputs ?? [],
    };
  },
  save: async ({ db, caller }, input) => {
    const { version, warnings } = await saveWorkflow(db, {
      ...input,
      teamId: caller.teamId,
      userId: caller.userId,
      role: caller.role,
    });
    return {
      workflowId: version.workflowId,
      version: version.number,
      bundleHash: version.bundleHash,
      warnings,
    };
  },
  archive: ({ db, caller }, input) => archiveTeamWorkflow(db, caller, input.id),
});
