/**
 * What runs each replay operation (contract/replay.types.ts) and the agent versions the
 * replay form lists.
 */
import { listReplaySuites } from "@switchyard/db";
import { AppError } from "@switchyard/core/errors";
import { getWorkflow } from "@switchyard/db";
import { agentOperations, replayOperations } from "../contract/replay.types";
import { implement } from "../api/implement";
import { agentVersions } from "./agent-versions";
import { readComparison } from "./read-comparison";
import { readReplaySuite, startReplaySuite } from "./replay-suites";
import { startReplay } from "./start-replay";
import type { ReplayChangesInput } from "./start-replay";

const changesOf = <T extends ReplayChangesInput>({
  provider,
  model,
  agentVersion,
  prompt,
  unmatched,
}: T): ReplayChangesInput => ({
  ...(provider === undefined ? {} : { provider }),
  ...(model === undefined ? {} : { model }),
  ...(agentVersion === undefined ? {} : { agentVersion }),
  ...(prompt === undefined ? {} : { prompt }),
  ...(unmatched === undefined ? {} : { unmatched }),
});

export const replayApi = implement(replayOperations, {
  start: async ({ db, queue, caller }, input) => {
    const run = await startReplay({ db, queue: queue() }, caller, {
      runId: input.runId,
      stepRunId: input.stepRunId,
      changes: changesOf(input),
    });
    return { id: run.id, status: run.status };
  },
  compare: ({ db, caller }, input) => readComparison(db, caller.teamId, input),
  suiteStart: ({ db, queue, caller }, input) =>
    startReplaySuite({ db, queue: queue() }, caller, {
      workflowId: input.workflowId,
      changes: changesOf(input),
    }),
  suiteList: async ({ db, caller }, input) => {
    if (!(await getWorkflow(db, caller.teamId, input.workflowId)))
      throw new AppError("NOT_FOUND", "workflow not found");
    const suites = await listReplaySuites(db, caller.teamId, input.workflowId);
    return {
      suites: suites.map((suite) => ({
        id: suite.id,
        options: suite.options as ReplayChangesInput,
        createdAt: suite.createdAt,
        replays: suite._count.runs,
      })),
    };
  },
  suiteShow: ({ db, caller }, input) => readReplaySuite(db, caller.teamId, input.id),
});

export const agentsApi = implement(agentOperations, {
  versions: ({ redis, prefix }) => agentVersions(redis(), prefix),
});
