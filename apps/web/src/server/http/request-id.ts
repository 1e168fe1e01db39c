/**
 * The one place an API request is given its id: the caller's own `x-request-id` when it is
 * a sane token, else a new one (see packages/core/src/context). Whatever the request writes
 * (audit entries) names it, and its answer carries it back in `x-request-id`, so a client
 * can quote it and an operator find the request in the log. Every route under /api serves
 * through here, and so do the proxy's own answers (a path Next.js cannot decode).
 */
import { requestIdOf, withRequestId } from "@switchyard/core/context";

const HEADER = "x-request-id";

/** `res` carrying `id` (a copy when its headers may not change, as a redirect's may not). */
const stamped = (res: Response, id: string) => {
  try {
    res.headers.set(HEADER, id);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.set(HEADER, id);
    return copy;
  }
};

/** Serves `req` with `serve` under the request's id, and puts the id on the answer. */
export const servedWithRequestId = async (
  req: Request,
  serve: () => Promise<Response>,
): Promise<Response> => {
  const id = requestIdOf(req.headers);
  return stamped(await withRequestId(id, serve), id);
};
