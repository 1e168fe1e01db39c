/**
 * Request and response shapes of the workflow operations (list, read, save, validate,
 * versions, diff, archive),
 * shared by the tRPC procedures, the REST routes and the generated OpenAPI document.
 */
import { STATE_TYPES } from "@switchyard/core/workflow/vocabulary";
import { z } from "zod";
import { BODY_LIMITS } from "../http/body-limit";
import { operation } from "./operation";
import { runStatus } from "./runs.types";
import { timestamp } from "./timestamp";

const pinnedList = z.array(
  z.object({ name: z.string(), path: z.string(), version: z.number().int().nullable() }),
);

export const bundleInput = z.object({
  entry: z
    .string()
    .min(1)
    .max(255)
    .default("workflow.yaml")
    .describe("path of the workflow YAML within files"),
  files: z.record(z.string().max(255), z.string()).describe("path → content"),
});

export const diagnostic = z.object({
  code: z.string(),
  message: z.string(),
  file: z.string().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  path: z.string().optional(),
});

/** A workflow's states and transitions (core's workflowGraph), for drawing it. */
export const workflowGraph = z.object({
  initial: z.string(),
  nodes: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(STATE_TYPES),
      group: z.string().optional().describe("the parallel or loop state it runs under"),
      children: z.array(z.string()).optional(),
      terminalStatus: z.enum(["success", "failure"]).optional(),
      workflow: z.string().optional().describe("the workflow a call_workflow state calls"),
      provider: z.string().optional(),
      failMessage: z.string().optional(),
    }),
  ),
  edges: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      kind: z.enum([
        "success",
        "failure",
        "transition",
        "branch",
        "body",
        "next",
        "loop_back",
        "complete",
      ]),
      label: z.string().optional(),
    }),
  ),
});

/** One entry of the workflow's `inputs` declaration, for a start form. */
export const inputDefinition = z.object({
  name: z.string(),
  type: z.enum(["string", "integer", "number", "boolean", "array"]),
  required: z.boolean(),
  default: z.unknown().optional(),
  description: z.string().optional(),
  validation: z.object({
    pattern: z.string().optional(),
    enum: z.array(z.unknown()).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    fileExists: z.boolean().optional(),
    fileExtension: z.array(z.string()).optional(),
  }),
});

export const workflowSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  lane: z.string(),
  version: z.number().int().nullable().describe("the current version's number"),
});
export const listWorkflowsResponse = z.object({ workflows: z.array(workflowSummary) });

/** workflows.list: each workflow with its latest run. */
export const workflowList = z.array(
  workflowSummary.extend({
    pack: z
      .string()
      .nullable()
      .describe("the workflow pack it comes from, named `<pack>/<workflow>`"),
    lastRun: z.object({ id: z.string(), status: runStatus, createdAt: timestamp }).nullable(),
  }),
);

/** workflows.get: the current version's bundle, for the editor. */
export const workflowBundleResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  lane: z.string(),
  pack: z
    .string()
    .nullable()
    .describe(
      "the workflow pack it comes from (read-only: the pack is installed again to change it)",
    ),
  git: z
    .object({
      sourceId: z.string(),
      url: z.string(),
      branch: z.string(),
      path: z.string().describe("the workflow file in the repository"),
      commitId: z.string().nullable().describe("the commit the current version came from"),
    })
    .nullable()
    .describe("the git repository it is synced from (read-only: change the file there and sync)"),
  version: z.number().int(),
  versionId: z.string(),
  bundleHash: z.string(),
  entry: z.string().describe("path of the workflow YAML within files"),
  files: z.record(z.string(), z.string()).describe("path → content"),
  graph: workflowGraph.nullable(),
  inputs: z.array(inputDefinition),
  templates: pinnedList.describe(
    "the step templates this version pinned: the team's version, or null for the bundle's own copy",
  ),
  skills: pinnedList.describe(
    "the library skills this version pinned: the team's version, or null for a copy the team no longer has",
  ),
});

export const saveWorkflowResponse = z.object({
  workflowId: z.string(),
  version: z.number().int(),
  bundleHash: z.string(),
  warnings: z.array(diagnostic),
});

export const validateBundleResponse = z.object({
  ok: z.boolean(),
  name: z.string().nullable().describe("the workflow's name, when it parsed"),
  errors: z.array(diagnostic),
  warnings: z.array(diagnostic),
  graph: workflowGraph.nullable().describe("the states and transitions, when it parsed"),
  inputs: z.array(inputDefinition).describe("the input declaration, when it parsed"),
});

export const workflowIdInput = z.object({ id: z.string().min(1) });
export const workflowVersionInput = z.object({
  id: z.string().min(1),
  number: z.number().int().min(1),
});
export const diffVersionsInput = z.object({
  id: z.string().min(1),
  from: z.number().int().min(1).describe("the older version's number"),
  to: z.number().int().min(1).describe("the newer version's number"),
});

const person = z
  .object({ id: z.string(), name: z.string().nullable(), email: z.string() })
  .nullable();

export const versionSummary = z.object({
  id: z.string(),
  number: z.number().int(),
  bundleHash: z.string(),
  createdAt: timestamp,
  createdBy: person.describe("who saved it; null when unknown or no longer a member"),
  commitId: z
    .string()
    .nullable()
    .describe("the git commit a sync made it from; null for a version saved otherwise"),
  current: z.boolean(),
});
export const listVersionsResponse = z.object({ versions: z.array(versionSummary) });

