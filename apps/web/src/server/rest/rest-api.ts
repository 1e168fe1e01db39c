/**
 * The REST API under /api/v1: the same operations as the dashboard's procedures, for
 * scripts and CI, authenticated by an API token that acts as one member of one team. The
 * routes are the operation table's (api/api-table.ts, declared in contract/<area>.types.ts);
 * this module finds a request's route, checks its token, path and query, and answers.
 * Errors are `{ error: { code, message, location?, details? } }` with the HTTP status of
 * the code's row in the error table.
 */
import { AppError } from "@switchyard/core/errors";
import { authenticateApiToken } from "@switchyard/db";
import { errorAnswer } from "../http/api-answer";
import { BODY_LIMITS, withBodyLimit } from "../http/body-limit";
import { allowedMethods, methodNotAllowed } from "../http/other-methods";
import { servedWithRequestId } from "../http/request-id";
import { assertStorableText } from "../http/storable-text";
import { areaRoutes } from "../api/api-table";
import { buildOpenApiDocument, type RestOperation } from "./openapi";
import { parse, reply, type RestDeps, type Route } from "./route-kit";

export type { RestDeps } from "./route-kit";

const routes: Route[] = areaRoutes;

/** `/runs/{id}` → a pattern that captures the id. */
const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .split("/")
      .map((segment) =>
        segment.startsWith("{") ? "([^/]+)" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/")}$`,
  );
const compiled = routes.map((route) => ({ route, pattern: patternOf(route.path) }));

/** What each route is, for the document and its test. */
export const restOperations: readonly RestOperation[] = routes;

/** The document served at /openapi.json, generated from the routes above. */
export const openApiDocument = buildOpenApiDocument(routes);

const readJson = (req: Request) => async () => {
  const text = await req.text();
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new AppError("BAD_REQUEST", "the body is not valid JSON");
  }
  assertStorableText(parsed, "body");
  return parsed;
};

/** Served under the request's id (the caller's `x-request-id`, or a new one), which the answer carries back. */
export const handleRest = (deps: RestDeps, req: Request, path: string): Promise<Response> =>
  servedWithRequestId(req, () => serveRest(deps, req, path));

const serveRest = async (deps: RestDeps, req: Request, path: string): Promise<Response> => {
  try {
    if (req.method === "GET" && path === "/openapi.json") return reply(200, openApiDocument);
    const candidates = compiled.filter((r) => r.pattern.test(path));
    if (candidates.length === 0) throw new AppError("NOT_FOUND", `no endpoint ${path}`);
    const methods = [...new Set(candidates.map((c) => c.route.method))];
    if (req.method === "OPTIONS") return allowedMethods(methods);
    const { route, pattern } = candidates.find((r) => r.route.method === req.method) ?? {};
    if (!route || !pattern) return methodNotAllowed(req.method, `/api/v1${path}`, methods);
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
    const authenticate = async () =>
      token ? ((await authenticateApiToken(deps.db, token)) ?? undefined) : undefined;
    const caller = await authenticate();
    if (!caller)
      throw new AppError("UNAUTHORIZED", "send an API token as `Authorization: Bearer sy_...`");
    const params = pattern
      .exec(path)!
      .slice(1)
      .map((p) => {
        try {
          return decodeURIComponent(p);
        } catch {
          throw new AppError("BAD_REQUEST", `${path} is not a valid path`);
        }
      });
    assertStorableText(params, "path");
    const query = new URL(req.url, "http://localhost").searchParams;
    assertStorableText(Object.fromEntries(query), "query");
    // A route's declared query parameters are checked here, so no handler meets one its schema refuses.
    if (route.query) await parse(route.query, () => Promise.resolve(Object.fromEntries(query)));
    return await route.handler({
      deps,
      caller,
      reauthenticate: authenticate,
      params,
      query,
      headers: req.headers,
      signal: req.signal,
      body: readJson(withBodyLimit(req, route.bodyLimit ?? BODY_LIMITS.default)),
    });
  } catch (error) {
    return errorAnswer(error, "REST handler");
  }
};
