/**
 * An OAuth grant of a connector as it is sealed: the server and client it was made with and
 * its token set, as one JSON text (dates as ISO 8601). The web app writes it when a person
 * connects; the worker reads it, and writes it again when a refresh rotates the tokens.
 */
import {
  checkResourceAllowed,
  resourceUrlFromServerUrl,
} from "@modelcontextprotocol/sdk/shared/auth-utils.js";
import { AppError } from "../errors";
import type { OAuthClientInfo, OAuthServerInfo, OAuthTokenSet } from "./oauth";

type OAuthGrant = { server: OAuthServerInfo; client: OAuthClientInfo; tokens: OAuthTokenSet };

type GrantJson = Omit<OAuthGrant, "tokens"> & {
  tokens: Omit<OAuthTokenSet, "expiresAt"> & { expiresAt?: string };
};

/** The grant as the JSON text that is sealed. */
export const grantToJson = (grant: OAuthGrant): string => {
  const { expiresAt, ...tokens } = grant.tokens;
  const json: GrantJson = {
    ...grant,
    tokens: { ...tokens, ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}) },
  };
  return JSON.stringify(json);
};

/** The grant a sealed JSON text holds (the inverse of grantToJson). */
export const grantFromJson = (text: string): OAuthGrant => {
  const json = JSON.parse(text) as GrantJson;
  const { expiresAt, ...tokens } = json.tokens;
  return {
    ...json,
    tokens: { ...tokens, ...(expiresAt ? { expiresAt: new Date(expiresAt) } : {}) },
  };
};

/** Every secret of a grant, for the scrubber. */
export const grantSecrets = (grant: OAuthGrant): string[] =>
  [grant.tokens.accessToken, grant.tokens.refreshToken, grant.client.clientSecret].filter(
    (s): s is string => typeof s === "string" && s !== "",
  );

/**
 * Whether a grant may be used with the connector at `url`: the resource (RFC 8707) it was
 * issued for covers that URL (same origin, and the URL's path at or below the resource's).
 * A grant made for another server is never sent there.
 */
export const grantCoversUrl = (grant: OAuthGrant, url: string): boolean => {
  try {
    return checkResourceAllowed({
      requestedResource: resourceUrlFromServerUrl(url),
      configuredResource: grant.server.resource,
    });
  } catch {
    return false;
  }
};

/**
 * The refusal of a connector whose credential must be connected again, saying why:
 * `destination_changed` (where it sends its credential changed since it was connected) or
 * a refused refresh (anything else).
 */
export const reconnectRefusal = (
  connector: string,
  reason: string | null,
  detail?: string,
): AppError =>
  new AppError(
    "USER.CONNECTOR.NEEDS_RECONNECT",
    reason === "destination_changed"
      ? `connector "${connector}" must be connected again on the Connectors page: where it sends its credential changed since it was connected (${detail ?? "its URL, command, arguments, environment, headers or authorization server"}), and a credential is never sent somewhere new`
      : `connector "${connector}" must be connected again on the Connectors page: its authorization expired or was revoked`,
    { details: { reason: reason ?? "refresh_refused" } },
  );
