/**
 * What a team-authored connector is: a strict definition of a stdio or HTTP MCP server,
 * parsed into a typed value or refused with the path of the field at fault. A definition
 * holds no secret: every field is stored and shown in plain text, so one that looks like a
 * credential is refused and the person told where it goes instead.
 */
import { z } from "zod";
import { AppError } from "../errors";
import type { ConnectorSpec } from "./connector-host";
import { findSecret } from "./definition-secrets";
import { ALL_LANES } from "../policy";
import { laneSchema, toolAllowSchema, toolNameSchema } from "./tool-allow";

/** The most connectors one team may have (the database layer enforces it). */
export const MAX_CONNECTORS_PER_TEAM = 64;

/** The lane a team-authored connector opens to until an admin says otherwise. */
const OPERATOR_LANE = "operator";
const MAX_ENV = 32;
const MAX_HEADERS = 16;

const envName = z
  .string()
  .regex(
    /^[A-Z_][A-Z0-9_]*$/,
    "an environment variable name is upper-case letters, digits and _, not starting with a digit",
  )
  .max(128, "at most 128 characters");

/** RFC 9110 token characters. */
const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, "not a header name");

const connectorUrl = z
  .string()
  .max(2048, "at most 2048 characters")
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "is not a URL" });
      return;
    }
    // Which hosts may be reached, and over plain http, is the egress rule's to say (it knows
    // the operator's allow-list): checked when the connector is saved and at every request.
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      ctx.addIssue({ code: "custom", message: "must be an https URL" });
    }
    if (url.username !== "" || url.password !== "") {
      ctx.addIssue({
        code: "custom",
        message:
          "must not hold a user name or password: store the credential as the connector's credential",
      });
    }
  });

const common = {
  id: z
    .string()
    .regex(
      /^[a-z][a-z0-9_]{0,31}$/,
      "an id is 1 to 32 lower-case letters, digits and _, starting with a letter",
    ),
  name: z.string().trim().min(1, "a name is not empty").max(80, "at most 80 characters"),
  description: z.string().max(500, "at most 500 characters").default(""),
  lanes: z
    .array(laneSchema)
    .min(1, `at least one lane ("${ALL_LANES}" for every lane)`)
    .max(32, "at most 32 lanes")
    .default([OPERATOR_LANE]),
  /** Whose account a run uses: the team's one credential, or the starting member's own. */
  credential_mode: z.enum(["team", "member"]).default("team"),
  /** The server's tool names to activate at step start when the step has tool search. */
  initial_tools: z.array(toolNameSchema).max(64, "at most 64 tools").default([]),
  enabled: z.boolean().default(true),
  tool_allow: toolAllowSchema.default({}),
};

const stdioDefinition = z.strictObject({
  ...common,
  transport: z.literal("stdio"),
  command: z.string().min(1, "a command is not empty").max(256, "at most 256 characters"),
  args: z
    .array(z.string().max(512, "at most 512 characters"))
    .max(32, "at most 32 arguments")
    .default([]),
  /** Non-secret environment of the server. */
  env: z
    .record(envName, z.string().max(4096, "at most 4096 characters"))
    .refine((env) => Object.keys(env).length <= MAX_ENV, `at most ${MAX_ENV} variables`)
    .default({}),
  /** The environment variable the connector's credential is put in when the server starts. */
  credential_env: envName.optional(),
  /**
   * Whether the server's sandbox has a network: unset follows the worker's step setting
   * (SWITCHYARD_STEP_NETWORK); a server that needs none (local files, a database over a
   * socket) is best switched off.
   */
  network: z.boolean().optional(),
});

const httpDefinition = z.strictObject({
  ...common,
  transport: z.literal("http"),
  url: connectorUrl,
  /**
   * How the credential reaches the server: none, a stored bearer token, an OAuth grant a
   * person approves, tokens the worker obtains itself with the team's client credentials
   * (`client_credentials`: no person signs in), or "enterprise": a token the organisation's
   * IdP grants from each member's sign-in (cross-app access).
   */
  auth: z.enum(["none", "bearer", "oauth", "client_credentials", "enterprise"]),
  /** A client registered with the vendor beforehand, for servers without dynamic registration. */
  oauth_client_id: z.string().min(1).max(256, "at most 256 characters").optional(),
  /**
   * With `client_credentials`: how the client proves itself at the token endpoint, with a
   * client secret or with a private key signing a JWT assertion (`private_key_jwt`).
   */
  oauth_client_auth: z.enum(["client_secret", "private_key_jwt"]).optional(),
  /** "enterprise": the organisation's IdP, the issuer members sign in to Switchyard with. */
  idp_issuer: connectorUrl.optional(),
  /** "enterprise": the client id Switchyard has at that IdP. */
  idp_client_id: z.string().min(1).max(256, "at most 256 characters").optional(),
  /** Non-secret headers sent with every request (credentials go as the bearer). */
  headers: z
    .record(headerName, z.string().max(1024, "at most 1024 characters"))
    .refine((h) => Object.keys(h).length <= MAX_HEADERS, `at most ${MAX_HEADERS} headers`)
    .optional(),
});

