/**
 * The MCP tasks long connector calls run as, kept so that neither the agent CLI giving up on
 * a call nor a worker restart loses one: a later call of the same run, connector, tool and
 * arguments follows the open task instead of starting another, and a cancelled run's open
 * tasks are found to cancel at their servers. Every query is scoped to the team.
 */
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
const ENDED = ["completed", "failed", "cancelled", "expired"];

const openSelect = {
  id: true,
  taskId: true,
  connectorSlug: true,
  owner: true,
  status: true,
  pollIntervalMs: true,
  expiresAt: true,
} as const;

/**
 * The newest task of this call (same run, connector, account, tool and arguments) that has
 * not ended and that its server still keeps; undefined when there is none. A call made in
 * the console (no run) never follows another.
 */
export const openConnectorTaskFor = async (
  db: PrismaClientOrTransaction,
  key: ConnectorTaskKey,
  now: Date = new Date(),
): Promise<OpenConnectorTask | undefined> => {
  if (key.runId === null) return undefined;
  const row = await db.connectorTask.findFirst({
    where: {
      ...key,
      status: { notIn: ENDED },
      OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
    },
    orderBy: { createdAt: "desc" },
    select: openSelect,
  });
  return row ?? undefined;
};

/** Keeps a task the server just created for a call. */
export const recordConnectorTask = async (
  db: PrismaClientOrTransaction,
  input: ConnectorTaskKey & ConnectorTaskState & { stateName: string; taskId: string },
): Promise<void> => {
  await db.connectorTask.create({ data: { ...input, lastPolledAt: new Date() } });
};

/** What the server last said of a task; a task that has ended is not changed again. */
export const updateConnectorTask = async (
  db: PrismaClientOrTransaction,
  key: { teamId: string; connectorSlug: string; owner: string; taskId: string },
  state: ConnectorTaskState,
): Promise<void> => {
  await db.connectorTask.updateMany({
    where: { ...key, status: { notIn: ENDED } },
    data: { ...state, lastPolledAt: new Date() },
  });
};

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
    select: { ...openSelect, tool: true, stateName: true, statusMessage: true, lastPolledAt: true },
  });
