/**
 * The built-in operations a workflow's `operation` state may name (AWF's http, notify and
 * github plugins) and the inputs each takes: the reader validates `inputs` against it and
 * the editor completes from it. No YAML or network here, so the browser bundle can use it.
 */
type OperationInputType = "string" | "integer" | "boolean" | "array" | "object";

export type OperationInputSpec = { type: OperationInputType; required?: boolean };

type OperationSpec = { inputs: Record<string, OperationInputSpec>; outputs: readonly string[] };

/** Every github operation takes these (AWF's "Common Optional Inputs"). */
const GITHUB_COMMON: Record<string, OperationInputSpec> = {
  repo: { type: "string" },
  fields: { type: "array" },
};
const NUMBER: OperationInputSpec = { type: "integer", required: true };

export const OPERATIONS = {
  "http.request": {
    inputs: {
      url: { type: "string", required: true },
      method: { type: "string", required: true },
      headers: { type: "object" },
      body: { type: "string" },
      timeout: { type: "integer" },
      retryable_status_codes: { type: "array" },
    },
    outputs: ["status_code", "body", "headers", "body_truncated"],
  },
  "notify.send": {
    inputs: {
      backend: { type: "string", required: true },
      message: { type: "string", required: true },
      title: { type: "string" },
      priority: { type: "string" },
      webhook_url: { type: "string" },
    },
    outputs: ["backend", "status", "response"],
  },
  "github.get_issue": {
    inputs: { ...GITHUB_COMMON, number: NUMBER },
    outputs: ["number", "title", "body", "state", "labels"],
  },
  "github.get_pr": {
    inputs: { ...GITHUB_COMMON, number: NUMBER },
    outputs: [
      "number",
      "title",
      "body",
      "state",
      "headRefName",
      "baseRefName",
      "mergeable",
      "mergedAt",
      "labels",
    ],
  },
  "github.create_issue": {
    inputs: {
      ...GITHUB_COMMON,
      title: { type: "string", required: true },
      body: { type: "string" },
      labels: { type: "array" },
      assignees: { type: "array" },
    },
    outputs: ["number", "url"],
  },
  "github.create_pr": {
    inputs: {
      ...GITHUB_COMMON,
      title: { type: "string", required: true },
      head: { type: "string", required: true },
      base: { type: "string", required: true },
      body: { type: "string" },
      draft: { type: "boolean" },
    },
    outputs: ["number", "url", "already_exists"],
  },
  "github.add_labels": {
    inputs: { ...GITHUB_COMMON, number: NUMBER, labels: { type: "array", required: true } },
    outputs: ["labels"],
  },
  "github.add_comment": {
    inputs: { ...GITHUB_COMMON, number: NUMBER, body: { type: "string", required: true } },
    outputs: ["comment_id", "url"],
  },
  "github.list_comments": {
    inputs: { ...GITHUB_COMMON, number: NUMBER, limit: { type: "integer" } },
    outputs: ["comments", "total"],
  },
  "github.batch": {
    inputs: {
      operations: { type: "array", required: true },
      strategy: { type: "string" },
      concurrency: { type: "integer" },
    },
    outputs: ["total", "succeeded", "failed", "results"],
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof OPERATIONS;
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

export const isOperationName = (name: string): name is OperationName =>
  Object.prototype.hasOwnProperty.call(OPERATIONS, name);

/** The operations github.batch may run: every github operation but batch itself. */
export const BATCHABLE_OPERATIONS = OPERATION_NAMES.filter(
  (n) => n.startsWith("github.") && n !== "github.batch",
);

export const HTTP_METHODS = ["GET", "POST", "PUT", "DELETE"] as const;
export const NOTIFY_BACKENDS = ["desktop", "webhook"] as const;
export const NOTIFY_PRIORITIES = ["low", "default", "high"] as const;
export const BATCH_STRATEGIES = ["all_succeed", "any_succeed", "best_effort"] as const;
