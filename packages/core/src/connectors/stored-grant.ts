/**
 * An OAuth grant of a connector as it is sealed: the server and client it was made with and
 * its token set, as one JSON text (dates as ISO 8601). The web app writes it when a person
 * connects; the worker reads it, and writes it again when a refresh rotates the tokens.
 */
import type { OAuthClientInfo, OAuthServerInfo, OAuthTokenSet } from "./oauth";

type OAuthGrant = { server: OAuthServerInfo; client: OAuthClientInfo; tokens: OAuthTokenSet };

type GrantJson = Omit<OAuthGrant, "tokens"> & { tokens: Omit<OAuthTokenSet, "expiresAt"> & { expiresAt?: string } };

export const grantToJson = (grant: OAuthGrant): string => {
  const { expiresAt, ...tokens } = grant.tokens;
  const json: GrantJson = { ...grant, tokens: { ...tokens, ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}) } };
  return JSON.stringify(json);
};

export const grantFromJson = (text: string): OAuthGrant => {
  const json = JSON.parse(text) as GrantJson;
  const { expiresAt, ...tokens } = json.tokens;
  return { ...json, tokens: { ...tokens, ...(expiresAt ? { expiresAt: new Date(expiresAt) } : {}) } };
};

/** Every secret of a grant, for the scrubber. */
export const grantSecrets = (grant: OAuthGrant): string[] =>
  [grant.tokens.accessToken, grant.tokens.refreshToken, grant.client.clientSecret].filter((s): s is string => typeof s === "string" && s !== "");
