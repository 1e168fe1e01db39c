/**
 * Discovery as the MCP authorization spec asks of a client: an unauthenticated request to
 * the MCP server, the 401's `WWW-Authenticate` naming the protected resource metadata
 * (RFC 9728) or else its well-known URLs, then the first listed authorization server's
 * metadata (RFC 8414 with path insertion, falling back to OpenID discovery, by the SDK).
 * A server that asks for authorization but publishes no such metadata (the 2025-03-26
 * revision) is authorized by its own origin, as the SDK's client also falls back.
 * The result is checked before anyone is sent to authorize: the metadata is for this
 * resource, the issuer is the one asked, and the server offers the code flow (its response
 * type and, where it lists grant types, its grant) with PKCE S256.
 */
import {
  buildDiscoveryUrls,
  discoverAuthorizationServerMetadata,
  extractWWWAuthenticateParams,
} from "@modelcontextprotocol/sdk/client/auth.js";
import {
  checkResourceAllowed,
  resourceUrlFromServerUrl,
} from "@modelcontextprotocol/sdk/shared/auth-utils.js";
import {
  OAuthProtectedResourceMetadataSchema,
  type AuthorizationServerMetadata,
  type OAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { ZodError } from "zod";
import { AppError } from "../../errors";
import { JWT_BEARER_GRANT } from "./cross-app-access";
import type { FetchLike, OAuthServerInfo } from "./oauth-types";
import { invalidFields, sameIssuer, unreachable } from "./oauth-wire";

type Challenge = { resourceMetadataUrl?: URL; scope?: string } | undefined;

/** What a client's first request would be: `initialize`, without a token. */
const probe = async (serverUrl: URL, fetchFn: FetchLike): Promise<Challenge> => {
  const response = await fetchFn(serverUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "switchyard", version: "0.1.0" },
      },
    }),
  }).catch((error: unknown) => {
    throw unreachable(`reaching ${serverUrl.href}`, error);
  });
  await response.body?.cancel();
  return response.status === 401 ? extractWWWAuthenticateParams(response) : undefined;
};

/** The named metadata URL, else the path-inserted well-known URL, then the root one. */
const metadataUrls = (serverUrl: URL, challenge: Challenge): URL[] => {
  if (challenge?.resourceMetadataUrl) return [challenge.resourceMetadataUrl];
  const path = serverUrl.pathname.replace(/\/$/, "");
  const root = new URL("/.well-known/oauth-protected-resource", serverUrl);
  return path ? [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl), root] : [root];
};

const readResourceMetadata = async (
  serverUrl: URL,
  challenge: Challenge,
  fetchFn: FetchLike,
): Promise<{ url: URL; metadata: OAuthProtectedResourceMetadata } | undefined> => {
  const urls = metadataUrls(serverUrl, challenge);
  for (const url of urls) {
    const response = await fetchFn(url, { headers: { accept: "application/json" } }).catch(
      (error: unknown) => {
        throw unreachable(`reading ${url.href}`, error);
      },
    );
    if (!response.ok) {
      await response.body?.cancel();
      if (response.status >= 500)
        throw unreachable(`reading ${url.href}`, new Error(`HTTP ${response.status}`));
      continue;
    }
    const parsed = OAuthProtectedResourceMetadataSchema.safeParse(
      await response.json().catch(() => null),
    );
    if (!parsed.success)
      throw new AppError(
        "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
        `${url.href} is not protected resource metadata (RFC 9728): ${invalidFields(parsed.error)}`,
      );
    return { url, metadata: parsed.data };
  }
  // A 401 without metadata is a server of the 2025-03-26 revision: its origin authorizes.
  if (challenge) return undefined;
  throw new AppError(
    "USER.CONNECTOR.OAUTH_UNSUPPORTED",
    `${serverUrl.href} does not ask for OAuth: no 401 with WWW-Authenticate and no protected resource metadata at ${urls.map((u) => u.href).join(", ")}`,
  );
};

const refuse = (issuer: string, what: string) =>
  new AppError(
    "USER.CONNECTOR.OAUTH_UNSUPPORTED",
    `the authorization server ${issuer} ${what}; the MCP authorization spec requires it, so Switchyard will not connect through it`,
  );

/** The authorization server's RFC 8414 (or OpenID) metadata, by the SDK; undefined where none is served. */
const readAuthorizationServerMetadata = (issuer: string, fetchFn: FetchLike) =>
  discoverAuthorizationServerMetadata(issuer, { fetchFn }).catch((error: unknown) => {
    if (error instanceof ZodError)
      throw new AppError(
        "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
        `the authorization server metadata of ${issuer} is not valid: ${invalidFields(error)}`,
      );
    throw unreachable(`reading the authorization server metadata of ${issuer}`, error);
  });

