/**
 * Tokens without a person: the OAuth `client_credentials` grant for a connector of the team's
 * own account. The client proves itself with a secret (HTTP Basic, or in the body where the
 * server takes only that) or with a private key signing a short-lived JWT assertion
 * (`private_key_jwt`, RFC 7523: iss and sub the client id, aud the authorization server's
 * issuer). The source hands out one token until it is about to expire or the server refused
 * it once, then asks for a new one; a refusal at the token endpoint ends it with
 * USER.CONNECTOR.TOKEN_REFUSED, never repeating what the server or the client sent.
 */
import { createPrivateKey, randomUUID, sign, type KeyObject } from "node:crypto";
import { fetchToken } from "@modelcontextprotocol/sdk/client/auth.js";
import type { AuthorizationServerMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { AppError } from "../../errors";
import type { FetchLike, OAuthServerInfo, OAuthTokenSet } from "./oauth-types";
import { oauthRefusal, toTokenSet, unreachable } from "./oauth-wire";

/** What the admin stored for the connector, opened only in the worker. */
export type ClientCredentials =
  | { clientId: string; method: "client_secret"; secret: string }
  | { clientId: string; method: "private_key_jwt"; privateKeyPem: string };

type SigningAlg = "RS256" | "ES256";

/** How long a client assertion is good for: one token request. */
const ASSERTION_SECONDS = 60;

/**
 * The algorithm a PEM private key signs with (an RSA key RS256, a P-256 key ES256), or
 * USER.CONNECTOR.INVALID_KEY naming `path`. The message never quotes the key.
 */
export const clientKeyAlg = (pem: string, path = "value"): SigningAlg => {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem.trim(), format: "pem" });
  } catch {
    throw new AppError(
      "USER.CONNECTOR.INVALID_KEY",
      "the private key is not a PEM private key (-----BEGIN PRIVATE KEY----- ...)",
      { location: { path } },
    );
  }
  if (key.asymmetricKeyType === "rsa") {
    if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
      throw new AppError("USER.CONNECTOR.INVALID_KEY", "an RSA key has at least 2048 bits", {
        location: { path },
      });
    return "RS256";
  }
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1")
    return "ES256";
  throw new AppError(
    "USER.CONNECTOR.INVALID_KEY",
    `the private key is ${key.asymmetricKeyType === "ec" ? `an EC key on ${key.asymmetricKeyDetails?.namedCurve ?? "an unknown curve"}` : `a ${key.asymmetricKeyType ?? "unknown"} key`}: Switchyard signs with RSA (RS256) or P-256 (ES256) keys`,
    { location: { path } },
  );
};

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** An RFC 7523 client assertion signed with the client's key. */
const clientAssertion = (
  credentials: Extract<ClientCredentials, { method: "private_key_jwt" }>,
  audience: string,
  nowMs: number,
  allowed: readonly string[] | undefined,
  issuer: string,
) => {
  const alg = clientKeyAlg(credentials.privateKeyPem);
  if (allowed && !allowed.includes(alg))
    throw new AppError(
      "USER.CONNECTOR.OAUTH_UNSUPPORTED",
      `the authorization server ${issuer} takes client assertions signed with ${allowed.join(", ") || "nothing"}, and the connector's key signs with ${alg}: give it a key of one of those`,
    );
  const now = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg, typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({
      iss: credentials.clientId,
      sub: credentials.clientId,
      aud: audience,
      jti: randomUUID(),
      iat: now,
      exp: now + ASSERTION_SECONDS,
    }),
  );
  const signature = sign("sha256", Buffer.from(`${header}.${payload}`), {
    key: createPrivateKey({ key: credentials.privateKeyPem.trim(), format: "pem" }),
    dsaEncoding: "ieee-p1363",
  });
  return `${header}.${payload}.${base64url(signature)}`;
};

/** The server's way for a client secret: Basic unless it lists only the body (RFC 6749 2.3.1, RFC 8414 default). */
const secretMethod = (metadata: AuthorizationServerMetadata, issuer: string) => {
  const listed = metadata.token_endpoint_auth_methods_supported;
  if (!listed || listed.includes("client_secret_basic")) return "client_secret_basic" as const;
  if (listed.includes("client_secret_post")) return "client_secret_post" as const;
  throw new AppError(
    "USER.CONNECTOR.OAUTH_UNSUPPORTED",
    `the authorization server ${issuer} takes no client secret at its token endpoint (it lists ${listed.join(", ") || "no method"})`,
  );
};

