/**
 * Where a stored client secret or key may go: the authorization server (issuer and token
 * endpoint) discovered when an admin gave it. Discovery at call time follows the resource
 * server's metadata, which can come to name another server; the secret never follows it there.
 */
import type { OAuthServerInfo } from "./oauth-types";

type AuthorizationServerPin = { issuer: string; tokenEndpoint: string };

/** The pin of a discovered server, to keep with the credential (non-secret metadata). */
export const authorizationServerPin = (server: OAuthServerInfo): AuthorizationServerPin => ({
  issuer: server.issuer,
  tokenEndpoint: server.metadata.token_endpoint,
});

/** The pin kept in a credential's metadata; undefined when it holds none. */
export const pinFromMetadata = (metadata: unknown): AuthorizationServerPin | undefined => {
  const m = metadata as Record<string, unknown> | null | undefined;
  return typeof m?.issuer === "string" && typeof m.tokenEndpoint === "string"
    ? { issuer: m.issuer, tokenEndpoint: m.tokenEndpoint }
    : undefined;
};

/**
 * How the server discovered now differs from the pinned one, in words for a refusal;
 * undefined when it is the same server.
 */
export const pinDrift = (
  pinned: AuthorizationServerPin | undefined,
  server: OAuthServerInfo,
): string | undefined => {
  const now = authorizationServerPin(server);
  if (!pinned)
    return `its secret was set before Switchyard kept the authorization server it is for, and the resource names ${now.issuer}`;
  if (pinned.issuer !== now.issuer)
    return `its secret is for the authorization server ${pinned.issuer}, and the resource now names ${now.issuer}`;
  if (pinned.tokenEndpoint !== now.tokenEndpoint)
    return `its secret is for the token endpoint ${pinned.tokenEndpoint}, and ${now.issuer} now lists ${now.tokenEndpoint}`;
  return undefined;
};