/** What `auth` asks of the OAuth client fields and of whose account runs use. */
const clientCredentialsIssues = (
  def: z.output<typeof httpDefinition>,
  ctx: z.core.$RefinementCtx<unknown>,
) => {
  const machine = def.auth === "client_credentials";
  if (
    def.oauth_client_id !== undefined &&
    def.auth !== "oauth" &&
    def.auth !== "enterprise" &&
    !machine
  )
    ctx.addIssue({
      code: "custom",
      path: ["oauth_client_id"],
      message: 'only with auth "oauth", "client_credentials" or "enterprise"',
    });
  if (def.oauth_client_auth !== undefined && !machine)
    ctx.addIssue({
      code: "custom",
      path: ["oauth_client_auth"],
      message: 'only with auth "client_credentials"',
    });
  if (!machine) return;
  if (def.oauth_client_id === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["oauth_client_id"],
      message: 'auth "client_credentials" needs the client id the authorization server issued',
    });
  if (def.credential_mode !== "team")
    ctx.addIssue({
      code: "custom",
      path: ["credential_mode"],
      message:
        'auth "client_credentials" signs in as the team\'s client, with no person: credential_mode is "team"',
    });
};

/**
 * The shape of a definition. `parseConnectorDefinition` is the way in: it adds the checks
 * for secrets in fields, which this schema alone does not make.
 */
const connectorDefinitionSchema = z
  .discriminatedUnion("transport", [stdioDefinition, httpDefinition], {
    error: (issue) =>
      typeof issue.input === "object" && issue.input !== null && !Array.isArray(issue.input)
        ? 'transport must be "stdio" or "http"'
        : "a connector definition is an object",
  })
  .superRefine((def, ctx) => {
    if (def.lanes.includes(ALL_LANES) && def.lanes.length > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["lanes"],
        message: `"${ALL_LANES}" already means every lane; list it alone`,
      });
    }
    def.lanes.forEach((lane, i) => {
      if (def.lanes.indexOf(lane) !== i)
        ctx.addIssue({ code: "custom", path: ["lanes", i], message: `"${lane}" is listed twice` });
    });
    for (const lane of Object.keys(def.tool_allow)) {
      if (lane !== ALL_LANES && !def.lanes.includes(lane) && !def.lanes.includes(ALL_LANES)) {
        ctx.addIssue({
          code: "custom",
          path: ["tool_allow", lane],
          message: `lane "${lane}" does not reach this connector (add it to lanes, or use "${ALL_LANES}")`,
        });
      }
    }
    if (def.transport === "stdio" && def.credential_env && def.credential_env in def.env) {
      ctx.addIssue({
        code: "custom",
        path: ["env", def.credential_env],
        message:
          "is the credential's variable (credential_env); the server gets the credential there",
      });
    }
    if (def.transport !== "http") return;
    clientCredentialsIssues(def, ctx);
    for (const field of ["idp_issuer", "idp_client_id"] as const) {
      if (def.auth !== "enterprise" && def[field] !== undefined)
        ctx.addIssue({ code: "custom", path: [field], message: 'only with auth "enterprise"' });
    }
    if (def.auth === "enterprise")
      enterpriseIssues(def, (field, message) =>
        ctx.addIssue({ code: "custom", path: [field], message }),
      );
  });