/** Asks the token endpoint for a token with the client's credentials, for the connector's resource and scope. */
export const requestClientCredentialsToken = async (input: {
  server: OAuthServerInfo;
  credentials: ClientCredentials;
  fetch: FetchLike;
  connectorName: string;
  now?: () => number;
}): Promise<OAuthTokenSet> => {
  const { server, credentials } = input;
  const now = input.now ?? Date.now;
  const { metadata, issuer } = server;
  const listed = metadata.token_endpoint_auth_methods_supported;
  if (credentials.method === "private_key_jwt" && listed && !listed.includes("private_key_jwt"))
    throw new AppError(
      "USER.CONNECTOR.OAUTH_UNSUPPORTED",
      `the authorization server ${issuer} does not take private_key_jwt at its token endpoint (it lists ${listed.join(", ") || "no method"})`,
    );
  const method = credentials.method === "client_secret" ? secretMethod(metadata, issuer) : null;
  const asked = now();
  const answer = await fetchToken(
    {
      get redirectUrl() {
        return undefined;
      },
      clientMetadata: {
        redirect_uris: [],
        ...(server.scope ? { scope: server.scope } : {}),
      },
      clientInformation: () => ({
        client_id: credentials.clientId,
        ...(credentials.method === "client_secret"
          ? { client_secret: credentials.secret, token_endpoint_auth_method: method! }
          : {}),
      }),
      tokens: () => undefined,
      saveTokens: () => undefined,
      redirectToAuthorization: () => undefined,
      saveCodeVerifier: () => undefined,
      codeVerifier: () => "",
      prepareTokenRequest: (scope?: string) =>
        new URLSearchParams({ grant_type: "client_credentials", ...(scope ? { scope } : {}) }),
      ...(credentials.method === "private_key_jwt"
        ? {
            addClientAuthentication: (_headers: Headers, params: URLSearchParams) => {
              params.set(
                "client_assertion",
                clientAssertion(
                  credentials,
                  metadata.issuer,
                  now(),
                  metadata.token_endpoint_auth_signing_alg_values_supported,
                  issuer,
                ),
              );
              params.set(
                "client_assertion_type",
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
              );
            },
          }
        : {}),
    },
    issuer,
    { metadata, resource: new URL(server.resource), fetchFn: input.fetch },
  ).catch((error: unknown) => {
    if (error instanceof AppError) throw error;
    const refusal = oauthRefusal(error);
    if (!refusal)
      throw unreachable(
        `obtaining a token for connector "${input.connectorName}" at ${issuer}`,
        error,
      );
    throw new AppError(
      "USER.CONNECTOR.TOKEN_REFUSED",
      `the authorization server ${issuer} refused the client credentials of connector "${input.connectorName}" (${refusal}): an admin sets them again`,
      { details: { reason: refusal } },
    );
  });
  return toTokenSet(answer, asked);
};

type SourceOptions = {
  /** Obtains a new token (requestClientCredentialsToken with the connector's server and credentials). */
  obtain: () => Promise<OAuthTokenSet>;
  /** Receives every new token set (to join the scrubbers of the steps using it). */
  onTokens?: (tokens: OAuthTokenSet) => void;
  /** Told once when the token endpoint refused the credentials. */
  onRefused?: (error: AppError) => void | Promise<void>;
  now?: () => number;
  /** @default 60_000 (60 s) */
  renewMarginMs?: number;
};

/** One connector's client-credentials tokens: cached until expiry, a new one after a refusal, one request at a time. */
export class ClientCredentialsTokenSource {
  private current: OAuthTokenSet | undefined;
  private obtaining: Promise<OAuthTokenSet> | undefined;
  private refused: string | undefined;
  private failure: AppError | undefined;
  private readonly now: () => number;

  constructor(private readonly options: SourceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The server refused `accessToken` (a 401): the next resolve obtains another. */
  invalidate(accessToken: string): void {
    if (this.current?.accessToken === accessToken) this.refused = accessToken;
  }

  async resolve(): Promise<string> {
    if (this.failure) throw this.failure;
    const current = this.current;
    const expiresAt = current?.expiresAt?.getTime();
    const margin = this.options.renewMarginMs ?? 60_000;
    if (
      current &&
      this.refused !== current.accessToken &&
      (expiresAt === undefined || expiresAt - this.now() > margin)
    )
      return current.accessToken;
    this.obtaining ??= this.obtain().finally(() => {
      this.obtaining = undefined;
    });
    return (await this.obtaining).accessToken;
  }

  private async obtain(): Promise<OAuthTokenSet> {
    try {
      const tokens = await this.options.obtain();
      this.current = tokens;
      this.options.onTokens?.(tokens);
      return tokens;
    } catch (error) {
      if (error instanceof AppError && error.code === "USER.CONNECTOR.TOKEN_REFUSED") {
        this.failure = error;
        await this.options.onRefused?.(error);
      }
      throw error;
    }
  }
}
