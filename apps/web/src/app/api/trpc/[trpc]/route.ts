import { env } from "~/env";
import { auth } from "~/server/auth/auth";
import { db, egress, keyring, publish, redis, runQueue } from "~/server/services";
import { otherMethods } from "~/server/http/other-methods";
import { handleTrpc } from "~/server/trpc/handle-trpc";

const handler = (req: Request) =>
  handleTrpc(req, async () => {
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
  });

export { handler as GET, handler as POST };
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods(["GET", "POST"]);
