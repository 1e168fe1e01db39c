/**
 * The one table that maps an error code to what each surface shows: HTTP status, tRPC
 * code and process exit code. Codes follow AWF's taxonomy (USER.* exit 1, WORKFLOW.* 2,
 * EXECUTION.* 3, SYSTEM.* 4) plus the request-facing ones.
 */
type TrpcCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "METHOD_NOT_SUPPORTED"
  | "PAYLOAD_TOO_LARGE"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL_SERVER_ERROR"
  | "SERVICE_UNAVAILABLE";

type ErrorSurface = { http: number; trpc: TrpcCode; exit: number };

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
  /** A connector's OAuth grant is gone (refresh refused, revoked, no refresh token): someone must reconnect it. */
  CONNECTOR_NEEDS_RECONNECT: "USER.CONNECTOR.NEEDS_RECONNECT",
  /** A connector's server refused a call for want of a wider OAuth scope (403 insufficient_scope): someone reconnects it for that scope. */
  CONNECTOR_NEEDS_MORE_ACCESS: "USER.CONNECTOR.NEEDS_MORE_ACCESS",
  /** A connector's server still refuses a call for a scope its authorization already asked for: no new authorization is asked for (the step-up retry limit). */
  CONNECTOR_SCOPE_REFUSED: "USER.CONNECTOR.SCOPE_REFUSED",
  /** A connector's server or authorization server lacks what the MCP authorization spec requires of it (PKCE S256, metadata, a way to get a client id). */
  CONNECTOR_OAUTH_UNSUPPORTED: "USER.CONNECTOR.OAUTH_UNSUPPORTED",
  /** A connector's OAuth metadata could not be found or does not hold together (issuer or resource mismatch). */
  CONNECTOR_OAUTH_DISCOVERY_FAILED: "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
  /** Connecting a connector over OAuth failed: denied, state or issuer mismatch, code or registration refused. */
  CONNECTOR_OAUTH_FAILED: "USER.CONNECTOR.OAUTH_FAILED",
  /** A connector definition that breaks its schema (connectors/definition.ts); `location.path` names the field. */
  CONNECTOR_INVALID: "USER.CONNECTOR.INVALID",
  /** A connector field that is stored in plain text holds what looks like a credential; `location.path` names it. */
  CONNECTOR_SECRET_IN_FIELD: "USER.CONNECTOR.SECRET_IN_FIELD",
} as const;
type Code = (typeof CODES)[keyof typeof CODES];

/** The request-facing codes, and what a code of each AWF family shows by default. */
const REQUEST = {
  BAD_REQUEST: { http: 400, trpc: "BAD_REQUEST", exit: 1 },
  UNAUTHORIZED: { http: 401, trpc: "UNAUTHORIZED", exit: 1 },
  FORBIDDEN: { http: 403, trpc: "FORBIDDEN", exit: 1 },
  NOT_FOUND: { http: 404, trpc: "NOT_FOUND", exit: 1 },
  /** The path exists; the method does not (the answer's Allow says which do). */
  METHOD_NOT_ALLOWED: { http: 405, trpc: "METHOD_NOT_SUPPORTED", exit: 1 },
  CONFLICT: { http: 409, trpc: "CONFLICT", exit: 1 },
  PAYLOAD_TOO_LARGE: { http: 413, trpc: "PAYLOAD_TOO_LARGE", exit: 1 },
  RATE_LIMITED: { http: 429, trpc: "TOO_MANY_REQUESTS", exit: 1 },
  INTERNAL: { http: 500, trpc: "INTERNAL_SERVER_ERROR", exit: 4 },
} as const satisfies Record<string, ErrorSurface>;

const FAMILY = {
  USER: { http: 400, trpc: "BAD_REQUEST", exit: 1 },
  WORKFLOW: { http: 422, trpc: "BAD_REQUEST", exit: 2 },
  EXECUTION: { http: 500, trpc: "INTERNAL_SERVER_ERROR", exit: 3 },
  SYSTEM: { http: 500, trpc: "INTERNAL_SERVER_ERROR", exit: 4 },
} as const satisfies Record<string, ErrorSurface>;

