/**
 * The REST API under /api/v1: the same operations as the dashboard's procedures, for
 * scripts and CI, authenticated by an API token that acts as one member of one team:
 * workflows, runs, team variables (a secret's lanes) and API tokens.
 * Errors are `{ error: { code, message, location?, details? } }` with the HTTP status of
 * the code's row in the error table.
 */
import type { Queue } from "bullmq";
import { z } from "zod";
import { AppError, RETRY_AFTER_SECONDS, surfaceOfError } from "@switchyard/core/errors";
import type { Keyring } from "@switchyard/core/crypto";
import type { RunJob } from "@switchyard/core/runs";
import { authenticateApiToken, getRun, listWorkflows, type Db } from "@switchyard/db";
import { BODY_LIMITS, withBodyLimit } from "../http/body-limit";
import { cancelRun } from "../runs/cancel-run";
import { listTokens, revokeToken } from "../tokens/token-operations";
import {
  deleteTeamVariable,
  listTeamVariables,
  secretLanesInput,
  setTeamSecretLanes,
  setTeamVariable,
  variableValueInput,
} from "../variables/variable-operations";
import { startRun } from "../runs/start-run";
import { saveWorkflow } from "../workflows/save-workflow";
import { toDiagnostic, validateBundle } from "../workflows/validate-bundle";
import { openApiDocument } from "./openapi";

export type RestDeps = {
  db: Db;
  queue: () => Queue<RunJob>;
  prefix: string;
  publish: (channel: string, message: string) => Promise<unknown>;
  /** the master key, for sealing secret variables (PUT /variables/{name}) */
  keyring?: () => Keyring;
};

type Caller = NonNullable<Awaited<ReturnType<typeof authenticateApiToken>>>;
type Handler = (ctx: { deps: RestDeps; caller: Caller; params: string[]; body: () => Promise<unknown> }) => Promise<Response>;
/** `bodyLimit`: bytes the request body may have (BODY_LIMITS.default when unset). */
type Route = { method: string; pattern: RegExp; handler: Handler; bodyLimit?: number };

const sealingKeyring = (deps: RestDeps) => {
  if (!deps.keyring) throw new AppError("SYSTEM.CONFIG", "this server has no master key to seal secrets with");
  return deps.keyring();
};

const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });

const bundleSchema = z.object({ entry: z.string().min(1).max(255).default("workflow.yaml"), files: z.record(z.string().max(255), z.string()) });
const startSchema = z.object({ inputs: z.record(z.string(), z.unknown()).optional() }).default({});

