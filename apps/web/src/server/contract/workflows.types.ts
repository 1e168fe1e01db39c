/**
 * Request and response shapes of the workflow operations (list, read, save, validate),
 * shared by the tRPC procedures, the REST routes and the generated OpenAPI document.
 */
import { z } from "zod";
import { runStatus } from "./runs.types";
import { timestamp } from "./timestamp";

export const bundleInput = z.object({
  entry: z.string().min(1).max(255).default("workflow.yaml").describe("path of the workflow YAML within files"),
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
    lastRun: z.object({ id: z.string(), status: runStatus, createdAt: timestamp }).nullable(),
  }),
);

/** workflows.get: the current version's bundle, for the editor. */
export const workflowBundleResponse = z.object({
  id: z.string(),
  name: z.string(),
  lane: z.string(),
  version: z.number().int(),
  bundleHash: z.string(),
  entry: z.string().describe("path of the workflow YAML within files"),
  files: z.record(z.string(), z.string()).describe("path → content"),
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
});
