/**
 * runs.graph: the states and transitions of the workflow version a run ran, for the run
 * page's state graph (coloured there by the run's step statuses). Null when the version no
 * longer parses (a bundle saved before a language change, say).
 */
import { AppError } from "@switchyard/core/errors";
import { workflowGraph } from "@switchyard/core/workflow/graph";
import { parseWorkflow, bundleTemplates } from "@switchyard/core/workflow";
import { getRunToRerun, loadBundle, type Db } from "@switchyard/db";

export const readRunGraph = async (db: Db, teamId: string, runId: string) => {
  const run = await getRunToRerun(db, teamId, runId);
  if (!run) throw new AppError("NOT_FOUND", "run not found");
  const bundle = await loadBundle(db, teamId, run.workflowVersionId);
  const parsed = bundle
    ? parseWorkflow(bundle.entry, bundle.version.entryPath, undefined, {
        templates: bundleTemplates(bundle.files),
      }).workflow
    : undefined;
  return { graph: parsed ? workflowGraph(parsed) : null };
};
