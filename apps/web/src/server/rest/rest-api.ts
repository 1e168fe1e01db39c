/**
 * The REST API under /api/v1: the same operations as the dashboard's procedures, for
 * scripts and CI, authenticated by an API token that acts as one member of one team:
 * workflows, runs, team variables (a secret's lanes), API tokens, the team's model access,
 * connectors and lanes.
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
import { triggerRoutes } from "./routes/triggers";
import { listTokens, revokeToken } from "../tokens/token-operations";
import {
  deleteTeamVariable,
  listTeamVariables,
  secretLanesInput,
  setTeamSecretLanes,
  setTeamVariable,
  variableValueInput,
} from "../variables/variable-operations";
import { deleteVariableResponse, listVariablesResponse, secretLanesResponse, setVariableResponse } from "../contract/variables.types";
import { listTokensResponse, revokeTokenResponse } from "../contract/tokens.types";
import { listModelsResponse, modelAccessResponse, removeModelAccessResponse, setModelAccessBody } from "../contract/models.types";
import { listTeamModelAccess, removeTeamModelAccess, setTeamModelAccess } from "../models/model-operations";
import {
  beginOAuthBody,
  beginOAuthResponse,
  callToolBody,
  callToolResponse,
  connectorListing,
  createConnectorBody,
  credentialResponse,
  listConnectorsResponse,
  removeConnectorResponse,
  revokeCredentialBody,
  revokeCredentialResponse,
  setCredentialBody,
  setUpCuratedBody,
  updateConnectorBody,
} from "../contract/connectors.types";
import { callConnectorTool } from "../connectors/connector-console";
import { beginConnectorOAuth } from "../connectors/connector-oauth";
import { egressOr } from "../egress";
import {
  connectorRulesOf,
  createTeamConnector,
  listTeamConnectors,
  removeTeamConnector,
  revokeTeamConnectorCredential,
  setConnectorCredential,
  setUpCuratedConnector,
  updateTeamConnector,
} from "../connectors/connector-operations";
import { createLaneBody, laneListing, listLanesResponse, removeLaneResponse, updateLaneBody } from "../contract/lanes.types";
import { createTeamLane, listTeamLanes, removeTeamLane, updateTeamLane } from "../lanes/lane-operations";
import { auditListQuery, auditPage } from "../contract/audit.types";
import { listTeamAuditLog } from "../audit/list-audit-log";
import { overviewRoutes } from "./routes/overview";
import { memberRoutes } from "./routes/members";
import { tokenRoutes } from "./routes/tokens";
import { teamRoutes } from "./routes/team";
import { instanceRoutes } from "./routes/instance";
import { runRoutes } from "./routes/runs";
import { workflowRoutes } from "./routes/workflows";
import { buildOpenApiDocument, type RestOperation } from "./openapi";
import { answer, parse, reply, routeFinder, sealingKeyring, type RestDeps, type Route } from "./route-kit";

export type { RestDeps } from "./route-kit";

const coreRoutes: Route[] = [
  {
    method: "GET",
    path: "/variables",
    summary: "The team's variables: plain values, and each secret's lanes (a secret's value is never returned)",
    status: 200,
    description: "Variables",
    response: listVariablesResponse,
    handler: async ({ deps, caller }) => reply(200, { variables: await listTeamVariables(deps.db, caller) }),
  },
  {
    method: "PUT",
    path: "/variables/{name}",
    summary: "Admins: set a variable; a new secret is open to the operator lane only unless lanes are given",
    body: variableValueInput,
    status: 200,
    description: "Set",
    response: setVariableResponse,
    handler: async ({ deps, caller, params, body }) =>
      reply(200, await setTeamVariable(deps.db, sealingKeyring(deps), caller, { ...(await parse(variableValueInput, body)), name: params[0]! })),
  },
  {
    method: "DELETE",
    path: "/variables/{name}",
    summary: "Admins: delete a variable",
    status: 200,
    description: "Deleted",
    response: deleteVariableResponse,
    handler: async ({ deps, caller, params }) => answer(routeOf("DELETE", "/variables/{name}"), await deleteTeamVariable(deps.db, caller, { name: params[0]! })),
  },
  {
    method: "PUT",
    path: "/variables/{name}/lanes",
    summary: "Admins: the lanes whose runs may open a secret",
    body: secretLanesInput,
    status: 200,
    description: "The secret's lanes",
    response: secretLanesResponse,
    handler: async ({ deps, caller, params, body }) =>
      reply(200, await setTeamSecretLanes(deps.db, caller, { ...(await parse(secretLanesInput, body)), name: params[0]! })),
  },
  {
    method: "GET",
    path: "/tokens",
    summary:
      "API tokens with who made each (an admin sees every member's, a member their own): the live ones, then those revoked in the last 30 days with when and why",
    status: 200,
    description: "Tokens",
    response: listTokensResponse,
    handler: async ({ deps, caller }) => reply(200, { tokens: await listTokens(deps.db, caller) }),
  },
  {
    method: "DELETE",
    path: "/tokens/{id}",
    summary: "Revoke a token, and every token made with it: a member their own, an admin anyone's",
    status: 200,
    description: "Revoked",
    response: revokeTokenResponse,
    handler: async ({ deps, caller, params }) => answer(routeOf("DELETE", "/tokens/{id}"), await revokeToken(deps.db, caller, { id: params[0]! })),
  },
  {
    method: "GET",
    path: "/models",
    summary: "How the team's agent steps reach each model vendor: endpoints, and whether a key is set with its last four characters (never the key)",
    status: 200,
    description: "Every vendor, configured or not",
    response: listModelsResponse,
    handler: async ({ deps, caller }) => answer(routeOf("GET", "/models"), { models: await listTeamModelAccess(deps.db, caller) }),
  },
  {
    method: "PUT",
    path: "/models/{vendor}",
    summary: "Admins: set a vendor's API key (write-only) and endpoint, or openai_compatible's allowed endpoints; fields left out keep their value",
    body: setModelAccessBody,
    status: 200,
    description: "The vendor's access as stored",
    response: modelAccessResponse,
    handler: async ({ deps, caller, params, body }) =>
      answer(
        routeOf("PUT", "/models/{vendor}"),
        await setTeamModelAccess(deps.db, sealingKeyring(deps), caller, { ...(await parse(setModelAccessBody, body)), vendor: params[0]! }),
      ),
  },
  {
    method: "DELETE",
    path: "/models/{vendor}",
    summary: "Admins: remove a vendor's access, and its key with it",
    status: 200,
    description: "Removed",
    response: removeModelAccessResponse,
    handler: async ({ deps, caller, params }) => answer(routeOf("DELETE", "/models/{vendor}"), await removeTeamModelAccess(deps.db, caller, { vendor: params[0]! })),
  },
  {
    method: "GET",
    path: "/audit",
    summary: "Admins: the team's audit log, newest first, a page at a time: who changed what, on what, when, and the request that did it",
    query: auditListQuery,
    status: 200,
    description: "A page of entries and the cursor of the next",
    response: auditPage,
    handler: async ({ deps, caller, query }) =>
      answer(routeOf("GET", "/audit"), await listTeamAuditLog(deps.db, caller, await parse(auditListQuery, () => Promise.resolve(Object.fromEntries(query))))),
  },
  {
    method: "GET",
    path: "/connectors",
    summary: "The team's connectors: the curated catalog merged with the team's own, each with its credentials' status (never a value)",
    status: 200,
    description: "Connectors",
    response: listConnectorsResponse,
    handler: async ({ deps, caller }) => answer(routeOf("GET", "/connectors"), { connectors: await listTeamConnectors(deps.db, caller) }),
  },
  {
    method: "POST",
    path: "/connectors",
    summary: "Admins: add a team-authored connector (stdio or http), checked whole; a value that looks like a secret is refused",
    body: createConnectorBody,
    status: 201,
    description: "The connector as stored",
    response: connectorListing,
    errors: { 409: "The id is a curated connector's (CONFLICT)" },
    handler: async ({ deps, caller, body }) => answer(routeOf("POST", "/connectors"), await createTeamConnector(deps.db, caller, await parse(createConnectorBody, body), await connectorRulesOf(deps.db, egressOr(deps.egress)))),
  },
  {
    method: "PUT",
    path: "/connectors/{id}",
    summary: "Admins: replace a connector's definition (enable, disable, lanes, tool rules go this way)",
    body: updateConnectorBody,
    status: 200,
    description: "The connector as stored",
    response: connectorListing,
    handler: async ({ deps, caller, params, body }) =>
      answer(routeOf("PUT", "/connectors/{id}"), await updateTeamConnector(deps.db, caller, { ...(await parse(updateConnectorBody, body)), id: params[0]! }, await connectorRulesOf(deps.db, egressOr(deps.egress)))),
  },
  {
    method: "POST",
    path: "/connectors/{id}/setup",
    summary: "Admins: set up a curated connector for the team with its choices (auth, lanes, rules)",
    body: setUpCuratedBody,
    status: 200,
    description: "The connector as stored",
    response: connectorListing,
    handler: async ({ deps, caller, params, body }) =>
      answer(routeOf("POST", "/connectors/{id}/setup"), await setUpCuratedConnector(deps.db, caller, { ...(await parse(setUpCuratedBody, body)), id: params[0]! }, await connectorRulesOf(deps.db, egressOr(deps.egress)))),
  },
  {
    method: "DELETE",
    path: "/connectors/{id}",
    summary: "Admins: remove a connector and every credential of it",
    status: 200,
    description: "Removed",
    response: removeConnectorResponse,
    handler: async ({ deps, caller, params }) => answer(routeOf("DELETE", "/connectors/{id}"), await removeTeamConnector(deps.db, caller, { id: params[0]! })),
  },
  {
    method: "PUT",
    path: "/connectors/{id}/credential",
    summary: "Set a connector's credential, write-only: the team's (admins), or your own account's where each member uses theirs",
    body: setCredentialBody,
    status: 200,
    description: "What anyone may see of the credential",
    response: credentialResponse,
    handler: async ({ deps, caller, params, body }) =>
      answer(
        routeOf("PUT", "/connectors/{id}/credential"),
        await setConnectorCredential(deps.db, sealingKeyring(deps), caller, { ...(await parse(setCredentialBody, body)), id: params[0]! }),
      ),
  },
  {
    method: "DELETE",
    path: "/connectors/{id}/credential",
    summary: "Revoke a connector's credential: the team's (admins), your own, or (admins) a member's",
    body: revokeCredentialBody,
    status: 200,
    description: "Revoked",
    response: revokeCredentialResponse,
    handler: async ({ deps, caller, params, body }) =>
      answer(
        routeOf("DELETE", "/connectors/{id}/credential"),
        await revokeTeamConnectorCredential(deps.db, caller, { ...(await parse(revokeCredentialBody, body)), id: params[0]! }),
      ),
  },
  {
    method: "POST",
    path: "/connectors/{id}/oauth",
    summary:
      "Begin connecting an http connector over OAuth, the team's account (admins) or your own where each member uses theirs: open authorizationUrl in the browser where you are signed in to the dashboard; its callback stores the grant",
    body: beginOAuthBody,
    status: 200,
    description: "Where to authorize, within ten minutes",
    response: beginOAuthResponse,
    handler: async ({ deps, caller, params, body }) => {
      if (!deps.redis) throw new AppError("SYSTEM.CONFIG", "this server has no Redis connection to keep an authorization in");
      const input = { ...(await parse(beginOAuthBody, body)), id: params[0]! };
      const begun = await beginConnectorOAuth({ db: deps.db, redis: deps.redis(), keyring: sealingKeyring(deps), prefix: deps.prefix, egress: egressOr(deps.egress) }, caller, input);
      return answer(routeOf("POST", "/connectors/{id}/oauth"), begun);
    },
  },
  {
    method: "POST",
    path: "/connectors/{id}/call",
    summary: "Admins: call one tool of a connector by hand, through a worker, and see its result",
    body: callToolBody,
    status: 200,
    description: "The tool's result, scrubbed of the credential",
    response: callToolResponse,
    handler: async ({ deps, caller, params, body }) => {
      if (!deps.redis) throw new AppError("SYSTEM.CONFIG", "this server has no Redis connection for the connector console");
      const input = await parse(callToolBody, body);
      return answer(routeOf("POST", "/connectors/{id}/call"), await callConnectorTool({ db: deps.db, redis: deps.redis(), prefix: deps.prefix, rules: await connectorRulesOf(deps.db, egressOr(deps.egress)) }, caller, { ...input, id: params[0]! }));
    },
  },
  {
    method: "GET",
    path: "/lanes",
    summary: "The team's lanes: who may save and start workflows in each, and what names each",
    status: 200,
    description: "Lanes",
    response: listLanesResponse,
    handler: async ({ deps, caller }) => answer(routeOf("GET", "/lanes"), { lanes: await listTeamLanes(deps.db, caller) }),
  },
  {
    method: "POST",
    path: "/lanes",
    summary: "Admins: add a lane; operator's roles stay owner and admin",
    body: createLaneBody,
    status: 201,
    description: "The lane as stored",
    response: laneListing,
    handler: async ({ deps, caller, body }) => answer(routeOf("POST", "/lanes"), await createTeamLane(deps.db, caller, await parse(createLaneBody, body))),
  },
  {
    method: "PUT",
    path: "/lanes/{name}",
    summary: "Admins: change a lane's description and who may save and start in it (its name stays)",
    body: updateLaneBody,
    status: 200,
    description: "The lane as stored",
    response: laneListing,
    handler: async ({ deps, caller, params, body }) =>
      answer(routeOf("PUT", "/lanes/{name}"), await updateTeamLane(deps.db, caller, { ...(await parse(updateLaneBody, body)), name: params[0]! })),
  },
  {
    method: "DELETE",
    path: "/lanes/{name}",
    summary: "Admins: remove a lane nothing names (never default or operator)",
    status: 200,
    description: "Removed",
    response: removeLaneResponse,
    errors: { 409: "Built in, or still named by a workflow, a connector or a secret" },
    handler: async ({ deps, caller, params }) => answer(routeOf("DELETE", "/lanes/{name}"), await removeTeamLane(deps.db, caller, { name: params[0]! })),
  },
];

/** Every route: the ones above, then each area's module. */
const routes: Route[] = [...workflowRoutes, ...coreRoutes, ...triggerRoutes, ...runRoutes, ...overviewRoutes, ...memberRoutes, ...tokenRoutes, ...teamRoutes, ...instanceRoutes];

function routeOf(method: string, path: string): Route {
  return routeFinder(coreRoutes)(method, path);
}

/** `/runs/{id}` → a pattern that captures the id. */
const patternOf = (path: string) =>
  new RegExp(`^${path.split("/").map((segment) => (segment.startsWith("{") ? "([^/]+)" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}$`);
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
export const handleRest = (deps: RestDeps, req: Request, path: string): Promise<Response> => servedWithRequestId(req, () => serveRest(deps, req, path));

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
    const authenticate = async () => (token ? ((await authenticateApiToken(deps.db, token)) ?? undefined) : undefined);
    const caller = await authenticate();
    if (!caller) throw new AppError("UNAUTHORIZED", "send an API token as `Authorization: Bearer sy_...`");
    const params = pattern.exec(path)!.slice(1).map((p) => {
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
