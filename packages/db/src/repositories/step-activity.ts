/**
 * What one agent attempt did, as the run page reads it while the attempt runs: the step run
 * itself, its latest tool calls and its latest `agent.event` rows. Team-scoped; a step run
 * is found only through the run it belongs to. Lists keep the newest rows when a step has
 * more than the caller wants, and say so.
 */
import type { Db } from "../client";

/** The newest `limit` rows, oldest first, and whether older rows were left out. */
type LatestRows<T> = { rows: T[]; truncated: boolean };

const latest = <T>(newestFirst: T[], limit: number): LatestRows<T> => ({
  rows: newestFirst.slice(0, limit).reverse(),
  truncated: newestFirst.length > limit,
});

/** The step run, when it is an attempt of that run of the team. */
export const findStepRunOfRun = (db: Db, teamId: string, runId: string, stepRunId: string) =>
  db.stepRun.findFirst({ where: { id: stepRunId, runId, teamId } });

/** The step run's latest tool calls, in the order they started. */
export const listLatestStepToolCalls = async (
  db: Db,
  teamId: string,
  stepRunId: string,
  limit: number,
) =>
  latest(
    await db.toolCall.findMany({
      where: { teamId, stepRunId },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      take: limit + 1,
    }),
    limit,
  );

/** The step run's latest `agent.event` rows whose event is of one of `types`, in order. */
export const listLatestStepAgentEvents = async (
  db: Db,
  teamId: string,
  runId: string,
  stepRunId: string,
  options: { types: readonly string[]; limit: number },
) =>
  latest(
    await db.runEvent.findMany({
      where: {
        teamId,
        runId,
        type: "agent.event",
        AND: [
          { payload: { path: ["stepRunId"], equals: stepRunId } },
          {
            OR: options.types.map((type) => ({
              payload: { path: ["event", "type"], equals: type },
            })),
          },
        ],
      },
      orderBy: { seq: "desc" },
      take: options.limit + 1,
      select: { seq: true, createdAt: true, payload: true },
    }),
    options.limit,
  );
