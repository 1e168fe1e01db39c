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

/** An OAuth error the authorization server meant (not an outage): `error: description`. */
export const oauthRefusal = (error: unknown): string | undefined => {
  if (!(error instanceof OAuthError)) return undefined;
  if (
    error instanceof ServerError ||
    error instanceof TemporarilyUnavailableError ||
    error instanceof TooManyRequestsError
  )
    return undefined;
  return error.message ? `${error.errorCode}: ${error.message}` : error.errorCode;
};

/** A failure to reach the authorization server, or an answer that is no OAuth answer. */
export const unreachable = (what: string, error: unknown): AppError => {
  if (error instanceof AppError) return error;
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError(
    "EXECUTION.CONNECTOR_UNAVAILABLE",
    `${what} failed: ${reason}${typeof cause === "string" ? ` (${cause})` : ""}`,
    { retryable: true, cause: error },
  );
};
