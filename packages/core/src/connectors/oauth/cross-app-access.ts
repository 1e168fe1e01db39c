/**
 * Enterprise-managed authorization (cross-app access, the MCP "enterprise" extension): the
 * organisation's IdP, not a person at a consent screen, decides whether a member may reach
 * an MCP server. Two token requests and no browser:
 * 1. RFC 8693 token exchange at the IdP: the member's ID token from their sign-in becomes an
 *    identity assertion JWT authorization grant (ID-JAG) for the server's authorization
 *    server (`audience`) and the server itself (`resource`);
 * 2. RFC 7523 jwt-bearer grant at that authorization server: the ID-JAG becomes an access
 *    token, with the client Switchyard is registered as there.
 * Refusals become AppErrors naming the OAuth error code, never a token or the server's text.
 */
import { z } from "zod";
import { AppError } from "../../errors";
import type { FetchLike, OAuthServerInfo, OAuthTokenSet } from "./oauth-types";
import { invalidFields, sameIssuer, toTokenSet, unreachable } from "./oauth-wire";

const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";

/** A client at a token endpoint: its id, and its secret when it has one. */
type TokenClient = { clientId: string; clientSecret?: string };

type CrossAppAccessInput = {
  fetch: FetchLike;
  /** The organisation IdP: its issuer (the member's sign-in's) and Switchyard's client there. */
  idp: { issuer: string } & TokenClient;
  /** The MCP server's discovered authorization server (discoverOAuthServer with the jwt-bearer grant). */
  server: OAuthServerInfo;
  /** Switchyard's client at that authorization server. */
  client: TokenClient;
  /** The member's ID token, issued by `idp.issuer` at their sign-in. */
  idToken: string;
  now?: () => number;
};

const idpMetadataSchema = z.object({ issuer: z.string(), token_endpoint: z.url() });
const exchangeAnswerSchema = z.object({
  access_token: z.string().min(1),
  issued_token_type: z.literal(ID_JAG_TOKEN_TYPE),
});
const tokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});

/** The IdP's token endpoint, from its OpenID (else RFC 8414) metadata; the issuer must be the one asked. */
const idpTokenEndpoint = async (issuer: string, fetchFn: FetchLike): Promise<string> => {
  const base = issuer.replace(/\/$/, "");
  for (const wellKnown of ["openid-configuration", "oauth-authorization-server"]) {
    const url = `${base}/.well-known/${wellKnown}`;
    const response = await fetchFn(url, { headers: { accept: "application/json" } }).catch(
      (error: unknown) => {
        throw unreachable(`reading the metadata of IdP ${issuer}`, error);
      },
    );
    if (!response.ok) {
      await response.body?.cancel();
      if (response.status >= 500)
        throw unreachable(`reading ${url}`, new Error(`HTTP ${response.status}`));
      continue;
    }
    const parsed = idpMetadataSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success)
      throw new AppError(
        "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
        `${url} is not IdP metadata: ${invalidFields(parsed.error)}`,
      );
    if (!sameIssuer(parsed.data.issuer, issuer))
      throw new AppError(
        "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
        `the metadata of IdP ${issuer} names another issuer, ${parsed.data.issuer}`,
      );
    return parsed.data.token_endpoint;
  }
  throw new AppError(
    "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
    `IdP ${issuer} publishes no OpenID or OAuth metadata, so its token endpoint is unknown`,
  );
};

/** client_secret_basic (RFC 6749 2.3.1: both parts form-encoded) where there is a secret, else the id in the body. */
const clientAuth = (
  client: TokenClient,
  basic: boolean,
  body: URLSearchParams,
): Record<string, string> => {
  if (client.clientSecret === undefined) {
    body.set("client_id", client.clientId);
    return {};
  }
  if (!basic) {
    body.set("client_id", client.clientId);
    body.set("client_secret", client.clientSecret);
    return {};
  }
  const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
  return { authorization: `Basic ${Buffer.from(pair).toString("base64")}` };
};

const OAUTH_CODE = /^[a-z_]{1,64}$/;

/** Posts a token request; a 4xx with an OAuth error is `refused(code)`, anything else unreachable. */
const tokenRequest = async (
  what: string,
  endpoint: string,
  body: URLSearchParams,
  headers: Record<string, string>,
  fetchFn: FetchLike,
  refused: (code: string) => AppError,
): Promise<unknown> => {
  const response = await fetchFn(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      ...headers,
    },
    body: body.toString(),
  }).catch((error: unknown) => {
    throw unreachable(what, error);
  });
  const json: unknown = await response.json().catch(() => null);
  if (response.ok) return json;
  const code = (json as { error?: unknown } | null)?.error;
  if (response.status < 500 && typeof code === "string")
    throw refused(OAUTH_CODE.test(code) ? code : "an unknown error code");
  throw unreachable(what, new Error(`HTTP ${response.status}`));
};

/** Exchanges the member's ID token for an ID-JAG at the IdP (RFC 8693). */
const exchangeForIdJag = async (input: CrossAppAccessInput): Promise<string> => {
  const { idp, server } = input;
  const endpoint = await idpTokenEndpoint(idp.issuer, input.fetch);
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG_TOKEN_TYPE,
    subject_token: input.idToken,
    subject_token_type: ID_TOKEN_TYPE,
    audience: server.issuer,
    resource: server.resource,
  });
  if (server.scope) body.set("scope", server.scope);
  const answer = await tokenRequest(
    `the token exchange at IdP ${idp.issuer}`,
    endpoint,
    body,
    clientAuth(idp, true, body),
    input.fetch,
    (code) =>
      new AppError(
        "USER.CONNECTOR.IDP_REFUSED",
        `IdP ${idp.issuer} refused to grant access to ${server.resource} for this sign-in (${code}): sign in to Switchyard again, or ask the IdP's administrator to allow this application`,
      ),
  );
  const parsed = exchangeAnswerSchema.safeParse(answer);
  if (!parsed.success)
    throw new AppError(
      "USER.CONNECTOR.IDP_REFUSED",
      `IdP ${idp.issuer} answered the token exchange without an identity assertion grant: ${invalidFields(parsed.error)}`,
    );
  return parsed.data.access_token;
};

/** Whether the authorization server takes the client's secret in the Authorization header (its default). */
const prefersBasic = (server: OAuthServerInfo) => {
  const methods = server.metadata.token_endpoint_auth_methods_supported;
  return (
    !methods || methods.includes("client_secret_basic") || !methods.includes("client_secret_post")
  );
};

/** The member's access token to the connector's server, obtained from their sign-in through the IdP. */
export const crossAppAccessToken = async (input: CrossAppAccessInput): Promise<OAuthTokenSet> => {
  const idJag = await exchangeForIdJag(input);
  const { server, client } = input;
  const body = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: idJag });
  if (server.scope) body.set("scope", server.scope);
  const answer = await tokenRequest(
    `the token request at ${server.issuer}`,
    server.metadata.token_endpoint,
    body,
    clientAuth(client, prefersBasic(server), body),
    input.fetch,
    (code) =>
      new AppError(
        "USER.CONNECTOR.OAUTH_FAILED",
        `the authorization server ${server.issuer} refused the IdP's grant (${code})`,
      ),
  );
  const parsed = tokenAnswerSchema.safeParse(answer);
  if (!parsed.success)
    throw new AppError(
      "USER.CONNECTOR.OAUTH_FAILED",
      `the authorization server ${server.issuer} answered without an access token: ${invalidFields(parsed.error)}`,
    );
  return toTokenSet(parsed.data, (input.now ?? Date.now)());
};
