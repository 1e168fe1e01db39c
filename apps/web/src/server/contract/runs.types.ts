/**
 * Request and response shapes of the run operations (start, read, list, cancel), shared by
 * the tRPC procedures, the REST routes and the generated OpenAPI document; the operations
 * themselves are declared in runs.operations.ts.
 */
import { z } from "zod";
import { callerTime, timestamp } from "./timestamp";

export const runStatus = z.enum([
  "queued",
  "running",
  "waiting",
  "succeeded",
  "failed",
  "cancelled",
]);

/** POST /workflows/{id}/runs: the body (the workflow is in the path). */
export const startRunBody = z
  .object({
    inputs: z.record(z.string(), z.unknown()).optional().describe("the workflow's inputs by name"),
    versionId: z
      .string()
      .min(1)
      .optional()
      .describe("a saved version of the workflow to run; its current version when unset"),
  })
  .default({});

/** An Idempotency-Key: the same key for the same team starts at most one run. */
export const idempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, "printable ASCII without spaces")
  .describe(
    "retrying with the same key returns the first run; the same key with another request is refused (422 USER.IDEMPOTENCY_KEY_REUSED)",
  );

/** runs.start: the workflow and its inputs. */
export const startRunInput = z.object({
  workflowId: z.string().min(1),
  inputs: z.record(z.string(), z.unknown()).optional(),
  versionId: z.string().min(1).optional(),
  idempotencyKey: idempotencyKey.optional(),
});
/** A run just queued: read it with GET /runs/{id}. */
export const startRunResponse = z.object({ id: z.string(), status: runStatus });

export const cancelRunResponse = z.object({
  status: z
    .enum(["cancelled", "cancelling"])
    .describe(
      "cancelled: it had not started, or it waited for a person; cancelling: its worker is told to stop",
    ),
});

export const stepRun = z.looseObject({
  id: z.string(),
  stateName: z.string(),
  attempt: z.number().int().describe("1 for the first try, then each retry"),
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
  costUsd: z
    .number()
    .nullable()
    .describe("what an agent step's model requests cost (USD), as metered"),
  toolCallCount: z.number().int().describe("the tool calls an agent step made"),
  conversation: z
    .object({
      session_id: z.string().describe("the provider's session id (empty: none)"),
      turns: z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.string() })),
      total_turns: z.number().int(),
      total_tokens: z.number().int(),
      stopped_by: z
        .enum(["user_exit", "error"])
        .optional()
        .describe(
          "how a conversation ended: user_exit (exit, quit, an empty message or none in time) or error",
        ),
      provider: z.string(),
      continued_from: z.string().optional(),
    })
    .nullish()
    .describe(
      "AWF's state.conversation of a mode: conversation or session-tracked (conversation:) agent step, scrubbed",
    ),
});

/** A run with its steps (never its checkpoint), as both surfaces show it. */
const runFields = {
  id: z.string(),
  status: runStatus,
  trigger: z
    .string()
    .describe(
      "the surface that started it: dashboard, api (an API token), cli, call_workflow, schedule, webhook or replay",
    ),
  lane: z.string(),
  inputs: z.unknown().describe("the inputs it started with"),
  outputs: z.unknown().nullable().describe("what it produced, once finished"),
  startedBy: z
    .object({ id: z.string(), name: z.string() })
    .nullable()
    .describe("who started it (an API token's owner)"),
  firedBy: z
    .object({ id: z.string(), name: z.string(), kind: z.string() })
    .nullable()
    .describe("the schedule or webhook trigger that started it"),
  rerunOfId: z.string().nullable().describe("the run this one re-ran"),
  replayOfId: z.string().nullable().describe("a replay: the step attempt it runs again"),
  exampleAt: timestamp.nullable().describe("when the run was marked an example of its workflow"),
  parentRunId: z.string().nullable().describe("the run whose call_workflow started it"),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  steps: z.array(stepRun),
};

/** GET /runs/{id}: the run with its workflow's name. */
export const runResponse = z.looseObject({
  ...runFields,
  workflow: z.string().describe("the workflow's name"),
});

/** runs.get: the run with its workflow and version. */
export const runDetailResponse = z.looseObject({
  ...runFields,
  workflow: z.object({ id: z.string(), name: z.string() }),
  version: z.object({ number: z.number().int(), bundleHash: z.string() }),
});

const runTrigger = z.enum([
  "dashboard",
  "api",
  "cli",
  "call_workflow",
  "schedule",
  "webhook",
  "replay",
]);

/** A list of values as one query parameter: `a,b` (or the parameter repeated, merged by the caller). */
const commaList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => (typeof value === "string" ? value.split(",").filter((v) => v !== "") : value),
    z.array(item).optional(),
  );

