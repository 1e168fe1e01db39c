/**
 * The workflow routes: list, save and validate a bundle, read the current version, list the
 * saved versions, read one, diff two, and archive. Same contracts as the dashboard's
 * procedures (workflows.types.ts).
 */
import { z } from "zod";
import { workflowGraph } from "@switchyard/core/workflow/graph";
import { listWorkflows } from "@switchyard/db";
import { BODY_LIMITS } from "../../http/body-limit";
import { saveWorkflow } from "../../workflows/save-workflow";
import { toDiagnostic, validateBundle } from "../../workflows/validate-bundle";
import {
  archiveWorkflowResponse,
  bundleInput,
  listWorkflowsResponse,
  saveWorkflowResponse,
  validateBundleResponse,
  diffVersionsResponse,
  listVersionsResponse,
  workflowBundleResponse,
  workflowVersionResponse,
} from "../../contract/workflows.types";
import { archiveTeamWorkflow, diffVersions, listVersions, readVersion, readWorkflow } from "../../workflows/workflow-operations";
import { answer, parse, routeFinder, type Route } from "../route-kit";

const versionNumber = z.coerce.number().int().min(1);
const diffQuery = z.object({
  from: versionNumber.optional().describe("the older version's number; the one before `to` when unset"),
  to: versionNumber.optional().describe("the newer version's number; the current version when unset"),
});

const numberAt = async (raw: string | undefined) => (await parse(z.object({ number: versionNumber }), () => Promise.resolve({ number: raw }))).number;

export const workflowRoutes: Route[] = [
  {
    method: "GET",
    path: "/workflows",
    summary: "List workflows",
    status: 200,
    description: "Workflows",
    response: listWorkflowsResponse,
    handler: async ({ deps, caller }) =>
      answer(routeOf("GET", "/workflows"), {
        workflows: (await listWorkflows(deps.db, caller.teamId)).map((w) => ({
          id: w.id,
          name: w.name,
          description: w.description,
          lane: w.lane,
          version: w.currentVersion?.number ?? null,
        })),
      }),
  },
  {
    method: "POST",
    path: "/workflows",
    summary: "Save a workflow bundle as a new version (validated whole; nothing is stored on error)",
    body: bundleInput,
    status: 201,
    description: "Saved",
    response: saveWorkflowResponse,
    errors: { 422: "Invalid workflow; details.diagnostics lists every problem" },
    bodyLimit: BODY_LIMITS.bundle,
    handler: async ({ deps, caller, body }) => {
      const input = await parse(bundleInput, body);
      const { version, warnings } = await saveWorkflow(deps.db, { ...input, teamId: caller.teamId, userId: caller.userId, role: caller.role });
      return answer(routeOf("POST", "/workflows"), { workflowId: version.workflowId, version: version.number, bundleHash: version.bundleHash, warnings });
    },
  },
  {
    method: "POST",
    path: "/workflows/validate",
    summary: "Validate a bundle without saving; when it parses, its graph and input declaration too",
    body: bundleInput,
    status: 200,
    description: "Diagnostics",
    response: validateBundleResponse,
    bodyLimit: BODY_LIMITS.bundle,
    handler: async ({ deps, caller, body }) => {
      const result = await validateBundle(deps.db, caller.teamId, await parse(bundleInput, body));
      return answer(routeOf("POST", "/workflows/validate"), {
        ok: result.workflow !== undefined,
        name: result.workflow?.name ?? null,
        errors: result.errors.map(toDiagnostic),
        warnings: result.warnings.map(toDiagnostic),
        graph: result.workflow ? workflowGraph(result.workflow) : null,
        inputs: result.workflow?.inputs ?? [],
      });
    },
  },
  {
    method: "GET",
    path: "/workflows/{id}",
    summary: "A workflow's current version: its files, its states and transitions as a graph, and its input declaration",
    status: 200,
    description: "The workflow",
    response: workflowBundleResponse,
    handler: async ({ deps, caller, params }) => answer(routeOf("GET", "/workflows/{id}"), await readWorkflow(deps.db, caller, params[0]!)),
  },
  {
    method: "GET",
    path: "/workflows/{id}/versions",
    summary: "A workflow's saved versions, newest first, with who saved each and when",
    status: 200,
    description: "Versions",
    response: listVersionsResponse,
    handler: async ({ deps, caller, params }) => answer(routeOf("GET", "/workflows/{id}/versions"), await listVersions(deps.db, caller, params[0]!)),
  },
  {
    method: "GET",
    path: "/workflows/{id}/versions/{number}",
    summary: "One saved version: its files, graph and input declaration",
    status: 200,
    description: "The version",
    response: workflowVersionResponse,
    handler: async ({ deps, caller, params }) =>
      answer(routeOf("GET", "/workflows/{id}/versions/{number}"), await readVersion(deps.db, caller, { id: params[0]!, number: await numberAt(params[1]) })),
  },
  {
    method: "GET",
    path: "/workflows/{id}/diff",
    summary: "A unified diff of each file between two versions (?from=1&to=2; by default the current version against the one before)",
    query: diffQuery,
    status: 200,
    description: "The diff",
    response: diffVersionsResponse,
    handler: async ({ deps, caller, params, query }) => {
      const { from, to } = await parse(diffQuery, () => Promise.resolve(Object.fromEntries(query)));
      return answer(routeOf("GET", "/workflows/{id}/diff"), await diffVersions(deps.db, caller, { id: params[0]!, from, to }));
    },
  },
  {
    method: "POST",
    path: "/workflows/{id}/archive",
    summary: "Archive a workflow (who may save in its lane): it leaves the list and can no longer be started; its versions and runs stay",
    status: 200,
    description: "Archived",
    response: archiveWorkflowResponse,
    handler: async ({ deps, caller, params }) => answer(routeOf("POST", "/workflows/{id}/archive"), await archiveTeamWorkflow(deps.db, caller, params[0]!)),
  },
];

const routeOf = routeFinder(workflowRoutes);
