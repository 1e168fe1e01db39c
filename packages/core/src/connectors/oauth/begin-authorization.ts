/**
 * The first half of the authorization code flow: the URL to send the user's browser to,
 * with PKCE (S256), a random state and the resource indicator. Nothing is stored here; the
 * caller binds `state` to the user's session and keeps `codeVerifier` for the callback.
 */
import { randomBytes } from "node:crypto";
import { startAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { AppError } from "../../errors";
import type { OAuthClientInfo, OAuthServerInfo } from "./oauth-types";
import { sameIssuer } from "./oauth-wire";

type BeginAuthorizationInput = {
  server: OAuthServerInfo;
  client: OAuthClientInfo;
  /** Switchyard's OAuth callback URL (the one the client was registered with). */
  redirectUri: string;
  /** Overrides the scope discovery chose. */
  scope?: string;
};

type BegunAuthorization = { url: URL; state: string; codeVerifier: string };

export const assertClientOf = (server: OAuthServerInfo, client: OAuthClientInfo): void => {
  if (!sameIssuer(client.issuer, server.issuer))
    throw new AppError(
      "USER.CONNECTOR.OAUTH_FAILED",
      `the client id was issued by ${client.issuer}, not by this connector's authorization server ${server.issuer}`,
    );
};

export const beginAuthorization = async (
  input: BeginAuthorizationInput,
): Promise<BegunAuthorization> => {
  const { server, client } = input;
  assertClientOf(server, client);
  const state = randomBytes(32).toString("base64url");
  const scope = input.scope ?? server.scope;
  const { authorizationUrl, codeVerifier } = await startAuthorization(server.issuer, {
    metadata: server.metadata,
    clientInformation: { client_id: client.clientId },
    redirectUrl: input.redirectUri,
    state,
    resource: server.resource,
    ...(scope ? { scope } : {}),
  });
  return { url: authorizationUrl, state, codeVerifier };
};
