/**
 * Answers for the methods a route does not serve. Next.js answers a method a route module
 * does not export itself, with an empty 405 and no request id; a route exports these
 * instead, so the caller gets the project's JSON error (METHOD_NOT_ALLOWED) with `Allow`,
 * and OPTIONS says what is allowed. HEAD comes with GET (Next.js serves it from GET).
 */
import { AppError } from "@switchyard/core/errors";
import { errorAnswer } from "./api-answer";
import { servedWithRequestId } from "./request-id";

type Handler = (req: Request) => Promise<Response>;

const ROUTE_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];

/** What `Allow` says for `methods`: HEAD with GET, and OPTIONS. */
const allowHeader = (methods: readonly string[]) => {
  const allowed = new Set(methods);
  if (allowed.has("GET")) allowed.add("HEAD");
  allowed.add("OPTIONS");
  return [...allowed].sort().join(", ");
};

/** The 405 for `method` on `path`, whose route serves `methods`. */
export const methodNotAllowed = (method: string, path: string, methods: readonly string[]) =>
  errorAnswer(
    new AppError(
      "METHOD_NOT_ALLOWED",
      `${method} is not allowed on ${path}; it answers ${methods.join(", ")}`,
      { details: { allow: [...methods] } },
    ),
    "method check",
    { allow: allowHeader(methods) },
  );

/** OPTIONS: what the route allows, nothing else. */
export const allowedMethods = (methods: readonly string[]) =>
  new Response(null, { status: 204, headers: { allow: allowHeader(methods) } });

/** Handlers for every method besides `served` (OPTIONS included), to export from a route module. */
export const otherMethods = <S extends Exclude<RouteMethod, "OPTIONS">>(served: readonly S[]) =>
  Object.fromEntries(
    ROUTE_METHODS.filter((m) => !(served as readonly string[]).includes(m)).map(
      (m): [RouteMethod, Handler] => [
        m,
        (req) =>
          servedWithRequestId(req, () =>
            Promise.resolve(
              m === "OPTIONS"
                ? allowedMethods(served)
                : methodNotAllowed(req.method, new URL(req.url).pathname, served),
            ),
          ),
      ],
    ),
  ) as Record<Exclude<RouteMethod, S>, Handler>;