/**
 * Every code the product raises, with its surface. `AppError` takes only these keys, so
 * a misspelt code fails to compile; a new code is added here first.
 */
export const ERROR_CODES = {
  ...REQUEST,
  // EXECUTION.*
  "EXECUTION.AGENT_FAILED": FAMILY.EXECUTION,
  "EXECUTION.AGENT_NO_RESULT": FAMILY.EXECUTION,
  "EXECUTION.AGENT_PERMISSION_DENIED": FAMILY.EXECUTION,
  "EXECUTION.AGENT_UNAVAILABLE": FAMILY.EXECUTION,
  /** A suspended agent step whose CLI cannot resume its session (docs/governance.md). */
  "EXECUTION.AGENT_CANNOT_RESUME": FAMILY.EXECUTION,
  "EXECUTION.CALL_DEPTH_EXCEEDED": FAMILY.EXECUTION,
  /** `continue_from` names a step with no session to resume (AWF's ContinueFrom rules, docs/workflows.md). */
  "EXECUTION.CONTINUE_FROM.NO_SESSION": FAMILY.EXECUTION,
  "EXECUTION.CANCELLED": FAMILY.EXECUTION,
  "EXECUTION.COMMAND_FAILED": FAMILY.EXECUTION,
  "EXECUTION.CONNECTOR_FAILED": FAMILY.EXECUTION,
  "EXECUTION.CONNECTOR_UNAVAILABLE": FAMILY.EXECUTION,
  /** A connector call run as an MCP task outlived the time its server keeps the task (docs/connectors.md). */
  "EXECUTION.CONNECTOR_TASK_EXPIRED": FAMILY.EXECUTION,
  "EXECUTION.CONNECTOR_TASK_INPUT_REQUIRED": FAMILY.EXECUTION,
  // An outbound request on a user's behalf that failed (docs/connectors.md, "Egress"): the host named, never what it sent.
  "EXECUTION.EGRESS.TIMEOUT": FAMILY.EXECUTION,
  "EXECUTION.EGRESS.TOO_LARGE": FAMILY.EXECUTION,
  "EXECUTION.EGRESS.UNREACHABLE": FAMILY.EXECUTION,
  "EXECUTION.INFINITE_LOOP_GUARD": FAMILY.EXECUTION,
  "EXECUTION.INVALID_LOOP_BOUND": FAMILY.EXECUTION,
  "EXECUTION.INVALID_TIMEOUT": FAMILY.EXECUTION,
  /** An operation state's request that failed: refused, unreachable, a listed retryable status, an API's error (docs/workflows.md, "Operations"). */
  "EXECUTION.OPERATION_FAILED": FAMILY.EXECUTION,
  "EXECUTION.MCP_PROXY.NOT_READY": FAMILY.EXECUTION,
  "EXECUTION.MCP_PROXY.UNAVAILABLE": FAMILY.EXECUTION,
  "EXECUTION.MODEL_GATEWAY.UPSTREAM_TIMEOUT": FAMILY.EXECUTION,
  "EXECUTION.MODEL_GATEWAY.UPSTREAM_UNREACHABLE": FAMILY.EXECUTION,
  "EXECUTION.OUTPUT_NOT_STORED": FAMILY.EXECUTION,
  "EXECUTION.PROVIDER.BAD_RESPONSE": FAMILY.EXECUTION,
  "EXECUTION.PROVIDER.RESPONSE_TOO_LARGE": FAMILY.EXECUTION,
  "EXECUTION.PROVIDER.UNAVAILABLE": FAMILY.EXECUTION,
  "EXECUTION.RUN_TAKEN_OVER": FAMILY.EXECUTION,
  "EXECUTION.STEP_ERROR": FAMILY.EXECUTION,
  "EXECUTION.STEP_FAILED": FAMILY.EXECUTION,
  "EXECUTION.TERMINAL_FAILURE": FAMILY.EXECUTION,
  "EXECUTION.TIMEOUT": FAMILY.EXECUTION,
  "EXECUTION.WORKER_LOST": FAMILY.EXECUTION,
  // SYSTEM.*
  "SYSTEM.CHECKPOINT_MISMATCH": FAMILY.SYSTEM,
  "SYSTEM.CONFIG": FAMILY.SYSTEM,
  "SYSTEM.CREDENTIAL_KEY_MISSING": FAMILY.SYSTEM,
  "SYSTEM.CREDENTIAL_MISSING": FAMILY.SYSTEM,
  "SYSTEM.CREDENTIAL_UNREADABLE": FAMILY.SYSTEM,
  /** The database stayed unreachable longer than a write may wait (a worker's run is tried again later). */
  "SYSTEM.DATABASE_UNAVAILABLE": FAMILY.SYSTEM,
  "SYSTEM.INTERNAL": FAMILY.SYSTEM,
  "SYSTEM.MCP_PROXY.CHANNEL": FAMILY.SYSTEM,
  "SYSTEM.MCP_PROXY.STARTUP": FAMILY.SYSTEM,
  "SYSTEM.MODEL_GATEWAY.CLOSED": FAMILY.SYSTEM,
  "SYSTEM.MODEL_GATEWAY.LISTEN": FAMILY.SYSTEM,
  "SYSTEM.QUEUE_UNAVAILABLE": FAMILY.SYSTEM,
  "SYSTEM.REDIS_UNAVAILABLE": FAMILY.SYSTEM,
  "SYSTEM.SANDBOX_INVALID_SPEC": FAMILY.SYSTEM,
  "SYSTEM.SANDBOX_UNAVAILABLE": FAMILY.SYSTEM,
  /** A stored workspace snapshot that cannot be written back safely (a path outside its folder, say). */
  "SYSTEM.SNAPSHOT_INVALID": FAMILY.SYSTEM,
  /** A run given up because the workers holding it kept dying (its job stalled past the limit). */
  "SYSTEM.WORKER_LOST": FAMILY.SYSTEM,
  // USER.*
  /** A team admin asked for a password reset link while the server cannot mail it to the member (no SMTP): an instance admin issues it. */
  "USER.ACCOUNT.RESET_NEEDS_MAIL": REQUEST.FORBIDDEN,
  /** A stdio connector's command is not from the connectors folder (or its environment chooses code), and any command is not allowed. */
  "USER.CONNECTOR.COMMAND_NOT_ALLOWED": REQUEST.FORBIDDEN,
  /** An enterprise (cross-app access) connector's IdP refused to issue an identity assertion grant for the member's sign-in. */
  "USER.CONNECTOR.IDP_REFUSED": FAMILY.USER,
  "USER.CONNECTOR.INVALID": FAMILY.USER,
  /** A connector's private key (client_credentials with private_key_jwt) that is no PEM private key Switchyard can sign with. */
  "USER.CONNECTOR.INVALID_KEY": FAMILY.USER,
  "USER.CONNECTOR.LIMIT": FAMILY.USER,
  "USER.CONNECTOR.NEEDS_MORE_ACCESS": FAMILY.USER,
  "USER.CONNECTOR.NEEDS_RECONNECT": FAMILY.USER,
  "USER.CONNECTOR.NOT_CONNECTED": FAMILY.USER,
  /** An enterprise (cross-app access) connector used by a member with no kept sign-in at the connector's IdP. */
  "USER.CONNECTOR.NO_SSO_IDENTITY": FAMILY.USER,
  "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED": FAMILY.USER,
  "USER.CONNECTOR.OAUTH_FAILED": FAMILY.USER,
  "USER.CONNECTOR.OAUTH_UNSUPPORTED": FAMILY.USER,
  "USER.CONNECTOR.SCOPE_REFUSED": FAMILY.USER,
  "USER.CONNECTOR.SECRET_IN_FIELD": FAMILY.USER,
  /** The token endpoint refused a connector's client credentials (invalid_client, unauthorized_client, ...): an admin sets them again. */
  "USER.CONNECTOR.TOKEN_REFUSED": FAMILY.USER,
  /** A destination the egress rule refuses: not https, or an address that is not public and not on the operator's allow-list. */
  "USER.EGRESS.DENIED": FAMILY.USER,
  /** An Idempotency-Key sent again with another request (workflow, version or inputs). */
  "USER.IDEMPOTENCY_KEY_REUSED": { ...FAMILY.USER, http: 422 },
  /** `switchyard run`: the person ended the collection of missing inputs (Ctrl+C, Ctrl+D). */
  "USER.INPUT.CANCELLED": FAMILY.USER,
  "USER.INPUT.FILE_REFUSED": FAMILY.USER,
  "USER.INPUT.MISSING_FILE": FAMILY.USER,
  "USER.INPUT.VALIDATION_FAILED": FAMILY.USER,
  // The installation's settings (Settings → Instance) refuse this; the message says who may change them.
  "USER.INSTANCE.SIGN_UP_CLOSED": REQUEST.FORBIDDEN,
  "USER.INSTANCE.SSO_NOT_CONFIGURED": FAMILY.USER,
  "USER.INSTANCE.SSO_ONLY": REQUEST.FORBIDDEN,
  "USER.INSTANCE.TEAM_CREATION_CLOSED": REQUEST.FORBIDDEN,
  // An invitation or password-reset link that expired, was revoked or was used; details.reason says which.
  "USER.LINK.UNUSABLE": FAMILY.USER,
  // Lane policy refusals (packages/core/src/policy): forbidden, with the rule in the code.
  "USER.LANE.CALL_DENIED": REQUEST.FORBIDDEN,
  /** A step asked for an install of its agent CLI (`latest`) that the agents folder does not hold. */
  "USER.AGENT.VERSION_NOT_INSTALLED": FAMILY.USER,
  "USER.LANE.SECRET_DENIED": REQUEST.FORBIDDEN,
  "USER.MCP_PROXY.EMPTY_PROXY": FAMILY.USER,
  "USER.MCP_PROXY.INFINITE_LOOP_GUARD": FAMILY.USER,
  "USER.MCP_PROXY.LANE_DENIED": FAMILY.USER,
  "USER.MCP_PROXY.NAME_COLLISION": FAMILY.USER,
  "USER.MCP_PROXY.UNKNOWN_CONNECTOR": FAMILY.USER,
  "USER.MCP_PROXY.UNKNOWN_KEY": FAMILY.USER,
  "USER.MCP_PROXY.UNKNOWN_OPERATION": FAMILY.USER,
  "USER.MCP_PROXY.UNKNOWN_PLUGIN": FAMILY.USER,
  "USER.MCP_PROXY.UNSUPPORTED_PROVIDER": FAMILY.USER,
  // Workflow packs (docs/workflows.md, "Workflow packs"): an archive or manifest that does not
  // read, a listed workflow without its file, a source that is not owner/repo[@version], a
  // download whose SHA-256 is not the release's; a needed plugin is a warning.
  "USER.PACK.INVALID_ARCHIVE": FAMILY.USER,
  "USER.PACK.ARCHIVE_TOO_LARGE": FAMILY.USER,
  "USER.PACK.INVALID_MANIFEST": FAMILY.USER,
  "USER.PACK.AWF_VERSION_INCOMPATIBLE": FAMILY.USER,
  "USER.PACK.RESERVED_NAME": FAMILY.USER,
  "USER.PACK.MISSING_WORKFLOW": FAMILY.USER,
  "USER.PACK.INVALID_SOURCE": FAMILY.USER,
  "USER.PACK.CHECKSUM_MISMATCH": FAMILY.USER,
  "USER.PACK.RELEASE_NOT_FOUND": FAMILY.USER,
  "USER.PACK.PLUGIN_REQUIRED": FAMILY.USER,
  /** A pack whose name, or one of whose workflows, is a name the team's own workflows use. */
  "USER.PACK.NAME_COLLISION": REQUEST.CONFLICT,
  // Workflows from git (docs/git-sync.md): a source that is not an allowed URL or path, a
  // branch or folder that does not read, a fetch git could not make, a folder over the limits;
  // a synced workflow is changed in its repository, not in the editor.
  "USER.GIT.INVALID_SOURCE": FAMILY.USER,
  "USER.GIT.FETCH_FAILED": FAMILY.USER,
  "USER.GIT.TOO_LARGE": FAMILY.USER,
  "USER.GIT.READ_ONLY": REQUEST.CONFLICT,
  /** A file names a workflow the team has from elsewhere (its own, a pack's, another repository's). */
  "USER.GIT.NAME_TAKEN": REQUEST.CONFLICT,
  "USER.GIT.SYNC_RUNNING": REQUEST.CONFLICT,
  "USER.PATTERN.INVALID": FAMILY.USER,
  "USER.PATTERN.TIMEOUT": FAMILY.USER,
  "USER.PATTERN.TOO_COMPLEX": FAMILY.USER,
  "USER.PROVIDER.ENDPOINT_NOT_ALLOWED": FAMILY.USER,
  "USER.PROVIDER.NOT_CONFIGURED": FAMILY.USER,
  "USER.PROVIDER.REQUEST_REJECTED": FAMILY.USER,
  "USER.PROVIDER.SKIP_PERMISSIONS_AS_ROOT": FAMILY.USER,
  // Replay (docs/replay.md): an attempt that cannot be replayed (not a finished agent attempt with its request recorded),
  // a compare of a replay's source asked of an attempt that is no replay's, a suite replay with no example attempt.
  "USER.REPLAY.NOT_REPLAYABLE": FAMILY.USER,
  "USER.REPLAY.NOT_A_REPLAY": FAMILY.USER,
  "USER.REPLAY.NO_EXAMPLES": FAMILY.USER,
  /** A replayed attempt's tool call with no recording left to answer it (docs/replay.md). */
  "USER.REPLAY.NO_RECORDING": FAMILY.USER,
  /** The workspace before the attempt was not kept (over the team's snapshot cap, or removed by retention). */
  "USER.REPLAY.NO_SNAPSHOT": REQUEST.CONFLICT,
  "USER.SECRET_TOO_SHORT": FAMILY.USER,
  // Agent skills (docs/workflows.md, "Skills"): a named skill that is not found, a folder with no
  // SKILL.md; warnings for an empty SKILL.md and one over 500KB; a library skill whose front
  // matter is not agentskills.io's.
  "USER.SKILL.NOT_FOUND": FAMILY.USER,
  "USER.SKILL.MISSING_SKILLMD": FAMILY.USER,
  "USER.SKILL.EMPTY_CONTENT": FAMILY.USER,
  "USER.SKILL.TOO_LARGE": FAMILY.USER,
  "USER.SKILL.INVALID_FRONTMATTER": FAMILY.USER,
  // Governance (docs/governance.md): a held tool call a person denied (the agent gets the
  // message as the tool's error), or whose approval expired; an approval rule on built-ins in
  // a step whose built-ins do not go through the proxy; a spend limit reached.
  "USER.APPROVAL.DENIED": FAMILY.USER,
  "USER.APPROVAL.EXPIRED": FAMILY.USER,
  "USER.APPROVAL.RULE_INVALID": FAMILY.USER,
  "USER.APPROVAL.BUILTINS_NOT_INTERCEPTED": FAMILY.USER,
  "USER.BUDGET.EXCEEDED": FAMILY.USER,
  "USER.BUDGET.INVALID": FAMILY.USER,
  // Answering a wait: already answered, expired, or not the answerer's to give.
  "USER.WAIT.ALREADY_ANSWERED": REQUEST.CONFLICT,
  "USER.WAIT.EXPIRED": REQUEST.CONFLICT,
  "USER.WAIT.NOT_ALLOWED": REQUEST.FORBIDDEN,
  // A connector server's form (elicitation): a schema outside the spec's subset, or an
  // answer that does not fit the form (the field is named).
  "USER.ELICITATION.INVALID_SCHEMA": FAMILY.USER,
  "USER.ELICITATION.INVALID_ANSWER": FAMILY.USER,
  "USER.TEMPLATE.NESTED_SHELL": FAMILY.USER,
  /** An API token asked to live longer than the installation allows (Settings → Instance). */
  "USER.TOKEN.LIFETIME_TOO_LONG": FAMILY.USER,
  "USER.TRIGGER.INVALID_SCHEDULE": FAMILY.USER,
  "USER.TRIGGER.PAUSED": REQUEST.CONFLICT,
  // An inbound webhook's signature: refused as unauthorized, with the reason in the code.
  "USER.WEBHOOK.SIGNATURE_EXPIRED": REQUEST.UNAUTHORIZED,
  "USER.WEBHOOK.SIGNATURE_INVALID": REQUEST.UNAUTHORIZED,
  "USER.WEBHOOK.SIGNATURE_MISSING": REQUEST.UNAUTHORIZED,
  /** A signed delivery the receiver already accepted, sent again within its five minutes. */
  "USER.WEBHOOK.REPLAYED": REQUEST.CONFLICT,
  "USER.UNSUPPORTED_FEATURE": FAMILY.USER,
  "USER.WRONG_PASSWORD": FAMILY.USER,
  // WORKFLOW.*
  "WORKFLOW.PARSE.DUPLICATE_KEY": FAMILY.WORKFLOW,
  "WORKFLOW.PARSE.LIMIT_EXCEEDED": FAMILY.WORKFLOW,
  "WORKFLOW.PARSE.UNKNOWN_FIELD": FAMILY.WORKFLOW,
  "WORKFLOW.PARSE.YAML_SYNTAX": FAMILY.WORKFLOW,
  "WORKFLOW.TEMPLATE.CIRCULAR_REFERENCE": FAMILY.WORKFLOW,
  "WORKFLOW.TEMPLATE.INVALID": FAMILY.WORKFLOW,
  "WORKFLOW.TEMPLATE.MISSING_PARAMETER": FAMILY.WORKFLOW,
  "WORKFLOW.TEMPLATE.NOT_FOUND": FAMILY.WORKFLOW,
  "WORKFLOW.TEMPLATE.UNKNOWN_PARAMETER": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.CYCLE_DETECTED": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.INVALID_EXPRESSION": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.INVALID_REFERENCE": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.INVALID_VALUE": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.LOOP_OUTSIDE_LOOP": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.MISSING_FIELD": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.MISSING_STATE": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.NO_TERMINAL": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.UNDEFINED_SUBWORKFLOW": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION.UNREACHABLE_STATE": FAMILY.WORKFLOW,
  "WORKFLOW.VALIDATION_FAILED": FAMILY.WORKFLOW,
} as const satisfies Record<string, ErrorSurface>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Whether a string that arrived as data (a stored row, a channel message) is a known code. */
export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === "string" && Object.hasOwn(ERROR_CODES, value);

// The named codes above must all be in the table.
const namedCodesAreInTable: Record<Code, ErrorSurface> = ERROR_CODES;
void namedCodesAreInTable;

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

/**
 * The surface of a code. Takes any string because codes also come back from stored rows
 * written by older versions; an unknown one falls back to its family, then to INTERNAL.
 */
export const surfaceOf = (code: string): ErrorSurface => {
  if (isErrorCode(code)) return ERROR_CODES[code];
  const family = code.split(".")[0] ?? "";
  return Object.hasOwn(FAMILY, family) ? FAMILY[family as keyof typeof FAMILY] : REQUEST.INTERNAL;
};
