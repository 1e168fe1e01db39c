/**
 * The tRPC context of a signed-in browser: the session's user and team and the services. The
 * `/api/trpc` route and the pages that fetch on the server (see trpc/server.ts) both use it.
 */
import { env } from "~/env";
import { auth } from "~/server/auth/auth";
import { db, egress, keyring, publish, redis, runQueue } from "~/server/services";
import type { TrpcContext } from "./init";

export const sessionContext = async (): Promise<TrpcContext> => {
  const session = await auth();
  return {
    db: db(),
    queue: runQueue,
    queuePrefix: env().SWITCHYARD_QUEUE_PREFIX,
    publish,
    redis,
    keyring,
    egress,
    userId: session?.user.id,
    teamId: session?.teamId,
  };
};
