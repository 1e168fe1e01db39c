/**
 * Request and response shapes of the team's connectors (the Connectors page), shared by the
 * tRPC procedures, the REST routes and the generated OpenAPI document. A definition goes in
 * and comes out as written (docs/connectors.md); a credential goes in and never comes out:
 * answers show its kind, fingerprint, who set it, when, expiry, last use and status.
 */
import { z } from "zod";
import { connectorCallResultSchema } from "@switchyard/core/runs";
import { operation } from "./operation";
import { timestamp } from "./timestamp";

const connectorId = z.string().max(64).describe("the connector's id, e.g. linear");
const definition = z
  .record(z.string(), z.unknown())
  .describe(
    "the connector's definition as written: id, name, transport (stdio: command, args, env, credential_env, network; http: url, auth (none, bearer, oauth, client_credentials), oauth_client_id, oauth_client_auth, headers), lanes, credential_mode, initial_tools, tool_allow, enabled",
  );

export const credentialSummary = z.object({
  kind: z.string().describe("api_key or oauth"),
  fingerprint: z
    .string()
    .describe("the first 12 hex digits of the value's SHA-256; never the value"),
  status: z
    .enum(["active", "needs_reconnect", "needs_more_access"])
    .describe(
      "needs_more_access: its server refused a call for want of a wider OAuth scope (requiredScope); connecting again asks for it",
    ),
  reconnectReason: z
    .enum(["refresh_refused", "destination_changed"])
    .nullable()
    .describe(
      "with needs_reconnect: refresh_refused (the OAuth grant expired or was revoked) or destination_changed (the connector's URL, command, arguments, environment or headers changed since it was connected, or its authorization server is not the one its credential was set for)",
    ),
  requiredScope: z
    .string()
    .nullable()
    .describe(
      "with needs_more_access: the scope the next connection asks for (what was granted plus what the server asked for)",
    ),
  setBy: z.string().nullable().describe("the user id of whoever set it"),
  setAt: timestamp,
  expiresAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
});

const clientSecretState = z
  .enum(["set", "not_set"])
  .describe(
    "whether an admin set the client secret of the connector's registered OAuth client (never the secret)",
  );

export const connectorListing = z.object({
  id: z.string(),
  source: z.enum(["team", "curated"]).describe("curated: a catalog entry the team has not set up"),
  definition,
  docsUrl: z.string().nullable(),
  /** The ways a curated server takes a credential, in its order of preference. */
  curatedAuth: z.array(z.string()),
  needsCredential: z.boolean().describe("whether runs need a credential to reach it"),
  teamCredential: credentialSummary
    .nullable()
    .describe("the team's credential (credential_mode team)"),
  myCredential: credentialSummary
    .nullable()
    .describe("your own account's credential (credential_mode member)"),
  memberCredentials: z.number().int().describe("how many members connected their own account"),
  memberCredentialsToReconnect: z
    .number()
    .int()
    .describe("how many of those must be connected again"),
  clientSecret: clientSecretState,
  updatedAt: timestamp.nullable(),
});
export const connectorList = z.array(connectorListing);
export const listConnectorsResponse = z.object({ connectors: connectorList });

export const createConnectorBody = z.object({ definition });
export const updateConnectorBody = z.object({ definition });
export const updateConnectorInput = updateConnectorBody.extend({ id: connectorId });
export const setUpCuratedBody = z.object({
  choice: z
    .record(z.string(), z.unknown())
    .default({})
    .describe(
      "auth, oauth_client_id, lanes, credential_mode, initial_tools, tool_allow, enabled (default on)",
    ),
});
export const setUpCuratedInput = setUpCuratedBody.extend({ id: connectorId });
export const connectorIdInput = z.object({ id: connectorId });
export const removeConnectorResponse = z.object({ id: z.string() });

const scope = z
  .enum(["team", "member"])
  .describe("team: the team's account (admins); member: your own account");
export const setCredentialBody = z.object({
  scope,
  value: z
    .string()
    .min(1)
    .max(16_384)
    .describe(
      "write-only: an API key or token; for auth client_credentials the client secret, or the PEM private key (RS256 or ES256) with oauth_client_auth private_key_jwt",
    ),
  expiresAt: timestamp.nullable().optional(),
});
export const setCredentialInput = setCredentialBody.extend({ id: connectorId });
export const revokeCredentialBody = z.object({
  scope,
  memberId: z
    .string()
    .max(64)
    .optional()
    .describe("admins: revoke this member's own account instead of yours"),
});
export const revokeCredentialInput = revokeCredentialBody.extend({ id: connectorId });
export const credentialResponse = credentialSummary;
export const revokeCredentialResponse = z.object({ id: z.string(), scope });

export const setClientSecretBody = z.object({
  secret: z
    .string()
    .max(4096)
    .nullable()
    .describe(
      "write-only: the client secret of the OAuth client named by oauth_client_id; null clears it",
    ),
});
export const setClientSecretInput = setClientSecretBody.extend({ id: connectorId });
export const setClientSecretResponse = z.object({
  id: z.string(),
  clientSecret: clientSecretState,
});