/** What an enterprise connector needs: the IdP, Switchyard's clients there and at the server, and members' own accounts. */
function enterpriseIssues(
  def: z.output<typeof httpDefinition>,
  issue: (field: string, message: string) => void,
) {
  const required = {
    idp_issuer: 'the IdP members sign in with is required with auth "enterprise"',
    idp_client_id: 'Switchyard\'s client id at the IdP is required with auth "enterprise"',
    oauth_client_id:
      "Switchyard's client id at the server's authorization server is required with auth \"enterprise\"",
  } as const;
  for (const [field, message] of Object.entries(required))
    if (def[field as keyof typeof required] === undefined) issue(field, message);
  if (def.credential_mode !== "member")
    issue(
      "credential_mode",
      'auth "enterprise" grants each member their own access from their sign-in: credential_mode is "member"',
    );
}

export type ConnectorDefinition = z.output<typeof connectorDefinitionSchema>;
export type HttpConnectorDefinition = Extract<ConnectorDefinition, { transport: "http" }>;

/** `args[2]`, `env.FOO`, `tool_allow.*.deny[0]`; `(root)` for the whole value. */
const fieldPath = (path: readonly PropertyKey[]): string => {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
};

type Problem = { path: string; message: string };

const problemsOf = (issues: readonly z.core.$ZodIssue[]): Problem[] =>
  issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return { path: fieldPath([...issue.path, issue.keys[0] ?? ""]), message: "unknown field" };
    }
    if (issue.code === "invalid_key") {
      return { path: fieldPath(issue.path), message: issue.issues[0]?.message ?? issue.message };
    }
    return { path: fieldPath(issue.path), message: issue.message };
  });

/**
 * Parses a connector definition (from the dashboard, the API or a file) or throws
 * `USER.CONNECTOR.INVALID` with the first field at fault in `location.path` and every
 * problem in `details.issues`, or `USER.CONNECTOR.SECRET_IN_FIELD` when a field holds
 * what looks like a credential. Neither message repeats the value.
 */
export const parseConnectorDefinition = (
  raw: unknown,
  options: { file?: string } = {},
): ConnectorDefinition => {
  const file = options.file === undefined ? {} : { file: options.file };
  const parsed = connectorDefinitionSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = problemsOf(parsed.error.issues);
    const first = problems[0] ?? { path: "(root)", message: "is not a connector definition" };
    throw new AppError(
      "USER.CONNECTOR.INVALID",
      `invalid connector definition: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
      { location: { ...file, path: first.path }, details: { issues: problems } },
    );
  }
  const def = parsed.data;
  const secret = findSecret(def);
  if (secret) {
    throw new AppError(
      "USER.CONNECTOR.SECRET_IN_FIELD",
      `${secret.path} looks like a secret (${secret.what}): ${whereSecretsGo(def)}`,
      { location: { ...file, path: secret.path } },
    );
  }
  return def;
};

const whereSecretsGo = (def: ConnectorDefinition): string => {
  switch (def.transport) {
    case "stdio":
      return def.credential_env
        ? `store it as the connector's credential; it reaches the server as the environment variable ${def.credential_env}`
        : "store it as the connector's credential, and set credential_env to the environment variable the server reads it from";
    case "http":
      return "store it as the connector's credential; it reaches the server as a bearer token (the Authorization header)";
  }
};

/** Whether runs need a credential to reach the connector: a stdio one's variable for it, or an http one that signs in. */
export const needsCredential = (def: ConnectorDefinition): boolean =>
  def.transport === "stdio"
    ? def.credential_env !== undefined
    : def.auth !== "none" && def.auth !== "enterprise";

/** Whether each member's token comes from their sign-in through the IdP (no stored credential). */
export const usesCrossAppAccess = (
  def: ConnectorDefinition,
): def is HttpConnectorDefinition & {
  auth: "enterprise";
  idp_issuer: string;
  idp_client_id: string;
  oauth_client_id: string;
} => def.transport === "http" && def.auth === "enterprise";

/** The host's spec of a connector (its credential is resolved separately, at use). */
export const toConnectorSpec = (def: ConnectorDefinition): ConnectorSpec => {
  switch (def.transport) {
    case "stdio":
      return {
        id: def.id,
        kind: "stdio",
        command: def.command,
        args: [...def.args],
        env: { ...def.env },
        ...(def.credential_env ? { credentialEnv: def.credential_env } : {}),
        ...(def.network === undefined ? {} : { network: def.network }),
      };
    case "http":
      return {
        id: def.id,
        kind: "http",
        url: def.url,
        ...(def.headers && Object.keys(def.headers).length > 0
          ? { headers: { ...def.headers } }
          : {}),
      };
  }
};
