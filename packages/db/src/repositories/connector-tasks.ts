/**
 * The MCP tasks long connector calls run as, kept so that neither the agent CLI giving up on
 * a call nor a worker restart loses one: a later call of the same run, connector, tool and
 * arguments follows the open task instead of starting another, and a cancelled run's open
 * tasks are found to cancel at their servers. Every query is scoped to the team.
 */
import { rawQuery, type Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";

type ConnectorTaskKey = {
  teamId: string;
  runId: string | null;
  connectorSlug: string;
  owner: string;
  tool: string;
  argsHash: string;
};

type ConnectorTaskState = {
  status: string;
  statusMessage?: string | null;
  pollIntervalMs?: number | null;
  expiresAt?: Date | null;
};

type OpenConnectorTask = {
  id: string;
  taskId: string;
  connectorSlug: string;
  owner: string;
  status: string;
  pollIntervalMs: number | null;
  expiresAt: Date | null;
};

/** Statuses after which a task changes no more. */
/** The statuses of a task that has ended at its server. */
export const CONNECTOR_TASK_ENDED = ["completed", "failed", "cancelled", "expired"];
const ENDED = CONNECTOR_TASK_ENDED;

const openSelect = {
  id: true,
  taskId: true,
  connectorSlug: true,
  owner: true,
  status: true,
  pollIntervalMs: true,
  expiresAt: true,
} as const;

/** Ended with a result at the server (the tool's, or its error) that a call may still fetch. */
const WITH_RESULT = ["completed", "failed"];

/**
 * The newest task of this call (same run, connector, account, tool and arguments) that its
 * server still keeps and that has not ended, or has ended with a result no call has taken
 * yet (a worker that took over the run followed it to its end); undefined when there is
 * none. A call made in the console (no run) never follows another.
 */
export const openConnectorTaskFor = async (
  db: Db,
  key: ConnectorTaskKey,
  now: Date = new Date(),
): Promise<OpenConnectorTask | undefined> => {
  if (key.runId === null) return undefined;
  // A plain statement on the pool: this is read before every connector call.
  const [row] = await rawQuery<OpenConnectorTask>(
    db,
    // Times are kept in UTC without a zone: read back as instants, whatever the host's zone.
    `SELECT id, "taskId", "connectorSlug", owner, status, "pollIntervalMs",
       "expiresAt" AT TIME ZONE 'UTC' AS "expiresAt"
     FROM "ConnectorTask"
     WHERE "teamId" = $1 AND "runId" = $2 AND "connectorSlug" = $3 AND owner = $4 AND tool = $5
       AND "argsHash" = $6
       AND (status <> ALL ($7::text[]) OR (status = ANY ($8::text[]) AND "resultTakenAt" IS NULL))
       AND ("expiresAt" IS NULL OR "expiresAt" > $9::timestamp(3))
     ORDER BY "createdAt" DESC
     LIMIT 1`,
    [
      key.teamId,
      key.runId,
      key.connectorSlug,
      key.owner,
      key.tool,
      key.argsHash,
      ENDED,
      WITH_RESULT,
      now.toISOString(),
    ],
  );
  return row;
};

/** Keeps a task the server just created for a call. */
export const recordConnectorTask = async (
  db: PrismaClientOrTransaction,
  input: ConnectorTaskKey & ConnectorTaskState & { stateName: string; taskId: string },
): Promise<void> => {
  await db.connectorTask.create({ data: { ...input, lastPolledAt: new Date() } });
};

/**
 * What the server last said of a task; a task that has ended is not changed again, except
 * to say (`taken`) that a call got its result, which no later call then follows.
 */
export const updateConnectorTask = async (
  db: PrismaClientOrTransaction,
  key: { teamId: string; connectorSlug: string; owner: string; taskId: string },
  state: ConnectorTaskState,
  taken = false,
): Promise<void> => {
  const now = new Date();
  await db.connectorTask.updateMany({
    where: { ...key, ...(taken ? { resultTakenAt: null } : { status: { notIn: ENDED } }) },
    data: { ...state, lastPolledAt: now, ...(taken ? { resultTakenAt: now } : {}) },
  });
};

/** The tasks of one step of a run that have not ended: what a worker taking the step over follows. */
export const openConnectorTasksOfStep = (
  db: PrismaClientOrTransaction,
  where: { teamId: string; runId: string; stateName: string },
): Promise<OpenConnectorTask[]> =>
  db.connectorTask.findMany({
    where: { ...where, status: { notIn: ENDED } },
    orderBy: { createdAt: "asc" },
    select: openSelect,
  });

/** The run's tasks that have not ended: what cancelling the run cancels at the servers. */
export const openConnectorTasksOfRun = (
  db: PrismaClientOrTransaction,
  teamId: string,
  runId: string,
): Promise<OpenConnectorTask[]> =>
  db.connectorTask.findMany({
    where: { teamId, runId, status: { notIn: ENDED } },
    orderBy: { createdAt: "asc" },
    select: openSelect,
  });

/** Every task of the run, oldest first (for the run's page and tests). */
export const connectorTasksOfRun = (db: PrismaClientOrTransaction, teamId: string, runId: string) =>
  db.connectorTask.findMany({
    where: { teamId, runId },
    orderBy: { createdAt: "asc" },
    select: {
      ...openSelect,
      tool: true,
      stateName: true,
      statusMessage: true,
      lastPolledAt: true,
      resultTakenAt: true,
    },
  });
