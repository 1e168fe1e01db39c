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
  stepType: z.string().describe("step or agent"),
  output: z.string().describe("what the step produced: its stdout, or an agent's answer"),
  errorCode: z.string().nullable(),
  provider: z.string().nullable().describe("an agent step's provider"),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  costUsd: z.number().nullable().describe("what an agent step's model requests cost (USD), as metered"),
  toolCallCount: z.number().int().describe("the tool calls an agent step made"),
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

/** runs.stepActivity: one attempt of a run's step (the `id` of a step entry). */
export const stepActivityInput = z.object({ runId: z.string().min(1), stepRunId: z.string().min(1) });

export const toolCallEntry = z.object({
  id: z.string(),
  toolName: z.string(),
  source: z.string().describe("builtin, proxy, agent, or the id of the connector that served it"),
  fidelity: z.enum(["proxy", "agent_reported"]).describe("proxy: the step's MCP proxy saw it; agent_reported: the agent CLI ran it and said so"),
  arguments: z.unknown().describe("what the tool was called with, secrets scrubbed"),
  result: z.unknown().describe("what it answered, secrets scrubbed"),
  isError: z.boolean(),
  errorType: z.string().nullable(),
  startedAt: timestamp,
  durationMs: z.number().int(),
});

/** What the activity shows of an agent's events: its text, retries, usage, answer and errors. */
export const agentActivityEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string().describe("text as it arrived (consecutive events make one message)") }),
  z.object({ type: z.literal("retry"), attempt: z.number().int(), delayMs: z.number(), status: z.number().int().optional(), message: z.string() }),
  z.object({
    type: z.literal("usage"),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    estimated: z.boolean().describe("counted from the text when the model did not say"),
  }),
  z.object({ type: z.literal("final"), text: z.string(), turns: z.number().int().optional() }),
  z.object({ type: z.literal("error"), code: z.string(), message: z.string() }),
]);

/** GET /runs/{id}/steps/{stepId}/activity and runs.stepActivity: what an agent step did so far. */
export const stepActivityResponse = z.object({
  stepRunId: z.string(),
  status: z.string(),
  toolCalls: z.array(toolCallEntry).describe("in the order they started"),
  toolCallsTruncated: z.boolean().describe("true when only the latest tool calls are listed"),
  events: z.array(z.object({ seq: z.number().int(), at: timestamp, event: agentActivityEvent })).describe("in the order they happened"),
  eventsTruncated: z.boolean().describe("true when only the latest events are listed"),
});