const parse = async <T>(schema: z.ZodType<T>, body: () => Promise<unknown>): Promise<T> => {
  const result = schema.safeParse(await body());
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new AppError("BAD_REQUEST", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`, { details: { issues: result.error.issues } });
  }
  return result.data;
};

const routes: Route[] = [
  {
    method: "GET",
    pattern: /^\/workflows$/,
    handler: async ({ deps, caller }) =>
      reply(200, {
        workflows: (await listWorkflows(deps.db, caller.teamId)).map((w) => ({
          id: w.id,
          name: w.name,
          description: w.description,
          lane: w.lane,
          version: w.currentVersion?.number ?? null,
        })),
      }),
  },
  {
    method: "POST",
    pattern: /^\/workflows$/,
    bodyLimit: BODY_LIMITS.bundle,
    handler: async ({ deps, caller, body }) => {
      const input = await parse(bundleSchema, body);
      const { version, warnings } = await saveWorkflow(deps.db, { ...input, teamId: caller.teamId, userId: caller.userId, role: caller.role });
      return reply(201, { workflowId: version.workflowId, version: version.number, bundleHash: version.bundleHash, warnings });
    },
  },
  {
    method: "POST",
    pattern: /^\/workflows\/validate$/,
    bodyLimit: BODY_LIMITS.bundle,
    handler: async ({ deps, caller, body }) => {
      const result = await validateBundle(deps.db, caller.teamId, await parse(bundleSchema, body));
      return reply(200, { ok: result.workflow !== undefined, errors: result.errors.map(toDiagnostic), warnings: result.warnings.map(toDiagnostic) });
    },
  },
  {
    method: "POST",
    pattern: /^\/workflows\/([^/]+)\/runs$/,
    handler: async ({ deps, caller, params, body }) => {
      const { inputs } = await parse(startSchema, body);
      const run = await startRun(
        { db: deps.db, queue: deps.queue() },
        { teamId: caller.teamId, userId: caller.userId, role: caller.role, workflowId: params[0]!, inputs, trigger: "api" },
      );
      return reply(202, { id: run.id, status: run.status });
    },
  },
  {
    method: "GET",
    pattern: /^\/runs\/([^/]+)$/,
    handler: async ({ deps, caller, params }) => {
      const run = await getRun(deps.db, caller.teamId, params[0]!);
      if (!run) throw new AppError("NOT_FOUND", "run not found");
      return reply(200, { ...run, workflow: run.workflow.name });
    },
  },
  {
    method: "POST",
    pattern: /^\/runs\/([^/]+)\/cancel$/,
    handler: async ({ deps, caller, params }) =>
      reply(202, await cancelRun({ db: deps.db, queue: deps.queue(), prefix: deps.prefix, publish: deps.publish }, { teamId: caller.teamId, role: caller.role, runId: params[0]! })),
  },
  {
    method: "GET",
    pattern: /^\/variables$/,
    handler: async ({ deps, caller }) => reply(200, { variables: await listTeamVariables(deps.db, caller) }),
  },
  {
    method: "PUT",
    pattern: /^\/variables\/([^/]+)$/,
    handler: async ({ deps, caller, params, body }) =>
      reply(200, await setTeamVariable(deps.db, sealingKeyring(deps), caller, { ...(await parse(variableValueInput, body)), name: params[0]! })),
  },
  {
    method: "DELETE",
    pattern: /^\/variables\/([^/]+)$/,
    handler: async ({ deps, caller, params }) => reply(200, await deleteTeamVariable(deps.db, caller, { name: params[0]! })),
  },
  {
    method: "PUT",
    pattern: /^\/variables\/([^/]+)\/lanes$/,
    handler: async ({ deps, caller, params, body }) =>
      reply(200, await setTeamSecretLanes(deps.db, caller, { ...(await parse(secretLanesInput, body)), name: params[0]! })),
  },
  {
    method: "GET",
    pattern: /^\/tokens$/,
    handler: async ({ deps, caller }) => reply(200, { tokens: await listTokens(deps.db, caller) }),
  },
  {
    method: "DELETE",
    pattern: /^\/tokens\/([^/]+)$/,
    handler: async ({ deps, caller, params }) => reply(200, await revokeToken(deps.db, caller, { id: params[0]! })),
  },
];

const readJson = (req: Request) => async () => {
  const text = await req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("BAD_REQUEST", "the body is not valid JSON");
  }
};

export const handleRest = async (deps: RestDeps, req: Request, path: string): Promise<Response> => {
  try {
    if (req.method === "GET" && path === "/openapi.json") return reply(200, openApiDocument);
    const candidates = routes.filter((r) => r.pattern.test(path));
    if (candidates.length === 0) throw new AppError("NOT_FOUND", `no endpoint ${path}`);
    const route = candidates.find((r) => r.method === req.method);
    if (!route) return reply(405, { error: { code: "METHOD_NOT_ALLOWED", message: `${req.method} is not allowed on ${path}` } });
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
    const caller = token ? await authenticateApiToken(deps.db, token) : undefined;
    if (!caller) throw new AppError("UNAUTHORIZED", "send an API token as `Authorization: Bearer sy_...`");
    const params = route.pattern.exec(path)!.slice(1).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        throw new AppError("BAD_REQUEST", `${path} is not a valid path`);
      }
    });
    return await route.handler({ deps, caller, params, body: readJson(withBodyLimit(req, route.bodyLimit ?? BODY_LIMITS.default)) });
  } catch (error) {
    if (error instanceof AppError) {
      const status = surfaceOfError(error).http;
      return reply(
        status,
        { error: { code: error.code, message: error.userMessage, location: error.location, details: error.details } },
        status === 503 ? { "retry-after": String(RETRY_AFTER_SECONDS) } : {},
      );
    }
    console.error("switchyard-web: REST handler failed", error);
    return reply(500, { error: { code: "INTERNAL", message: "something went wrong" } });
  }
};
