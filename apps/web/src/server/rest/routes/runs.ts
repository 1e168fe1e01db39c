/**
 * The run routes of the REST API: starting a workflow (with Idempotency-Key), the run list
 * with the dashboard's filters and cursor, a run, its steps, tool calls (paged), spans, logs
 * and events (SSE, resumable with Last-Event-ID), cancel and re-run. Reading needs any role;
 * starting, re-running and cancelling are decided by the lane policy inside each operation.
 */
import { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import { getRun, listRunSpans, listRunToolCalls, runStatusOf } from "@switchyard/db";
import {
  cancelRunResponse,
  idempotencyKey,
  runEventsQuery,
  runEventStream as runEventStreamSchema,
  runListQuery,
  runListResponse,
  runLogLine,
  runResponse,
  runSpansQuery,
  runSpansResponse,
  runToolCallsQuery,
  runToolCallsResponse,
  startRunBody,
  startRunResponse,
  stepActivityResponse,
  stepRun,
} from "../../contract/runs.types";
import { cancelRun } from "../../runs/cancel-run";
import { readRunList } from "../../runs/list-runs";
import { rerunRun } from "../../runs/rerun-run";
import { runEventStream, resumeSeq } from "../../runs/run-event-stream";
import { runLogResponse } from "../../runs/run-log";
import { runUpdates } from "../../runs/run-updates";
import { startRun } from "../../runs/start-run";
import { readStepActivity } from "../../runs/step-activity";
import { answer, parse, reply, routeFinder, type Route } from "../route-kit";

/** Query parameters as one object; a repeated one (status=a&status=b) is joined with commas. */
const queryObject = (query: URLSearchParams) => () =>
  Promise.resolve(Object.fromEntries([...new Set(query.keys())].map((key) => [key, query.getAll(key).join(",")])));

const mustExist = async (deps: { db: Parameters<typeof runStatusOf>[0] }, teamId: string, runId: string) => {
  if ((await runStatusOf(deps.db, teamId, runId)) === null) throw new AppError("NOT_FOUND", "run not found");
};

export const runRoutes: Route[] = [
  {
    method: "POST",
    path: "/workflows/{id}/runs",
    summary:
      "Start a run of the workflow (its current version, or versionId); it is queued, read it with GET /runs/{id}. With an Idempotency-Key header, a retry of the same request answers 200 with the first run and starts nothing",
    body: startRunBody,
    status: 202,
    description: "Queued",
    otherSuccess: { 200: "The run an earlier request with the same Idempotency-Key started; nothing new started" },
    response: startRunResponse,
    errors: { 422: "The Idempotency-Key was used for another request (USER.IDEMPOTENCY_KEY_REUSED)" },
    handler: async ({ deps, caller, params, body, headers }) => {
      const { inputs, versionId } = await parse(startRunBody, body);
      const rawKey = headers.get("idempotency-key");
      const key = rawKey === null ? undefined : idempotencyKey.safeParse(rawKey);
      if (key && !key.success) throw new AppError("BAD_REQUEST", `Idempotency-Key: ${key.error.issues[0]?.message ?? "invalid"}`, { location: { path: "Idempotency-Key" } });
      const run = await startRun(
        { db: deps.db, queue: deps.queue() },
        { teamId: caller.teamId, userId: caller.userId, role: caller.role, workflowId: params[0]!, versionId, inputs, trigger: "api", idempotencyKey: key?.data },
      );
      return reply(run.replayed ? 200 : 202, startRunResponse.parse({ id: run.id, status: run.status }));
    },
  },
  {
    method: "GET",
    path: "/runs",
    summary: "The team's runs, newest first, a page at a time, narrowed by status, workflow, lane, trigger, starter and time; with counts per status under the same filters",
    query: runListQuery,
    status: 200,
    description: "A page of runs, the cursor of the next, and counts per status",
    response: runListResponse,
    handler: async ({ deps, caller, query }) => answer(routeOf("GET", "/runs"), await readRunList(deps.db, caller.teamId, await parse(runListQuery, queryObject(query)))),
  },
  {
    method: "GET",
    path: "/runs/{id}",
    summary: "A run with its steps, inputs and outputs, who or what started it, and the run it re-ran",
    status: 200,
    description: "The run",
    response: runResponse,
    handler: async ({ deps, caller, params }) => {
      const run = await getRun(deps.db, caller.teamId, params[0]!);
      if (!run) throw new AppError("NOT_FOUND", "run not found");
      return reply(200, { ...run, workflow: run.workflow.name });
    },
  },
  {
    method: "POST",
    path: "/runs/{id}/cancel",
    summary: "Cancel a queued or running run",
    status: 202,
    description: "Cancelled or cancelling",
    response: cancelRunResponse,
    errors: { 409: "The run has already ended (CONFLICT)" },
    handler: async ({ deps, caller, params }) =>
      answer(
        routeOf("POST", "/runs/{id}/cancel"),
        await cancelRun({ db: deps.db, queue: deps.queue(), prefix: deps.prefix, publish: deps.publish }, { teamId: caller.teamId, role: caller.role, runId: params[0]! }),
      ),
  },
  {
    method: "POST",
    path: "/runs/{id}/rerun",
    summary: "Start the run's workflow version again with the same inputs, as a new run that names this one (rerunOfId); needs what starting the workflow needs",
    status: 202,
    description: "The new run, queued",
    response: startRunResponse,
    handler: async ({ deps, caller, params }) => {
      const run = await rerunRun({ db: deps.db, queue: deps.queue() }, { teamId: caller.teamId, userId: caller.userId, role: caller.role, runId: params[0]!, trigger: "api" });
      return answer(routeOf("POST", "/runs/{id}/rerun"), { id: run.id, status: run.status });
    },
  },
  {
    method: "GET",
    path: "/runs/{id}/steps",
    summary: "The run's step attempts in the order they started, with their output",
    status: 200,
    description: "Steps",
    response: z.object({ steps: z.array(stepRun) }),
    handler: async ({ deps, caller, params }) => {
      const run = await getRun(deps.db, caller.teamId, params[0]!);
      if (!run) throw new AppError("NOT_FOUND", "run not found");
      return reply(200, { steps: run.steps });
    },
  },
  {
    method: "GET",
    path: "/runs/{id}/steps/{stepId}/activity",
    summary: "What an agent step did so far: its tool calls by start and its text, retries, usage, answer and errors in order (the latest ones when there are many)",
    status: 200,
    description: "The step's activity",
    response: stepActivityResponse,
    handler: async ({ deps, caller, params }) =>
      answer(routeOf("GET", "/runs/{id}/steps/{stepId}/activity"), await readStepActivity(deps.db, { teamId: caller.teamId, runId: params[0]!, stepRunId: params[1]! })),
  },
  {
    method: "GET",
    path: "/runs/{id}/tool-calls",
    summary: "The run's tool calls (every step's) in the order they started, a page at a time",
    query: runToolCallsQuery,
    status: 200,
    description: "A page of tool calls and where the next starts",
    response: runToolCallsResponse,
    handler: async ({ deps, caller, params, query }) => {
      await mustExist(deps, caller.teamId, params[0]!);
      const { after, limit, stepRunId } = await parse(runToolCallsQuery, queryObject(query));
      return answer(routeOf("GET", "/runs/{id}/tool-calls"), await listRunToolCalls(deps.db, caller.teamId, params[0]!, { after, take: limit, stepRunId }));
    },
  },
  {
    method: "GET",
    path: "/runs/{id}/spans",
    summary: "The run's trace spans, oldest first (nest them by parentSpanId); `truncated` when it has more than `limit`",
    query: runSpansQuery,
    status: 200,
    description: "Spans",
    response: runSpansResponse,
    handler: async ({ deps, caller, params, query }) => {
      await mustExist(deps, caller.teamId, params[0]!);
      const { limit } = runSpansQuery.parse(Object.fromEntries(query));
      return answer(routeOf("GET", "/runs/{id}/spans"), await listRunSpans(deps.db, caller.teamId, params[0]!, limit));
    },
  },
  {
    method: "GET",
    path: "/runs/{id}/events",
    summary:
      "The run's events as Server-Sent Events (text/event-stream): every stored event with `id: <seq>` and its type as the event name (`event: run.started`); reconnect with Last-Event-ID (or ?after=<seq>) to get exactly the rest; the stream ends with `event: end` when the run has ended, or when the token no longer holds (checked every few seconds)",
    query: runEventsQuery,
    status: 200,
    description: "An event stream",
    response: runEventStreamSchema,
    mediaType: "text/event-stream",
    handler: async ({ deps, caller, reauthenticate, params, query, headers, signal }) => {
      await mustExist(deps, caller.teamId, params[0]!);
      const { after } = await parse(runEventsQuery, queryObject(query));
      return runEventStream({
        db: deps.db,
        teamId: caller.teamId,
        runId: params[0]!,
        after: resumeSeq(headers, after),
        signal,
        listen: liveUpdates(),
        access: async () =>
          (await reauthenticate())?.teamId === caller.teamId
            ? undefined
            : new AppError("UNAUTHORIZED", "the API token no longer holds: revoked, expired, or its member is no longer in the team"),
      });
    },
  },
  {
    method: "GET",
    path: "/runs/{id}/logs",
    summary: "Download the run's logs: NDJSON lines for the run, each step attempt's output and every stored event (Content-Disposition: attachment)",
    status: 200,
    description: "The logs, as an attachment",
    response: runLogLine,
    mediaType: "application/x-ndjson",
    handler: async ({ deps, caller, params }) => runLogResponse(deps.db, caller.teamId, params[0]!),
  },
];

/** The web process's run-change notices, when its environment has them; streams poll either way. */
const liveUpdates = () => {
  try {
    const updates = runUpdates();
    return (runId: string, onChange: () => void) => updates.listen(runId, onChange);
  } catch {
    return undefined;
  }
};

const routeOf = routeFinder(runRoutes);
