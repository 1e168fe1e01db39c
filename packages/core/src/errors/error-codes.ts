/**
 * The one table that maps an error code to what each surface shows: HTTP status, tRPC
 * code and process exit code. Codes follow AWF's taxonomy (USER.* exit 1, WORKFLOW.* 2,
 * EXECUTION.* 3, SYSTEM.* 4) plus the request-facing ones.
 */
export type TrpcCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL_SERVER_ERROR"
  | "SERVICE_UNAVAILABLE";

export type ErrorSurface = { http: number; trpc: TrpcCode; exit: number };

/**
 * Codes that code raises by name. Each is reported on the surfaces of its family (a
 * USER.* code is HTTP 400, tRPC BAD_REQUEST, exit 1).
 */
export const CODES = {
  /** A `{{ }}` value would be parsed as code by a second shell or an interpreter (docs/workflows.md, "Shell safety"). */
  NESTED_SHELL: "USER.TEMPLATE.NESTED_SHELL",
  /** An agent's tool loop did not end: more model turns than allowed, or `tool_calls` with no call (AWF's code). */
  INFINITE_LOOP_GUARD: "USER.MCP_PROXY.INFINITE_LOOP_GUARD",
  /** An openai_compatible `options.base_url` that is none of the team's allowed model endpoints. */
  ENDPOINT_NOT_ALLOWED: "USER.PROVIDER.ENDPOINT_NOT_ALLOWED",
  /** The model endpoint refused the request (a 4xx other than 429: key, model, parameters). */
  MODEL_REQUEST_REJECTED: "USER.PROVIDER.REQUEST_REJECTED",
  /** The model endpoint stayed unreachable, rate-limited or failing (429, 5xx) after the retries. */
  MODEL_UNAVAILABLE: "EXECUTION.PROVIDER.UNAVAILABLE",
  /** A model response larger than the cap. */
  MODEL_RESPONSE_TOO_LARGE: "EXECUTION.PROVIDER.RESPONSE_TOO_LARGE",
  /** A model response that is not a Chat Completion (unparseable, no choices, an error mid-stream). */
  MODEL_BAD_RESPONSE: "EXECUTION.PROVIDER.BAD_RESPONSE",
  /** The step's MCP proxy stopped answering `tools/list`. */
  MCP_PROXY_UNAVAILABLE: "EXECUTION.MCP_PROXY.UNAVAILABLE",
  /** An agent CLI ended without reporting a result (it crashed, was killed, or refused to start). */
  AGENT_NO_RESULT: "EXECUTION.AGENT_NO_RESULT",
  /** An agent CLI reported a failed result or exited non-zero. */
  AGENT_FAILED: "EXECUTION.AGENT_FAILED",
  /** An agent CLI refused tool calls for lack of permission (the step goes on; the model was told). */
  AGENT_PERMISSION_DENIED: "EXECUTION.AGENT_PERMISSION_DENIED",
  /** `dangerously_skip_permissions` for a CLI that would run as root, which the CLI itself refuses. */
  SKIP_PERMISSIONS_AS_ROOT: "USER.PROVIDER.SKIP_PERMISSIONS_AS_ROOT",
} as const;
export type Code = (typeof CODES)[keyof typeof CODES];

const REQUEST_CODES: Record<string, ErrorSurface> = {
  BAD_REQUEST: { http: 400, trpc: "BAD_REQUEST", exit: 1 },
  UNAUTHORIZED: { http: 401, trpc: "UNAUTHORIZED", exit: 1 },
  FORBIDDEN: { http: 403, trpc: "FORBIDDEN", exit: 1 },
  NOT_FOUND: { http: 404, trpc: "NOT_FOUND", exit: 1 },
  CONFLICT: { http: 409, trpc: "CONFLICT", exit: 1 },
  PAYLOAD_TOO_LARGE: { http: 413, trpc: "PAYLOAD_TOO_LARGE", exit: 1 },
  RATE_LIMITED: { http: 429, trpc: "TOO_MANY_REQUESTS", exit: 1 },
  INTERNAL: { http: 500, trpc: "INTERNAL_SERVER_ERROR", exit: 4 },
  // Lane policy refusals (packages/core/src/policy): forbidden, with the rule in the code.
  "USER.LANE.CALL_DENIED": { http: 403, trpc: "FORBIDDEN", exit: 1 },
  "USER.LANE.SECRET_DENIED": { http: 403, trpc: "FORBIDDEN", exit: 1 },
};

const FAMILY: Record<string, ErrorSurface> = {
  USER: { http: 400, trpc: "BAD_REQUEST", exit: 1 },
  WORKFLOW: { http: 422, trpc: "BAD_REQUEST", exit: 2 },
  EXECUTION: { http: 500, trpc: "INTERNAL_SERVER_ERROR", exit: 3 },
  SYSTEM: { http: 500, trpc: "INTERNAL_SERVER_ERROR", exit: 4 },
};

/** What a retryable server-side failure shows: try again later, not "the server is broken". */
const UNAVAILABLE: ErrorSurface = { http: 503, trpc: "SERVICE_UNAVAILABLE", exit: 4 };

/** Seconds a client should wait before trying a retryable failure again (the Retry-After header). */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The surface of one raised error: its code's row, except that a retryable failure the
 * server would report as 500 is 503 (the exit code stays the family's).
 */
export const surfaceOfError = (error: { code: string; retryable: boolean }): ErrorSurface => {
  const surface = surfaceOf(error.code);
  return error.retryable && surface.http >= 500 ? { ...UNAVAILABLE, exit: surface.exit } : surface;
};

export const surfaceOf = (code: string): ErrorSurface => {
  const direct = REQUEST_CODES[code];
  if (direct) return direct;
  const family = FAMILY[code.split(".")[0] ?? ""];
  return family ?? REQUEST_CODES.INTERNAL!;
};