/** Where the protected resource metadata names the authorization server. */
const namedAuthorizationServer = async (
  url: URL,
  prm: { url: URL; metadata: OAuthProtectedResourceMetadata },
  fetchFn: FetchLike,
) => {
  const resource = prm.metadata.resource;
  if (
    !checkResourceAllowed({
      requestedResource: resourceUrlFromServerUrl(url),
      configuredResource: resource,
    })
  )
    throw new AppError(
      "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
      `the protected resource metadata at ${prm.url.href} is for ${resource}, not for ${url.href}`,
    );
  const issuer = prm.metadata.authorization_servers?.[0];
  if (!issuer)
    throw new AppError(
      "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
      `the protected resource metadata at ${prm.url.href} names no authorization server`,
    );
  const metadata = await readAuthorizationServerMetadata(issuer, fetchFn);
  if (!metadata)
    throw new AppError(
      "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
      `no authorization server metadata found for ${issuer} (tried ${buildDiscoveryUrls(issuer)
        .map((u) => u.url.href)
        .join(", ")})`,
    );
  if (!sameIssuer(metadata.issuer, issuer))
    throw new AppError(
      "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
      `the metadata of authorization server ${issuer} names another issuer, ${metadata.issuer}`,
    );
  return { resource, issuer, metadata };
};

/**
 * A server of the 2025-03-26 revision publishes no protected resource metadata: its origin
 * is the authorization server, with RFC 8414 metadata there or else the default endpoints
 * `/authorize`, `/token` and `/register`. The issuer the metadata names must be on that
 * origin, since nothing else vouches for it.
 */
/** The endpoints such a server has when it serves no metadata, where the SDK's client looks too. */
const defaultMetadata = (origin: string): AuthorizationServerMetadata => ({
  issuer: origin,
  authorization_endpoint: new URL("/authorize", origin).href,
  token_endpoint: new URL("/token", origin).href,
  registration_endpoint: new URL("/register", origin).href,
  response_types_supported: ["code"],
  // That revision requires PKCE of every client, so its servers take S256.
  code_challenge_methods_supported: ["S256"],
});

const originAuthorizationServer = async (url: URL, fetchFn: FetchLike) => {
  const origin = url.origin;
  const metadata =
    (await readAuthorizationServerMetadata(origin, fetchFn)) ?? defaultMetadata(origin);
  if (URL.canParse(metadata.issuer) ? new URL(metadata.issuer).origin !== origin : true)
    throw new AppError(
      "USER.CONNECTOR.OAUTH_DISCOVERY_FAILED",
      `${url.href} publishes no protected resource metadata, and the authorization server metadata at its origin names an issuer elsewhere, ${metadata.issuer}`,
    );
  return { resource: resourceUrlFromServerUrl(url).href, issuer: metadata.issuer, metadata };
};

/** The code flow as the MCP authorization spec requires it: the code response type, its grant, PKCE S256. */
const checkCodeFlow = (issuer: string, metadata: AuthorizationServerMetadata) => {
  const methods = metadata.code_challenge_methods_supported;
  if (!methods?.includes("S256"))
    throw refuse(
      issuer,
      `does not list S256 in code_challenge_methods_supported (${methods ? `it lists ${methods.join(", ") || "none"}` : "the field is absent"}), so it cannot be used with PKCE S256`,
    );
  if (!metadata.response_types_supported.includes("code"))
    throw refuse(
      issuer,
      `does not list "code" in response_types_supported (the authorization code flow)`,
    );

  // Absent, RFC 8414 means authorization_code and implicit: only a list without it refuses.
  const grants = metadata.grant_types_supported;
  if (grants && !grants.includes("authorization_code"))
    throw refuse(
      issuer,
      `does not list "authorization_code" in grant_types_supported (it lists ${grants.join(", ") || "none"}), so no person can approve a connection there`,
    );
};

/**
 * A grant that needs no browser (client credentials, the jwt-bearer grant of cross-app
 * access): the server must not say it lacks it (RFC 8414: an absent list is no answer).
 */
const checkGrantListed = (
  issuer: string,
  metadata: AuthorizationServerMetadata,
  grant: string,
  without: string,
) => {
  const grants = metadata.grant_types_supported;
  if (grants && !grants.includes(grant))
    throw refuse(
      issuer,
      `does not list "${grant}" in grant_types_supported (it lists ${grants.join(", ") || "none"}), so ${without}`,
    );
};

export const discoverOAuthServer = async (
  serverUrl: string | URL,
  options: {
    fetch: FetchLike;
    /**
     * The grant the connector will use: the code flow (a person approves) unless told;
     * client credentials and cross-app access's jwt-bearer grant need no browser, so only
     * that the server lists them is checked.
     */
    grant?: "authorization_code" | "client_credentials" | "jwt-bearer";
  },
): Promise<OAuthServerInfo> => {
  const fetchFn = options.fetch;
  const url = new URL(serverUrl);
  const challenge = await probe(url, fetchFn);
  const prm = await readResourceMetadata(url, challenge, fetchFn);
  const { resource, issuer, metadata } = prm
    ? await namedAuthorizationServer(url, prm, fetchFn)
    : await originAuthorizationServer(url, fetchFn);

  if (options.grant === "client_credentials")
    checkGrantListed(
      issuer,
      metadata,
      "client_credentials",
      "a connector cannot obtain tokens there without a person",
    );
  else if (options.grant === "jwt-bearer")
    checkGrantListed(
      issuer,
      metadata,
      JWT_BEARER_GRANT,
      "it takes no grant from an IdP (cross-app access)",
    );
  else checkCodeFlow(issuer, metadata);

  const scope = challenge?.scope ?? prm?.metadata.scopes_supported?.join(" ");
  return {
    serverUrl: url.href,
    resource,
    ...(prm ? { resourceMetadataUrl: prm.url.href } : {}),
    ...(scope ? { scope } : {}),
    issuer,
    metadata,
  };
};
