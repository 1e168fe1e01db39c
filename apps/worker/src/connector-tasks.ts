/**
 * The worker's side of connector calls run as MCP tasks: each call's task is kept in
 * Postgres as its server reports it, so the same call made again in the run (the agent
 * asking again after its CLI gave up on the call, or the step again after a worker restart)
 * follows the task instead of starting a second one, and when a run ends with tasks still
 * open they are cancelled at their servers (a server no longer reachable keeps its task
 * until its ttl; the row says the run ended). A worker that takes a step over follows the
 * step's open tasks from the start, before the agent calls again: the rows say how they
 * stand, and a task that ended meanwhile gives the call made again its result at once
 * (fetched from the server then: no result is kept).
 */
import type { ToolTask, ToolTaskJournal } from "@switchyard/core/connectors";
import type { McpConnectorHost } from "@switchyard/core/connectors/host";
import { argumentsHash } from "@switchyard/core/governance";
import {
  openConnectorTaskFor,
  openConnectorTasksOfRun,
  openConnectorTasksOfStep,
  recordConnectorTask,
  updateConnectorTask,
  type Db,
} from "@switchyard/db";
import type { Scrubber } from "@switchyard/core/secrets";
import type { Logger } from "./logger";

/** The pool's id of a connector used with an account: the team, the connector and whose credential. */
export const poolId = (teamId: string, slug: string, owner: string) => `${teamId}/${slug}/${owner}`;

/** The parts of a pool id (the slug and owner hold no `/`; the team id none either). */
export const ofPoolId = (id: string) => {
  const [teamId = "", slug = "", owner = ""] = id.split("/");
  return { teamId, slug, owner };
};

type CallKey = {
  teamId: string;
  runId: string | null;
  stateName: string;
  connectorSlug: string;
  owner: string;
  tool: string;
  args: Record<string, unknown>;
};

/** What is kept of the server's word on a task; its message scrubbed of the run's secrets. */
const stateOf = (task: ToolTask, scrub: (text: string) => string) => ({
  status: task.status,
  statusMessage: task.statusMessage === undefined ? null : scrub(task.statusMessage),
  pollIntervalMs: task.pollIntervalMs ?? null,
  expiresAt: task.expiresAt ?? null,
});

/** The journal of one connector call: the open task of the same call to follow, and where its news goes. */
export const connectorTaskJournal = async (
  db: Db,
  scrubber: Scrubber,
  call: CallKey,
): Promise<ToolTaskJournal> => {
  const scrub = (text: string) => scrubber.scrub(text);
  const { args, stateName, ...rest } = call;
  const key = { ...rest, argsHash: argumentsHash(args) };
  const open = await openConnectorTaskFor(db, key);
  const where = { teamId: key.teamId, connectorSlug: key.connectorSlug, owner: key.owner };
  const journal: ToolTaskJournal = {
    ...(open ? { follow: open.taskId } : {}),
    created: async (task) => {
      await recordConnectorTask(db, {
        ...key,
        stateName,
        taskId: task.taskId,
        ...stateOf(task, scrub),
      });
      // The call made again with this journal (a retry with a wider scope) follows this task
      // instead of running the tool a second time.
      journal.follow = task.taskId;
    },
    observed: (task) =>
      updateConnectorTask(db, { ...where, taskId: task.taskId }, stateOf(task, scrub)),
    taken: (task) =>
      updateConnectorTask(db, { ...where, taskId: task.taskId }, stateOf(task, scrub), true),
  };
  return journal;
};

/**
 * Follows, in the background, the open tasks an earlier attempt of this step started (a
 * worker that died while it polled them), until each ends or `signal` (the step's end)
 * stops it. Never throws: a task not followed now is followed when the agent calls again.
 */
export const watchStepConnectorTasks = async (
  deps: { db: Db; log: Logger; pool: McpConnectorHost; scrubber: Scrubber },
  step: { teamId: string; runId: string; stateName: string },
  signal: AbortSignal,
): Promise<void> => {
  const scrub = (text: string) => deps.scrubber.scrub(text);
  const open = await openConnectorTasksOfStep(deps.db, step).catch(() => []);
  await Promise.all(
    open.map((task) => {
      const where = {
        teamId: step.teamId,
        connectorSlug: task.connectorSlug,
        owner: task.owner,
        taskId: task.taskId,
      };
      return deps.pool
        .watchTask(
          poolId(step.teamId, task.connectorSlug, task.owner),
          task.taskId,
          (now) => updateConnectorTask(deps.db, where, stateOf(now, scrub)),
          signal,
        )
        .catch((error: unknown) => {
          if (signal.aborted) return;
          deps.log.warn("an open connector task of the step could not be followed", {
            runId: step.runId,
            connector: task.connectorSlug,
            error: scrub(error instanceof Error ? error.message : String(error)),
          });
        });
    }),
  );
};

/**
 * Cancels the run's open tasks at their servers (through the pool, where this worker still
 * has the connector) and marks them cancelled. Never throws: a run ends whatever its tasks do.
 */
export const cancelRunConnectorTasks = async (
  deps: { db: Db; log: Logger; pool: McpConnectorHost | undefined },
  teamId: string,
  runId: string,
): Promise<void> => {
  const open = await openConnectorTasksOfRun(deps.db, teamId, runId).catch(() => []);
  for (const task of open) {
    const where = {
      teamId,
      connectorSlug: task.connectorSlug,
      owner: task.owner,
      taskId: task.taskId,
    };
    const told = await deps.pool
      ?.cancelTask(
        poolId(teamId, task.connectorSlug, task.owner),
        task.taskId,
        AbortSignal.timeout(10_000),
      )
      .then(
        () => true,
        (error: unknown) => {
          deps.log.warn("a connector task of an ended run could not be cancelled", {
            runId,
            connector: task.connectorSlug,
            error: error instanceof Error ? error.message : String(error),
          });
          return false;
        },
      );
    await updateConnectorTask(deps.db, where, {
      status: "cancelled",
      statusMessage: told ? "the run ended" : "the run ended; its server was not reached",
    }).catch(() => undefined);
  }
};
