/**
 * The run operations (start, read, list, cancel, re-run, their steps, tool calls, spans,
 * events and logs) and how each is served, from which the tRPC procedures, the REST routes
 * and the OpenAPI document are derived; their shapes are in runs.types.ts (apart, because
 * a run's graph is a workflow's and a workflow names its runs' status). Reading needs any
 * role; starting, re-running and cancelling are decided by the lane policy.
 */
import { z } from "zod";
import { operation } from "./operation";
import {
  cancelRunResponse,
  runDetailResponse,
  runEventStream,
  runEventsInput,
  runEventsQuery,
  runEventsResponse,
  runListQuery,
  runListResponse,
  runLogLine,
  runExampleResponse,
  runResponse,
  runSpansQuery,
  runSpansResponse,
  runStartersResponse,
  runToolCallsQuery,
  runToolCallsResponse,
  startRunBody,
  startRunInput,
  startRunResponse,
  stepActivityInput,
  stepActivityResponse,
  stepRun,
} from "./runs.types";
import { workflowGraph } from "./workflows.types";

const runId = z.object({ id: z.string().min(1) });
const START_LANE = "the workflow's lane's startRoles";

export const runOperations = {
  start: operation({
    kind: "mutation",
    access: "team",
    lane: START_LANE,
    input: startRunInput,
    output: startRunResponse,
    rest: {
      method: "POST",
      path: "/workflows/{id}/runs",
      params: { id: "workflowId" },
      summary:
        "Start a run of the workflow, by id or by name (`speckit%2Fspecify` for a pack's) (its current version, or versionId); it is queued, read it with GET /runs/{id}. With an Idempotency-Key header, a retry of the same request answers 200 with the first run and starts nothing",
      body: startRunBody,
      status: 202,
      description: "Queued",
      otherSuccess: {
        200: "The run an earlier request with the same Idempotency-Key started; nothing new started",
      },
      errors: {
        422: "The Idempotency-Key was used for another request (USER.IDEMPOTENCY_KEY_REUSED)",
      },
    },
  }),
  rerun: operation({
    kind: "mutation",
    access: "team",
    lane: START_LANE,
    input: runId,
    output: startRunResponse,
    rest: {
      method: "POST",
      path: "/runs/{id}/rerun",
      summary:
        "Start the run's workflow version again with the same inputs, as a new run that names this one (rerunOfId); needs what starting the workflow needs",
      status: 202,
      description: "The new run, queued",
    },
  }),
  cancel: operation({
    kind: "mutation",
    access: "team",
    lane: START_LANE,
    input: runId,
    output: cancelRunResponse,
    rest: {
      method: "POST",
      path: "/runs/{id}/cancel",
      summary:
        "Cancel a queued, running or waiting run (a run waiting for a person is cancelled at once, its open waits with it)",
      status: 202,
      description: "Cancelled or cancelling",
      errors: { 409: "The run has already ended (CONFLICT)" },
    },
  }),
  markExample: operation({
    kind: "mutation",
    access: "team",
    lane: START_LANE,
    input: runId,
    output: runExampleResponse,
    rest: {
      method: "PUT",
      path: "/runs/{id}/example",
      summary:
        "Mark the run an example of its workflow: replaying all examples (POST /workflows/{id}/replay-suites) replays its agent attempts",
      status: 200,
      description: "Marked",
    },
  }),
  unmarkExample: operation({
    kind: "mutation",
    access: "team",
    lane: START_LANE,
    input: runId,
    output: runExampleResponse,
    rest: {
      method: "DELETE",
      path: "/runs/{id}/example",
      summary: "Unmark the run as an example of its workflow",
      status: 200,
      description: "Unmarked",
    },
  }),
  get: operation({
    kind: "query",
    access: "team",
    input: runId,
    output: runDetailResponse,
    rest: {
      method: "GET",
      path: "/runs/{id}",
      summary:
        "A run with its steps, inputs and outputs, who or what started it, and the run it re-ran",
      status: 200,
      description: "The run",
      // the dashboard reads the workflow's record; the API names it
      toAnswer: (run: { workflow: { name: string } }) => ({ ...run, workflow: run.workflow.name }),
      response: runResponse,
    },
  }),
  steps: operation({
    kind: "query",
    access: "team",
    input: runId,
    output: z.array(stepRun),
    trpc: { only: "the dashboard reads a run's steps with the run (runs.get)" },
    rest: {
      method: "GET",
      path: "/runs/{id}/steps",
      summary: "The run's step attempts in the order they started, with their output",
      status: 200,
      description: "Steps",
      wrap: "steps",
    },
  }),
  list: operation({
    kind: "query",
    access: "team",
    input: runListQuery.optional(),
    output: runListResponse,
    rest: {
      method: "GET",
      path: "/runs",
      summary:
        "The team's runs, newest first, a page at a time, narrowed by status, workflow, lane, trigger, starter and time; with counts per status under the same filters",
      query: runListQuery,
      joinRepeated: true,
      status: 200,
      description: "A page of runs, the cursor of the next, and counts per status",
    },
  }),
  graph: operation({
    kind: "query",
    access: "team",
    input: runId,
    output: z.object({ graph: workflowGraph.nullable() }),
    rest: {
      only: "the run page's graph of the run's workflow version; over REST, GET /workflows/{id}/versions/{number} has it",
    },
  }),
  starters: operation({
    kind: "query",
    access: "team",
    output: runStartersResponse,
    rest: { only: "the choices of the run list's starter filter" },
  }),
  spans: operation({
    kind: "query",
    access: "team",
    input: runId.extend(runSpansQuery.shape),
    output: runSpansResponse,
    rest: {
      method: "GET",
      path: "/runs/{id}/spans",
      summary:
        "The run's trace spans, oldest first (nest them by parentSpanId); `truncated` when it has more than `limit`",
      query: runSpansQuery,
      status: 200,
      description: "Spans",
    },
  }),
  toolCalls: operation({
    kind: "query",
    access: "team",
    input: runId.extend(runToolCallsQuery.shape),
    output: runToolCallsResponse,
    rest: {
      method: "GET",
      path: "/runs/{id}/tool-calls",
      summary: "The run's tool calls (every step's) in the order they started, a page at a time",
      query: runToolCallsQuery,
      joinRepeated: true,
      status: 200,
      description: "A page of tool calls and where the next starts",
    },
  }),
  events: operation({
    kind: "query",
    access: "team",
    input: runEventsInput,
    output: runEventsResponse,
    rest: {
      only: "the run page polls stored events; over REST, GET /runs/{id}/events streams them (runs.eventStream)",
    },
  }),
  eventStream: operation({
    kind: "query",
    access: "team",
    input: runId.extend(runEventsQuery.shape),
    output: runEventStream,
    trpc: {
      only: "a Server-Sent Events stream, resumable with Last-Event-ID; the dashboard polls runs.events",
    },
    rest: {
      method: "GET",
      path: "/runs/{id}/events",
      summary:
        "The run's events as Server-Sent Events (text/event-stream): every stored event with `id: <seq>` and its type as the event name (`event: run.started`); reconnect with Last-Event-ID (or ?after=<seq>) to get exactly the rest; the stream ends with `event: end` when the run has ended, or when the token no longer holds (checked every few seconds)",
      query: runEventsQuery,
      joinRepeated: true,
      status: 200,
      description: "An event stream",
      mediaType: "text/event-stream",
    },
  }),
  logs: operation({
    kind: "query",
    access: "team",
    input: runId,
    output: runLogLine,
    trpc: { only: "a download (NDJSON attachment), which the dashboard links to" },
    rest: {
      method: "GET",
      path: "/runs/{id}/logs",
      summary:
        "Download the run's logs: NDJSON lines for the run, each step attempt's output and every stored event (Content-Disposition: attachment)",
      status: 200,
      description: "The logs, as an attachment",
      mediaType: "application/x-ndjson",
    },
  }),
  stepActivity: operation({
    kind: "query",
    access: "team",
    input: stepActivityInput,
    output: stepActivityResponse,
    rest: {
      method: "GET",
      path: "/runs/{id}/steps/{stepId}/activity",
      params: { id: "runId", stepId: "stepRunId" },
      summary:
        "What an agent step did so far: its tool calls by start and its text, retries, usage, answer and errors in order (the latest ones when there are many)",
      status: 200,
      description: "The step's activity",
    },
  }),
};
