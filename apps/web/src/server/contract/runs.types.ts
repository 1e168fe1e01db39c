/**
 * Request and response shapes of the run operations (start, read, cancel), shared by the
 * tRPC procedures, the REST routes and the generated OpenAPI document.
 */
import { z } from "zod";

export const runStatus = z.enum(["queued", "running", "succeeded", "failed", "cancelled"]);

/** POST /workflows/{id}/runs: the body (the workflow is in the path). */
export const startRunBody = z
  .object({ inputs: z.record(z.string(), z.unknown()).optional().describe("the workflow's inputs by name") })
  .default({});
/** runs.start: the workflow and its inputs. */
export const startRunInput = z.object({ workflowId: z.string().min(1), inputs: z.record(z.string(), z.unknown()).optional() });
/** A run just queued: read it with GET /runs/{id}. */
export const startRunResponse = z.object({ id: z.string(), status: runStatus });

export const cancelRunResponse = z.object({
  status: z.enum(["cancelled", "cancelling"]).describe("cancelled: it had not started; cancelling: its worker is told to stop"),
});

const timestamp = z.string().describe("ISO 8601");

export const stepRun = z.looseObject({
  id: z.string(),
  stateName: z.string(),
  status: z.string(),
  exitCode: z.number().int().nullable(),
  stdout: z.string(),
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
});

/** GET /runs/{id}: the run with its steps (never its checkpoint). */
export const runResponse = z.looseObject({
  id: z.string(),
  status: runStatus,
  workflow: z.string().describe("the workflow's name"),
  trigger: z.string(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: timestamp,
  steps: z.array(stepRun),
});
