/**
 * Request and response shapes of the run operations (start, read, list, cancel), shared by
 * the tRPC procedures, the REST routes and the generated OpenAPI document.
 */
import { z } from "zod";
import { timestamp } from "./timestamp";

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

export const stepRun = z.looseObject({
  id: z.string(),
  stateName: z.string(),
  status: z.string(),
  exitCode: z.number().int().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  errorMessage: z.string().nullable(),
  sandboxLevel: z.string().nullable().describe("the sandbox the step ran in"),
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
});

/** A run with its steps (never its checkpoint), as both surfaces show it. */
const runFields = {
  id: z.string(),
  status: runStatus,
  trigger: z.string(),
  lane: z.string(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  steps: z.array(stepRun),
};

/** GET /runs/{id}: the run with its workflow's name. */
export const runResponse = z.looseObject({ ...runFields, workflow: z.string().describe("the workflow's name") });

/** runs.get: the run with its workflow and version. */
export const runDetailResponse = z.looseObject({
  ...runFields,
  workflow: z.object({ id: z.string(), name: z.string() }),
  version: z.object({ number: z.number().int(), bundleHash: z.string() }),
});

/** runs.list: the team's latest runs, without inputs, outputs or checkpoint. */
export const runList = z.array(
  z.object({
    id: z.string(),
    workflowId: z.string(),
    status: runStatus,
    trigger: z.string(),
    lane: z.string(),
    errorCode: z.string().nullable(),
    createdAt: timestamp,
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
    workflow: z.object({ name: z.string() }),
  }),
);
