/**
 * Connects to a protected MCP server the way the web app does (discovery, a client,
 * authorization with the test user approving, the code exchanged), for tests that need a
 * live token set: the worker's token source, a connector host, a stored credential.
 */
import {
  beginAuthorization,
  completeAuthorization,
  discoverOAuthServer,
  obtainOAuthClient,
  type OAuthClientInfo,
  type OAuthServerInfo,
  type OAuthTokenSet,
} from "@switchyard/core/connectors";
import { loopbackEgressFetch } from "../egress";
import type { TestAuthorizationServer } from "./oauth-server";

export const TEST_REDIRECT_URI = "http://127.0.0.1:3999/api/connectors/oauth/callback";

export const connectWithOAuth = async (
  as: Pick<TestAuthorizationServer, "approve">,
  mcpUrl: string,
  options: {
    preRegistered?: { clientId: string; clientSecret?: string };
    redirectUri?: string;
  } = {},
): Promise<{ server: OAuthServerInfo; client: OAuthClientInfo; tokens: OAuthTokenSet }> => {
  const redirectUri = options.redirectUri ?? TEST_REDIRECT_URI;
  const fetch = loopbackEgressFetch();
  const server = await discoverOAuthServer(mcpUrl, { fetch });
  const client = await obtainOAuthClient(server, {
    redirectUri,
    fetch,
    ...(options.preRegistered ? { preRegistered: options.preRegistered } : {}),
  });
  const begun = await beginAuthorization({ server, client, redirectUri });
  const callback = await as.approve(begun.url, redirectUri);
  const tokens = await completeAuthorization({
    server,
    client,
    redirectUri,
    state: begun.state,
    codeVerifier: begun.codeVerifier,
    callback,
    fetch,
  });
  await fetch.close();
  return { server, client, tokens };
};
