/**
 * Between the MCP SDK's OAuth helpers and Switchyard: the SDK's token answers become token
 * sets, its client shape is built from ours, and its failures become AppErrors whose
 * messages name the OAuth error but never a secret.
 */
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import {
  OAuthError,
  ServerError,
  TemporarilyUnavailableError,
  TooManyRequestsError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { ZodError } from "zod";
import { AppError } from "../../errors";
import type { OAuthClientInfo, OAuthTokenSet } from "./oauth-types";

/** Issuer identifiers compared as URLs, tolerating one trailing slash. */
export const sameIssuer = (a: string, b: string): boolean => {
  const norm = (s: string) => {
    try {
      return new URL(s).href.replace(/\/$/, "");
    } catch {
      return s.replace(/\/$/, "");
    }
  };
  return norm(a) === norm(b);
};

/** The SDK's client shape; a registered auth method makes it pick that method at the token endpoint. */
export const sdkClient = (client: OAuthClientInfo): OAuthClientInformationMixed => ({
  client_id: client.clientId,
  ...(client.clientSecret !== undefined ? { client_secret: client.clientSecret } : {}),
  ...(client.tokenEndpointAuthMethod !== undefined
    ? { token_endpoint_auth_method: client.tokenEndpointAuthMethod, redirect_uris: [] }
    : {}),
});

/** A token response as a token set; `previous` fills what a refresh answer may leave out. */
export const toTokenSet = (
  tokens: OAuthTokens,
  now: number,
  previous: { refreshToken?: string; scope?: string } = {},
): OAuthTokenSet => {
  if (tokens.token_type.toLowerCase() !== "bearer")
    throw new AppError(
      "USER.CONNECTOR.OAUTH_UNSUPPORTED",
      `the authorization server issued a "${tokens.token_type}" token; only Bearer tokens are supported`,
    );
  const refreshToken = tokens.refresh_token ?? previous.refreshToken;
  const scope = tokens.scope ?? previous.scope;
  return {
    accessToken: tokens.access_token,
    tokenType: tokens.token_type,
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(tokens.expires_in !== undefined
      ? { expiresAt: new Date(now + tokens.expires_in * 1000) }
      : {}),
    ...(scope !== undefined ? { scope } : {}),
  };
};

/** What the standard OAuth error codes mean, in our words (RFC 6749 5.2, RFC 7591 3.2.2). */
const OAUTH_ERROR_WORDS: Record<string, string> = {
  invalid_request: "the request was malformed or missed a parameter",
  invalid_client: "the client id is unknown to it, or its secret is wrong",
  invalid_grant:
    "the code or refresh token is invalid, expired, already used or for another client",
  unauthorized_client: "this client may not use this grant",
  unsupported_grant_type: "it does not support this grant type",
  invalid_scope: "the scope asked for is invalid or beyond what it grants",
  access_denied: "the request was denied",
  invalid_redirect_uri: "it does not accept Switchyard's redirect URI",
  invalid_client_metadata: "it does not accept Switchyard's client metadata",
  invalid_target: "it does not accept the resource indicator",
};

/**
 * An OAuth error the authorization server meant (not an outage), as its error code and what
 * that code means. Its `error_description` is the server's own text and is never repeated.
 */
export const oauthRefusal = (error: unknown): string | undefined => {
  if (!(error instanceof OAuthError)) return undefined;
  if (
    error instanceof ServerError ||
    error instanceof TemporarilyUnavailableError ||
    error instanceof TooManyRequestsError
  )
    return undefined;
  const code = /^[a-z_]{1,64}$/.test(error.errorCode) ? error.errorCode : "an unknown error code";
  const words = OAUTH_ERROR_WORDS[code];
  return words ? `${code}: ${words}` : code;
};

/** The HTTP status the SDK put at the head of its message ("HTTP 502: ..."), if any. */
const httpStatusOf = (error: unknown) =>
  error instanceof Error ? /^HTTP (\d{3})\b/.exec(error.message)?.[1] : undefined;

/**
 * A failure to reach the authorization server, or an answer that is no OAuth answer. Our
 * own errors (the egress rule's refusal, its timeouts) pass as they are; anything else is
 * told by its HTTP status or error code only, since its message may quote what the server sent.
 */
export const unreachable = (what: string, error: unknown): AppError => {
  if (error instanceof AppError && error.code.startsWith("EXECUTION.EGRESS."))
    return new AppError("EXECUTION.CONNECTOR_UNAVAILABLE", `${what} failed: ${error.message}`, {
      retryable: true,
      cause: error,
    });
  if (error instanceof AppError) return error;
  const status = httpStatusOf(error);
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const why = status
    ? `: the server answered HTTP ${status}`
    : typeof code === "string"
      ? ` (${code})`
      : error instanceof SyntaxError
        ? ": the answer is not JSON"
        : "";
  return new AppError("EXECUTION.CONNECTOR_UNAVAILABLE", `${what} failed${why}`, {
    retryable: true,
    cause: error,
  });
};

/** Which fields of a remote document broke its schema, by path only (never the values). */
export const invalidFields = (error: ZodError): string => {
  const paths = [...new Set(error.issues.map((i) => i.path.join(".") || "(the document)"))];
  return `invalid or missing ${paths.slice(0, 5).join(", ")}${paths.length > 5 ? ` and ${paths.length - 5} more` : ""}`;
};
