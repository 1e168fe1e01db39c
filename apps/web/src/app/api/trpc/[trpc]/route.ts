import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { env } from "~/env";
import { auth } from "~/server/auth/auth";
import { db, keyring, publish, redis, runQueue } from "~/server/services";
import { appRouter } from "~/server/trpc/root";

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async () => {
      const session = await auth();
      return {
        db: db(),
        queue: runQueue,
        queuePrefix: env().SWITCHYARD_QUEUE_PREFIX,
        publish,
        redis,
        keyring,
        userId: session?.user.id,
        teamId: session?.teamId,
      };
    },
  });

export { handler as GET, handler as POST };