/** runs.list and GET /runs: what the list is narrowed by, and where the page starts. */
export const runListQuery = z.object({
  status: commaList(runStatus).describe(
    "statuses, comma-separated (queued,running,waiting,succeeded,failed,cancelled); waiting: waiting for a person's answer",
  ),
  workflowId: z.string().min(1).optional(),
  lane: z.string().min(1).optional(),
  trigger: commaList(runTrigger).describe(
    "triggers, comma-separated (dashboard,api,cli,call_workflow,schedule,webhook,replay)",
  ),
  example: z
    .enum(["true", "false"])
    .optional()
    .describe("true: only the runs marked as examples of their workflow"),
  startedBy: z.string().min(1).optional().describe("the id of the user who started the runs"),
  from: callerTime.optional().describe("created at or after (ISO 8601, years 0001 to 9999)"),
  to: callerTime.optional().describe("created before (ISO 8601, years 0001 to 9999)"),
  cursor: z.string().min(1).optional().describe("nextCursor of the previous page"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .optional()
    .describe("runs per page (50 when unset, at most 200)"),
});

export const runListEntry = z.object({
  id: z.string(),
  workflowId: z.string(),
  status: runStatus,
  trigger: z.string(),
  lane: z.string(),
  errorCode: z.string().nullable(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  rerunOfId: z.string().nullable(),
  replayOfId: z.string().nullable(),
  exampleAt: timestamp.nullable(),
  workflow: z.object({ name: z.string() }),
  startedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
});

/** runs.list and GET /runs: a page of runs (never inputs, outputs or checkpoint), newest first. */
export const runListResponse = z.object({
  runs: z.array(runListEntry),
  nextCursor: z
    .string()
    .nullable()
    .describe("pass as cursor for the next page; null on the last page"),
  counts: z
    .object({
      queued: z.number().int(),
      running: z.number().int(),
      waiting: z.number().int().describe("runs waiting for a person's answer"),
      succeeded: z.number().int(),
      failed: z.number().int(),
      cancelled: z.number().int(),
    })
    .describe("runs per status under the same filters (status aside)"),
});

/** The list's "started by" choices. */
export const runStartersResponse = z.array(
  z.object({ id: z.string(), name: z.string(), email: z.string() }),
);

export const runSpansQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(2000)
    .optional()
    .describe("spans at most, oldest first (2,000 when unset)"),
});

/** GET /runs/{id}/spans and runs.spans: the run's spans, oldest first, for a waterfall. */
export const runSpansResponse = z.object({
  spans: z.array(
    z.object({
      spanId: z.string(),
      parentSpanId: z.string().nullable(),
      name: z.string(),
      kind: z.string(),
      status: z.string(),
      attributes: z.unknown(),
      startTime: timestamp,
      endTime: timestamp.nullable(),
    }),
  ),
  truncated: z.boolean().describe("true when only the first spans are listed"),
});

/** GET /runs/{id}/tool-calls and runs.toolCalls: a page of the run's tool calls. */
export const runToolCallsQuery = z.object({
  after: z.string().min(1).optional().describe("nextAfter of the previous page"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .describe("calls per page (100 when unset)"),
  stepRunId: z.string().min(1).optional().describe("only the calls of this step attempt"),
});

/** A stored run event (also an SSE message: `id` is its seq, `event` its type). */
export const runEventEntry = z.object({
  seq: z.number().int(),
  type: z.string(),
  payload: z.unknown(),
  at: timestamp,
});

/** runs.events: stored events after a seq, in order. */
export const runEventsInput = z.object({
  id: z.string().min(1),
  after: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(500),
});
export const runEventsResponse = z.object({
  events: z.array(runEventEntry),
  lastSeq: z.number().int(),
});

/** GET /runs/{id}/events: where to resume (besides the Last-Event-ID header). */
export const runEventsQuery = z.object({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe("replay the events after this seq (the Last-Event-ID header wins)"),
});
/** GET /runs/{id}/events is text/event-stream: this is the `data` of each message (its `id` is the seq). */
export const runEventStream = runEventEntry.describe(
  'text/event-stream: one message per stored event, `id: <seq>`, `event: <type>` (run.started, step.output, ...) and this object as `data`; then `event: end`, its data {reason: "run_ended", status} once the run has ended, or {reason: "access_ended", error: {code, message}} once the caller may no longer read it',
);

/** GET /runs/{id}/logs is NDJSON: this is one line. */
export const runLogLine = z
  .looseObject({ kind: z.enum(["run", "step", "event"]) })
  .describe("one line: the run, a step attempt with its output, or a stored event");

/** runs.stepActivity: one attempt of a run's step (the `id` of a step entry). */
export const stepActivityInput = z.object({
  runId: z.string().min(1),
  stepRunId: z.string().min(1),
  /** how many of the latest tool calls to list (500 when unset): the run page pages them through runs.toolCalls instead */
  toolCallLimit: z.number().int().min(0).max(500).optional(),
});

export const toolCallEntry = z.object({
  id: z.string(),
  toolName: z.string(),
  source: z.string().describe("builtin, proxy, agent, or the id of the connector that served it"),
  fidelity: z
    .enum(["proxy", "agent_reported"])
    .describe(
      "proxy: the step's MCP proxy saw it; agent_reported: the agent CLI ran it and said so",
    ),
  arguments: z.unknown().describe("what the tool was called with, secrets scrubbed"),
  result: z.unknown().describe("what it answered, secrets scrubbed"),
  isError: z.boolean(),
  errorType: z.string().nullable(),
  startedAt: timestamp,
  durationMs: z.number().int(),
});

/** What the activity shows of an agent's events: its text, retries, usage, answer and errors. */
export const agentActivityEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("text"),
    text: z.string().describe("text as it arrived (consecutive events make one message)"),
  }),
  z.object({
    type: z.literal("retry"),
    attempt: z.number().int(),
    delayMs: z.number(),
    status: z.number().int().optional(),
    message: z.string(),
  }),
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
  events: z
    .array(z.object({ seq: z.number().int(), at: timestamp, event: agentActivityEvent }))
    .describe("in the order they happened"),
  eventsTruncated: z.boolean().describe("true when only the latest events are listed"),
});

export const runToolCallsResponse = z.object({
  toolCalls: z
    .array(toolCallEntry.extend({ stepRunId: z.string() }))
    .describe("in the order they started"),
  nextAfter: z
    .string()
    .nullable()
    .describe("pass as after for the next page; null on the last page"),
});

/** runs.markExample and runs.unmarkExample: the run and when it was marked (null: not an example). */
export const runExampleResponse = z.object({ id: z.string(), exampleAt: timestamp.nullable() });
