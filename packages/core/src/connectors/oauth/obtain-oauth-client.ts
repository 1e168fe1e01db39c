/**
 * The client id Switchyard presents to a connector's authorization server: the one an
 * administrator registered there (with its secret, if any), else one obtained by dynamic
 * client registration (RFC 7591) as a web application with Switchyard's redirect URI.
 * The caller stores the result with the connector (secret sealed); it is bound to its issuer.
 */
import { registerClient } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { AppError } from "../../errors";
import type { FetchLike, OAuthClientInfo, OAuthServerInfo } from "./oauth-types";
import { oauthRefusal, unreachable } from "./oauth-wire";

type ObtainOAuthClientOptions = {
  /** Switchyard's OAuth callback URL, registered with the client. */
  redirectUri: string;
  /**
   * The client name registered with the authorization server.
   * @default "Switchyard"
   */
  clientName?: string;
  /** A client registered beforehand by an administrator; wins over registration. */
  preRegistered?: { clientId: string; clientSecret?: string | undefined };
  fetch: FetchLike;
};

/** A public client with PKCE where the server allows it, else one with a secret. */
const authMethodFor = (supported: string[] | undefined): string => {
  if (!supported || supported.includes("none")) return "none";
  return supported.includes("client_secret_basic") ? "client_secret_basic" : "client_secret_post";
};

export const obtainOAuthClient = async (
  server: OAuthServerInfo,
  options: ObtainOAuthClientOptions,
): Promise<OAuthClientInfo> => {
  const { issuer, metadata } = server;
  if (options.preRegistered) {
    const { clientId, clientSecret } = options.preRegistered;
    return { issuer, clientId, ...(clientSecret ? { clientSecret } : {}) };
  }
  if (!metadata.registration_endpoint)
    throw new AppError(
      "USER.CONNECTOR.OAUTH_UNSUPPORTED",
      `the authorization server ${issuer} offers no dynamic client registration: register Switchyard there (redirect URI ${options.redirectUri}) and give the connector that client id`,
    );

  const method = authMethodFor(metadata.token_endpoint_auth_methods_supported);
  const clientMetadata = {
    client_name: options.clientName ?? "Switchyard",
    redirect_uris: [options.redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: method,
    application_type: "web",
  } satisfies OAuthClientMetadata & { application_type: string };
  // The scope goes into the registration only where the server lists it: some refuse to
  // register scopes they do not know, even when the resource's tokens carry them.
  const listed = metadata.scopes_supported;
  const scope = server.scope?.split(" ").every((s) => !listed || listed.includes(s))
    ? server.scope
    : undefined;
  const registered = await registerClient(issuer, {
    metadata,
    clientMetadata,
    ...(scope ? { scope } : {}),
    fetchFn: options.fetch,
  }).catch((error: unknown) => {
    const refusal = oauthRefusal(error);
    throw refusal
      ? new AppError(
          "USER.CONNECTOR.OAUTH_FAILED",
          `the authorization server ${issuer} refused to register Switchyard (${refusal})`,
          { cause: error },
        )
      : unreachable(`registering with ${issuer}`, error);
  });
  return {
    issuer,
    clientId: registered.client_id,
    ...(registered.client_secret ? { clientSecret: registered.client_secret } : {}),
    tokenEndpointAuthMethod: registered.token_endpoint_auth_method ?? method,
    ...(registered.client_secret_expires_at
      ? { clientSecretExpiresAt: registered.client_secret_expires_at }
      : {}),
    ...(scope ? { registeredScope: scope } : {}),
  };
};