export const callToolBody = z.object({
  tool: z.string().min(1).max(128).describe("the server's own tool name"),
  arguments: z.record(z.string(), z.unknown()).default({}),
  lane: z
    .string()
    .max(64)
    .optional()
    .describe("the lane the call is made as, whose tool rules apply (default operator)"),
});
export const callToolInput = callToolBody.extend({ id: connectorId });
export const callToolResponse = connectorCallResultSchema;

export const beginOAuthBody = z.object({ scope });
export const beginOAuthInput = beginOAuthBody.extend({ id: connectorId });
export const beginOAuthResponse = z.object({
  authorizationUrl: z
    .string()
    .describe(
      "where to send the browser of the user connecting; the callback completes in that user's signed-in session",
    ),
  redirectUri: z
    .string()
    .describe(
      "the callback the authorization server sends the browser back to (register it where a vendor needs it)",
    ),
  /** The authorization must be completed before this. */
  expiresAt: timestamp,
});

export const connectorOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: connectorList,
    rest: {
      method: "GET",
      path: "/connectors",
      summary:
        "The team's connectors: the curated catalog merged with the team's own, each with its credentials' status (never a value)",
      status: 200,
      description: "Connectors",
      wrap: "connectors",
      response: listConnectorsResponse,
    },
  }),
  create: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: createConnectorBody,
    output: connectorListing,
    rest: {
      method: "POST",
      path: "/connectors",
      summary:
        "Admins: add a team-authored connector (stdio or http), checked whole; a value that looks like a secret is refused",
      body: createConnectorBody,
      status: 201,
      description: "The connector as stored",
      errors: { 409: "The id is a curated connector's (CONFLICT)" },
    },
  }),
  setUp: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: setUpCuratedInput,
    output: connectorListing,
    rest: {
      method: "POST",
      path: "/connectors/{id}/setup",
      summary:
        "Admins: set up a curated connector for the team with its choices (auth, lanes, rules)",
      body: setUpCuratedBody,
      status: 200,
      description: "The connector as stored",
    },
  }),
  update: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: updateConnectorInput,
    output: connectorListing,
    rest: {
      method: "PUT",
      path: "/connectors/{id}",
      summary:
        "Admins: replace a connector's definition (enable, disable, lanes, tool rules go this way)",
      body: updateConnectorBody,
      status: 200,
      description: "The connector as stored",
    },
  }),
  remove: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: connectorIdInput,
    output: removeConnectorResponse,
    rest: {
      method: "DELETE",
      path: "/connectors/{id}",
      summary: "Admins: remove a connector and every credential of it",
      status: 200,
      description: "Removed",
    },
  }),
  setCredential: operation({
    kind: "mutation",
    access: "team",
    input: setCredentialInput,
    output: credentialResponse,
    rest: {
      method: "PUT",
      path: "/connectors/{id}/credential",
      summary:
        "Set a connector's credential, write-only: the team's (admins), or your own account's where each member uses theirs",
      body: setCredentialBody,
      status: 200,
      description: "What anyone may see of the credential",
    },
  }),
  revokeCredential: operation({
    kind: "mutation",
    access: "team",
    input: revokeCredentialInput,
    output: revokeCredentialResponse,
    rest: {
      method: "DELETE",
      path: "/connectors/{id}/credential",
      summary:
        "Revoke a connector's credential: the team's (admins), your own, or (admins) a member's",
      body: revokeCredentialBody,
      status: 200,
      description: "Revoked",
    },
  }),
  setClientSecret: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: setClientSecretInput,
    output: setClientSecretResponse,
    rest: {
      method: "PUT",
      path: "/connectors/{id}/client-secret",
      summary:
        "Admins: set (or clear, with null) the client secret of an OAuth connector's registered client, sent at the token endpoint; never returned",
      body: setClientSecretBody,
      status: 200,
      description: "Whether a client secret is set",
    },
  }),
  callTool: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: callToolInput,
    output: callToolResponse,
    rest: {
      method: "POST",
      path: "/connectors/{id}/call",
      summary: "Admins: call one tool of a connector by hand, through a worker, and see its result",
      body: callToolBody,
      status: 200,
      description: "The tool's result, scrubbed of the credential",
    },
  }),
  beginOAuth: operation({
    kind: "mutation",
    access: "team",
    input: beginOAuthInput,
    output: beginOAuthResponse,
    rest: {
      method: "POST",
      path: "/connectors/{id}/oauth",
      summary:
        "Begin connecting an http connector over OAuth, the team's account (admins) or your own where each member uses theirs: open authorizationUrl in the browser where you are signed in to the dashboard; its callback stores the grant",
      body: beginOAuthBody,
      status: 200,
      description: "Where to authorize, within ten minutes",
    },
  }),
};
