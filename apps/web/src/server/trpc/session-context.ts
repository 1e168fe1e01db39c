/**
 * The tRPC context of a signed-in browser: the session's user and team and the services. The
 * `/api/trpc` route and the pages that fetch on the server (see trpc/server.ts) both use it.
 */
import { env } from "~/env";
import { auth } from "~/server/auth/auth";
import { withCheckedMembership } from "~/server/auth/session-token";
import { db, egress, keyring, publish, redis, runQueue } from "~/server/services";
import type { TrpcContext } from "./init";

export const sessionContext = async (): Promise<TrpcContext> => {
  const { value: session, membership } = await withCheckedMembership(() => auth());
  const userId = session?.user.id;
  return {
    db: db(),
    queue: runQueue,
    queuePrefix: env().SWITCHYARD_QUEUE_PREFIX,
    publish,
    redis,
    keyring,
    egress,
    userId,
    teamId: session?.teamId,
    // What the session's check just read, when it is the session's own.
    ...(membership && membership.userId === userId && membership.teamId === session?.teamId
      ? { membership }
      : {}),
  };
};
