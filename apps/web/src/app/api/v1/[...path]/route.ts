import { env } from "~/env";
import { handleRest } from "~/server/rest/rest-api";
import { db, egress, keyring, publish, redis, runQueue } from "~/server/services";

/**
 * The path after `/api/v1`, as it was sent: Next.js decodes each segment of the catch-all,
 * which would turn `workflows/speckit%2Fspecify/runs` (a pack workflow's name) into four
 * segments. The REST table decodes its parameters itself.
 */
const restPath = (req: Request, path: string[]) =>
  /\/api\/v1(\/.*)$/.exec(new URL(req.url).pathname)?.[1] ??
  `/${path.map(encodeURIComponent).join("/")}`;

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
    restPath(req, path),
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