/** A saved version with its files, graph and input declaration. */
export const workflowVersionResponse = versionSummary.extend({
  workflowId: z.string(),
  entry: z.string(),
  files: z.record(z.string(), z.string()).describe("path → content"),
  graph: workflowGraph.nullable().describe("null when the version no longer parses"),
  inputs: z.array(inputDefinition),
  templates: pinnedList.describe(
    "the step templates this version pinned: the team's version, or null for the bundle's own copy",
  ),
  skills: pinnedList.describe(
    "the library skills this version pinned: the team's version, or null for a copy the team no longer has",
  ),
});

export const diffLine = z.object({
  kind: z.enum(["add", "del", "context", "hunk"]),
  text: z.string(),
  oldLine: z.number().int().optional(),
  newLine: z.number().int().optional(),
});
export const diffVersionsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  files: z.array(
    z.object({
      path: z.string(),
      change: z.enum(["added", "removed", "changed", "unchanged"]),
      patch: z.string().describe("a unified diff"),
      lines: z.array(diffLine),
    }),
  ),
});

export const archiveWorkflowResponse = z.object({ id: z.string(), archivedAt: timestamp });

const versionNumber = z.coerce.number().int().min(1);
const diffQuery = z.object({
  from: versionNumber
    .optional()
    .describe("the older version's number; the one before `to` when unset"),
  to: versionNumber
    .optional()
    .describe("the newer version's number; the current version when unset"),
});

export const workflowOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: workflowList,
    rest: {
      method: "GET",
      path: "/workflows",
      summary: "List workflows",
      status: 200,
      description: "Workflows",
      // the dashboard's list shows each one's last run; the API's does not
      toAnswer: (rows: z.output<typeof workflowList>) =>
        rows.map(({ lastRun: _, ...workflow }) => workflow),
      wrap: "workflows",
      response: listWorkflowsResponse,
    },
  }),
  /** The current version's bundle with its graph and input declaration, for the workflow page. */
  get: operation({
    kind: "query",
    access: "team",
    input: workflowIdInput,
    output: workflowBundleResponse,
    rest: {
      method: "GET",
      path: "/workflows/{id}",
      summary:
        "A workflow's current version: its files, its states and transitions as a graph, and its input declaration",
      status: 200,
      description: "The workflow",
    },
  }),
  /** Every saved version, newest first, with who saved it. */
  versions: operation({
    kind: "query",
    access: "team",
    input: workflowIdInput,
    output: listVersionsResponse,
    rest: {
      method: "GET",
      path: "/workflows/{id}/versions",
      summary: "A workflow's saved versions, newest first, with who saved each and when",
      status: 200,
      description: "Versions",
    },
  }),
  /** One saved version's files, graph and inputs. */
  version: operation({
    kind: "query",
    access: "team",
    input: workflowVersionInput,
    output: workflowVersionResponse,
    rest: {
      method: "GET",
      path: "/workflows/{id}/versions/{number}",
      summary: "One saved version: its files, graph and input declaration",
      pathSchema: z.looseObject({ number: versionNumber }),
      status: 200,
      description: "The version",
    },
  }),
  /** A unified diff of each file between two versions. */
  diff: operation({
    kind: "query",
    access: "team",
    input: diffVersionsInput,
    output: diffVersionsResponse,
    rest: {
      method: "GET",
      path: "/workflows/{id}/diff",
      summary:
        "A unified diff of each file between two versions (?from=1&to=2; by default the current version against the one before)",
      query: diffQuery,
      status: 200,
      description: "The diff",
    },
  }),
  /** Every problem with a bundle, in the team's context, without saving anything. */
  validate: operation({
    kind: "mutation",
    access: "team",
    input: bundleInput,
    output: validateBundleResponse,
    rest: {
      method: "POST",
      path: "/workflows/validate",
      summary:
        "Validate a bundle without saving; when it parses, its graph and input declaration too",
      body: bundleInput,
      status: 200,
      description: "Diagnostics",
      bodyLimit: BODY_LIMITS.bundle,
    },
  }),
  save: operation({
    kind: "mutation",
    access: "team",
    lane: "the workflow's lane's saveRoles (an existing workflow's lane, and the bundle's)",
    input: bundleInput,
    output: saveWorkflowResponse,
    rest: {
      method: "POST",
      path: "/workflows",
      summary:
        "Save a workflow bundle as a new version (validated whole; nothing is stored on error)",
      body: bundleInput,
      status: 201,
      description: "Saved",
      errors: { 422: "Invalid workflow; details.diagnostics lists every problem" },
      bodyLimit: BODY_LIMITS.bundle,
    },
  }),
  /** Archive: it leaves the list and can no longer be started; its versions and runs stay. */
  archive: operation({
    kind: "mutation",
    access: "team",
    lane: "the workflow's lane's saveRoles",
    input: workflowIdInput,
    output: archiveWorkflowResponse,
    rest: {
      method: "POST",
      path: "/workflows/{id}/archive",
      summary:
        "Archive a workflow (who may save in its lane): it leaves the list and can no longer be started; its versions and runs stay",
      status: 200,
      description: "Archived",
    },
  }),
};
