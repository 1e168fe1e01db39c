/**
 * What runs each run operation (contract/runs.operations.ts). Over REST a start takes its
 * Idempotency-Key from the header and answers a replay with 200; runs started over REST
 * say so (trigger "api"), the dashboard's say "dashboard".
 */
import { AppError } from "@switchyard/core/errors";
import {
  getRun,
  listRunEventsAfter,
  listRunSpans,
  listRunStarters,
  listRunToolCalls,
  runStatusOf,
  workflowIdOf,
  type Db,
} from "@switchyard/db";
import { startRunResponse } from "../contract/runs.types";
import { runOperations } from "../contract/runs.operations";
import { implement } from "../api/implement";
import { jsonAnswer } from "../http/api-answer";
import { idempotencyKeyHeader } from "../http/idempotency-key-header";
import { cancelRun } from "./cancel-run";
import { readRunList } from "./list-runs";
import { readRunGraph } from "./run-graph";
import { runEventStream, resumeSeq } from "./run-event-stream";
import { runLogResponse } from "./run-log";
import { runUpdates } from "./run-updates";
import { rerunRun } from "./rerun-run";
import { setExample } from "./run-example";
import { startRun } from "./start-run";
import { readStepActivity } from "./step-activity";

const mustExist = async (db: Db, teamId: string, runId: string) => {
  if ((await runStatusOf(db, teamId, runId)) === null)
    throw new AppError("NOT_FOUND", "run not found");
};

const runOf = async (db: Db, teamId: string, runId: string) => {
  const run = await getRun(db, teamId, runId);
  if (!run) throw new AppError("NOT_FOUND", "run not found");
  return run;
};

/** The web process's run-change notices, when its environment has them; streams poll either way. */
const liveUpdates = () => {
  try {
    const updates = runUpdates();
    return (runId: string, onChange: () => void) => updates.listen(runId, onChange);
  } catch {
    return undefined;
  }
};

export const runsApi = implement(runOperations, {
  start: async ({ db, queue, caller, request }, input) => {
    const run = await startRun(
      { db, queue: queue() },
      {
        teamId: caller.teamId,
        userId: caller.userId,
        role: caller.role,
        workflowId: await workflowIdOf(db, caller.teamId, input.workflowId),
        versionId: input.versionId,
        inputs: input.inputs,
        idempotencyKey: request
          ? idempotencyKeyHeader(request.headers.get("idempotency-key"))
          : input.idempotencyKey,
        trigger: request ? "api" : "dashboard",
      },
    );
    const started = { id: run.id, status: run.status };
    return request && run.replayed ? jsonAnswer(200, startRunResponse.parse(started)) : started;
  },
  rerun: async ({ db, queue, caller, request }, input) => {
    const run = await rerunRun(
      { db, queue: queue() },
      {
        teamId: caller.teamId,
        userId: caller.userId,
        role: caller.role,
        runId: input.id,
        trigger: request ? "api" : "dashboard",
      },
    );
    return { id: run.id, status: run.status };
  },
  cancel: ({ db, queue, prefix, publish, caller }, input) =>
    cancelRun(
      { db, queue: queue(), prefix, publish },
      { teamId: caller.teamId, role: caller.role, runId: input.id },
    ),
  markExample: ({ db, caller }, input) => setExample(db, caller, input.id, true),
  unmarkExample: ({ db, caller }, input) => setExample(db, caller, input.id, false),
  get: ({ db, caller }, input) => runOf(db, caller.teamId, input.id),
  steps: async ({ db, caller }, input) => (await runOf(db, caller.teamId, input.id)).steps,
  list: ({ db, caller }, input) => readRunList(db, caller.teamId, input ?? {}),
  graph: ({ db, caller }, input) => readRunGraph(db, caller.teamId, input.id),
  starters: ({ db, caller }) => listRunStarters(db, caller.teamId),
  spans: async ({ db, caller }, input) => {
    await mustExist(db, caller.teamId, input.id);
    return listRunSpans(db, caller.teamId, input.id, input.limit);
  },
  toolCalls: async ({ db, caller }, input) => {
    const page = await listRunToolCalls(db, caller.teamId, input.id, {
      after: input.after,
      take: input.limit,
      stepRunId: input.stepRunId,
    });
    if (!page) throw new AppError("NOT_FOUND", "run not found");
    return page;
  },
  events: async ({ db, caller }, input) => {
    await mustExist(db, caller.teamId, input.id);
    const rows = await listRunEventsAfter(db, caller.teamId, input.id, input.after, input.limit);
    return {
      events: rows.map((e) => ({ seq: e.seq, type: e.type, payload: e.payload, at: e.createdAt })),
      lastSeq: rows[rows.length - 1]?.seq ?? input.after,
    };
  },
  eventStream: async ({ db, caller, request }, input) => {
    if (!request) throw new AppError("BAD_REQUEST", "the event stream is served over REST only");
    await mustExist(db, caller.teamId, input.id);
    return runEventStream({
      db,
      teamId: caller.teamId,
      runId: input.id,
      after: resumeSeq(request.headers, input.after),
      signal: request.signal,
      listen: liveUpdates(),
      access: async () =>
        (await request.reauthenticate())?.teamId === caller.teamId
          ? undefined
          : new AppError(
              "UNAUTHORIZED",
              "the API token no longer holds: revoked, expired, or its member is no longer in the team",
            ),
    });
  },
  logs: ({ db, caller }, input) => runLogResponse(db, caller.teamId, input.id),
  stepActivity: ({ db, caller }, input) =>
    readStepActivity(db, { teamId: caller.teamId, ...input }),
});
