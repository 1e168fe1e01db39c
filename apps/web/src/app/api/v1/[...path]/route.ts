import { env } from "~/env";
import { handleRest } from "~/server/rest/rest-api";
import { db, egress, keyring, publish, redis, runQueue } from "~/server/services";

const handler = async (req: Request, { params }: { params: Promise<{ path: string[] }> }) => {
  const { path } = await params;
  return handleRest(
    {
      db: db(),
      queue: runQueue,
      prefix: env().SWITCHYARD_QUEUE_PREFIX,
      publish,
      keyring,
      redis,
      egress,
    },
    req,
    `/${path.join("/")}`,
  );
};

// PATCH and OPTIONS too, so they are answered by the route table (405 with Allow, or what is allowed) and not by Next.js.
export {
  handler as GET,
  handler as POST,
  handler as PUT,
  handler as DELETE,
  handler as PATCH,
  handler as OPTIONS,
};
