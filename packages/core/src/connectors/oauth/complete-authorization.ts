/**
 * The second half of the authorization code flow, at Switchyard's callback: the response
 * must carry the state the flow began with and, where the server says it sends one
 * (RFC 9207), its own issuer; then the code is exchanged with the PKCE verifier and the
 * resource indicator for a token set.
 */
import { exchangeAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { AppError } from "../../errors";
import { sameText } from "../../crypto/same-text";
import { assertClientOf } from "./begin-authorization";
import type { FetchLike, OAuthClientInfo, OAuthServerInfo, OAuthTokenSet } from "./oauth-types";
import { oauthRefusal, sameIssuer, sdkClient, toTokenSet, unreachable } from "./oauth-wire";

type CompleteAuthorizationInput = {
  server: OAuthServerInfo;
  client: OAuthClientInfo;
  redirectUri: string;
  /** The state `beginAuthorization` returned, as the caller kept it. */
  state: string;
  codeVerifier: string;
  /** The callback URL the browser arrived at, or its query parameters. */
  callback: URL | URLSearchParams;
  fetch: FetchLike;
  now?: () => number;
};

/** `oauthError`: the server's OAuth error code, in details (invalid_client: it does not know the client). */
const failed = (message: string, cause?: unknown, oauthError?: string) =>
  new AppError("USER.CONNECTOR.OAUTH_FAILED", message, {
    ...(cause === undefined ? {} : { cause }),
    ...(oauthError ? { details: { oauthError } } : {}),
  });

export const completeAuthorization = async (
  input: CompleteAuthorizationInput,
): Promise<OAuthTokenSet> => {
  const { server, client } = input;
  assertClientOf(server, client);
  const params = input.callback instanceof URL ? input.callback.searchParams : input.callback;

  if (!sameText(params.get("state") ?? "", input.state))
    throw failed(
      "the authorization response does not carry the state this authorization began with",
    );
  const iss = params.get("iss");
  if (iss !== null && !sameIssuer(iss, server.issuer))
    throw failed(`the authorization response names issuer ${iss}, not ${server.issuer}`);
  const sendsIss = (server.metadata as Record<string, unknown>)
    .authorization_response_iss_parameter_supported;
  if (iss === null && sendsIss === true)
    throw failed(`the authorization response lacks the issuer (iss) that ${server.issuer} sends`);
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description");
    throw failed(
      `the authorization server answered ${error}${description ? `: ${description}` : ""}`,
    );
  }
  const code = params.get("code");
  if (!code) throw failed("the authorization response carries no code");

  const now = (input.now ?? Date.now)();
  const tokens = await exchangeAuthorization(server.issuer, {
    metadata: server.metadata,
    clientInformation: sdkClient(client),
    authorizationCode: code,
    codeVerifier: input.codeVerifier,
    redirectUri: input.redirectUri,
    resource: server.resource,
    fetchFn: input.fetch,
  }).catch((error: unknown) => {
    const refusal = oauthRefusal(error);
    throw refusal
      ? failed(
          `the authorization server refused the code (${refusal})`,
          error,
          refusal.split(":")[0],
        )
      : unreachable(`exchanging the code with ${server.issuer}`, error);
  });
  return toTokenSet(tokens, now);
};
