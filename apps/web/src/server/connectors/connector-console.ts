/**
 * The connector console: an admin calls one tool of a connector by hand and sees the
 * result. The web app holds no connector process or credential, so the call goes to a
 * worker as a job on the connector-call queue and the answer comes back through it (a
 * minute at most). Before anything is audited or queued the call is checked as the worker
 * would check it: the team's connector, enabled, open to the lane, a command that may run,
 * and the account it would use connected. The call is an audit entry (connector, tool,
 * lane; never arguments).
 */
import { Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import { AppError, isErrorCode } from "@switchyard/core/errors";
import {
  CONNECTOR_CALL_QUEUE,
  connectorCallResultSchema,
  type ConnectorCallJob,
  type ConnectorCallResult,
} from "@switchyard/core/runs";
import {
  needsCredential,
  parseConnectorDefinition,
  reconnectRefusal,
} from "@switchyard/core/connectors";
import { mayReachConnector } from "@switchyard/core/policy";
import {
  connectorDefinitionOf,
  findConnector,
  recordAudit,
  TEAM_OWNER,
  type Db,
} from "@switchyard/db";
import { requireRole } from "../trpc/init";
import { checkCommand, type ConnectorActor, type ConnectorRules } from "./connector-operations";

const ANSWER_WITHIN_MS = 60_000;

/** `rules`: the installation's connector rules, which a call by hand obeys as a saved connector does. */
export type ConsoleServices = { db: Db; redis: Redis; prefix: string; rules: ConnectorRules };

/** Refuses a call the worker would refuse, with its code; another team's connector is NOT_FOUND, as a missing one. */
const checkCallable = async (
  db: Db,
  actor: ConnectorActor,
  id: string,
  lane: string,
  rules: ConnectorRules,
) => {
  const row = await findConnector(db, actor.teamId, id);
  if (!row)
    throw new AppError("NOT_FOUND", `the team has no connector "${id}"`, {
      location: { path: "id" },
    });
  const unreachable = mayReachConnector(row, id, lane);
  if (unreachable) throw unreachable;
  const def = parseConnectorDefinition(connectorDefinitionOf(row));
  checkCommand(def, rules);
  if (!needsCredential(def)) return;
  const owner = def.credential_mode === "member" ? actor.userId : TEAM_OWNER;
  const credential = row.credentials.find((c) => c.owner === owner);
  if (!credential)
    throw new AppError(
      "USER.CONNECTOR.NOT_CONNECTED",
      owner === TEAM_OWNER
        ? `connector "${id}" has no credential: set it first`
        : `connector "${id}" uses each member's own account, and you have not connected yours`,
    );
  if (credential.status === "needs_reconnect")
    throw reconnectRefusal(id, credential.reconnectReason);
};

export const callConnectorTool = async (
  services: ConsoleServices,
  actor: ConnectorActor,
  input: { id: string; tool: string; arguments: Record<string, unknown>; lane?: string },
): Promise<ConnectorCallResult> => {
  requireRole("admin", actor.role);
  await checkCallable(services.db, actor, input.id, input.lane ?? "operator", services.rules);
  const job: ConnectorCallJob = {
    teamId: actor.teamId,
    userId: actor.userId,
    connector: input.id,
    tool: input.tool,
    arguments: input.arguments,
    lane: input.lane ?? "operator",
  };
  await recordAudit(services.db, {
    teamId: actor.teamId,
    actorUserId: actor.userId,
    action: "connector.console.call",
    targetType: "connector",
    targetId: input.id,
    metadata: { tool: input.tool, lane: job.lane },
  });
  const connection = services.redis.duplicate({ maxRetriesPerRequest: null });
  const queue = new Queue<ConnectorCallJob>(CONNECTOR_CALL_QUEUE, {
    connection,
    prefix: services.prefix,
  });
  const events = new QueueEvents(CONNECTOR_CALL_QUEUE, {
    connection: services.redis.duplicate({ maxRetriesPerRequest: null }),
    prefix: services.prefix,
  });
  try {
    await events.waitUntilReady();
    const added = await queue.add("call", job, { removeOnComplete: true, removeOnFail: true });
    const answer: unknown = await added
      .waitUntilFinished(events, ANSWER_WITHIN_MS)
      .catch((error: Error) => {
        if (/timed out/i.test(error.message))
          throw new AppError(
            "EXECUTION.CONNECTOR_UNAVAILABLE",
            "no worker answered the call within a minute: is a worker running?",
            { retryable: true },
          );
        // The worker's refusal keeps its code: "USER.CONNECTOR.NOT_CONNECTED: …".
        const coded = /^([A-Z][A-Z_.]+): ([\s\S]*)$/.exec(error.message);
        if (coded && isErrorCode(coded[1]!)) throw new AppError(coded[1], coded[2]!);
        throw new AppError("EXECUTION.CONNECTOR_FAILED", error.message);
      });
    return connectorCallResultSchema.parse(answer);
  } finally {
    await events.close().catch(() => undefined);
    await queue.close().catch(() => undefined);
    connection.disconnect();
  }
};
