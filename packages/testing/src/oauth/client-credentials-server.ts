/**
 * A real authorization server on 127.0.0.1 that issues tokens by the `client_credentials`
 * grant only: RFC 8414 metadata, and a token endpoint that authenticates its one client by
 * a secret (HTTP Basic or in the body, as configured) or by an RFC 7523 JWT assertion signed
 * with the client's key (checked with its public key: signature, iss, sub, aud, exp, a jti
 * used once). It records every token request and can revoke an issued token, so a test sees
 * what the client sent and how often. It is a `ResourceAuthority` for a protected MCP server.
 */
import { createPublicKey, randomBytes, verify, type KeyObject } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { VerifiedAccessToken } from "./oauth-server";
import type { ResourceAuthority } from "./protected-mcp-server";

export type ClientCredentialsServerOptions = {
  clientId: string;
  /** The client's secret; or `publicKeyPem`, the public half of the key it signs assertions with. */
  clientSecret?: string;
  publicKeyPem?: string;
  /** What the metadata lists (default client_secret_basic, or private_key_jwt with a key). */
  authMethods?: string[];
  /** token_endpoint_auth_signing_alg_values_supported (default ES256, RS256). */
  signingAlgs?: string[];
  /** expires_in of each token, in seconds (default 3600). */
  expiresIn?: number;
  /** The scopes it grants (others asked for are left out of the token); default: whatever is asked. */
  grantable?: string[];
  /** The loopback address it listens on (default 127.0.0.1), e.g. one an allow-list names alone. */
  host?: string;
};

export type ClientCredentialsRequest = {
  grantType: string;
  method: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
  scope: string | undefined;
  resource: string | undefined;
  /** The assertion's claims, for private_key_jwt. */
  claims?: Record<string, unknown>;
  /** What the server answered: a token, or the OAuth error. */
  outcome: string;
};

export type ClientCredentialsServer = ResourceAuthority & {
  requests: ClientCredentialsRequest[];
  /** Tokens issued so far, in order. */
  issued: string[];
  revoke(token: string): void;
  close(): Promise<void>;
};

const fromB64url = (part: string) => Buffer.from(part, "base64url");

const checkAssertion = (
  assertion: string,
  key: KeyObject,
  expected: { clientId: string; issuer: string },
  seen: Set<string>,
): { claims?: Record<string, unknown>; error?: string } => {
  const [h, p, s] = assertion.split(".");
  if (!h || !p || !s) return { error: "not a JWT" };
  const header = JSON.parse(fromB64url(h).toString("utf8")) as { alg?: string };
  const claims = JSON.parse(fromB64url(p).toString("utf8")) as Record<string, unknown>;
  const good =
    header.alg === "ES256" || header.alg === "RS256"
      ? verify(
          "sha256",
          Buffer.from(`${h}.${p}`),
          { key, dsaEncoding: "ieee-p1363" },
          fromB64url(s),
        )
      : false;
  if (!good) return { claims, error: "bad signature" };
  const now = Date.now() / 1000;
  if (claims.iss !== expected.clientId || claims.sub !== expected.clientId)
    return { claims, error: "iss or sub is not the client" };
  if (claims.aud !== expected.issuer) return { claims, error: "aud is not the issuer" };
  if (typeof claims.exp !== "number" || claims.exp < now || claims.exp > now + 300)
    return { claims, error: "exp missing, past or too far" };
  if (typeof claims.jti !== "string" || seen.has(claims.jti))
    return { claims, error: "jti missing or used before" };
  seen.add(claims.jti);
  return { claims };
};

export const startClientCredentialsServer = async (
  options: ClientCredentialsServerOptions,
): Promise<ClientCredentialsServer> => {
  const key = options.publicKeyPem ? createPublicKey(options.publicKeyPem) : undefined;
  const requests: ClientCredentialsRequest[] = [];
  const issued: string[] = [];
  const live = new Map<string, { expires: number; scope: string; resource: string | undefined }>();
  const jtis = new Set<string>();
  let issuer = "";
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? "/", issuer).pathname;
    if (req.method === "GET" && path === "/.well-known/oauth-authorization-server") {
      send(200, {
        issuer,
        // Nobody is sent there; the MCP SDK's metadata schema asks for it all the same.
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ["token"],
        grant_types_supported: ["client_credentials"],
        token_endpoint_auth_methods_supported:
          options.authMethods ?? (key ? ["private_key_jwt"] : ["client_secret_basic"]),
        token_endpoint_auth_signing_alg_values_supported: options.signingAlgs ?? ["ES256", "RS256"],
      });
      return;
    }
    if (req.method !== "POST" || path !== "/token") {
      send(404, { error: "not_found" });
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const assertion = body.get("client_assertion");
      const method: ClientCredentialsRequest["method"] = basic
        ? "client_secret_basic"
        : body.get("client_secret")
          ? "client_secret_post"
          : assertion
            ? "private_key_jwt"
            : "none";
      const entry: ClientCredentialsRequest = {
        grantType: body.get("grant_type") ?? "",
        method,
        scope: body.get("scope") ?? undefined,
        resource: body.get("resource") ?? undefined,
        outcome: "",
      };
      requests.push(entry);
      const refuse = (error: string, status = 400) => {
        entry.outcome = error;
        send(status, { error, error_description: `refused: ${error}` });
      };
      if (entry.grantType !== "client_credentials") return refuse("unsupported_grant_type");
      let authenticated = false;
      if (method === "client_secret_basic") {
        const [id, secret] = Buffer.from(basic!, "base64").toString("utf8").split(":");
        authenticated =
          decodeURIComponent(id ?? "") === options.clientId &&
          decodeURIComponent(secret ?? "") === options.clientSecret;
      } else if (method === "client_secret_post") {
        authenticated =
          body.get("client_id") === options.clientId &&
          body.get("client_secret") === options.clientSecret;
      } else if (method === "private_key_jwt" && key) {
        const checked = checkAssertion(
          assertion!,
          key,
          { clientId: options.clientId, issuer },
          jtis,
        );
        if (checked.claims) entry.claims = checked.claims;
        authenticated =
          checked.error === undefined &&
          body.get("client_assertion_type") ===
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
      }
      if (!authenticated) return refuse("invalid_client", 401);
      const token = `cc-${randomBytes(16).toString("hex")}`;
      const expiresIn = options.expiresIn ?? 3600;
      const granted = (entry.scope ?? "")
        .split(" ")
        .filter((s) => s !== "" && (options.grantable?.includes(s) ?? true))
        .join(" ");
      live.set(token, {
        expires: Date.now() + expiresIn * 1000,
        scope: granted,
        resource: entry.resource,
      });
      issued.push(token);
      entry.outcome = "token";
      send(200, {
        access_token: token,
        token_type: "Bearer",
        expires_in: expiresIn,
        ...(granted ? { scope: granted } : {}),
      });
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    get issuer() {
      return issuer;
    },
    requests,
    issued,
    revoke: (token) => live.delete(token),
    verifyAccessToken: (token, resource): Promise<VerifiedAccessToken | undefined> => {
      const found = live.get(token);
      if (!found || found.expires < Date.now() || (found.resource && found.resource !== resource))
        return Promise.resolve(undefined);
      return Promise.resolve({
        subject: options.clientId,
        clientId: options.clientId,
        scope: found.scope,
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
