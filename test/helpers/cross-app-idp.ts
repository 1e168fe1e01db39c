/**
 * Cross-app access on 127.0.0.1, for enterprise connectors: an organisation IdP that issues
 * ID tokens (as at a sign-in) and exchanges them for identity assertion grants (RFC 8693,
 * `id-jag`), and an authorization server that takes such a grant (RFC 7523 jwt-bearer, client
 * authenticated with HTTP Basic) and issues access tokens for a protected MCP server
 * (startProtectedMcpServer takes it as its authority). Each checks what the spec asks of the
 * client and records the requests it answered.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { generateKeyPair, jwtVerify, SignJWT, decodeProtectedHeader } from "jose";
import type { ResourceAuthority, VerifiedAccessToken } from "@switchyard/testing/oauth";

const listen = async (
  handler: (req: IncomingMessage, body: URLSearchParams) => Promise<[number, unknown]>,
) => {
  const server = createServer((req, res: ServerResponse) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      handler(req, new URLSearchParams(raw)).then(
        ([status, body]) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(body));
        },
        (error: Error) => res.writeHead(500).end(error.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type CrossAppSetup = Awaited<ReturnType<typeof startCrossAppAccess>>;

/**
 * The IdP knows Switchyard as `idpClientId`; the authorization server as `clientId` with
 * `clientSecret`. Members in `refused` are not assigned the application at the IdP.
 */
export const startCrossAppAccess = async (options: {
  idpClientId: string;
  clientId: string;
  clientSecret: string;
}) => {
  const idpKeys = await generateKeyPair("ES256");
  const jagKeys = await generateKeyPair("ES256");
  const refused = new Set<string>();
  const exchanges: { subject: string; audience: string; resource: string }[] = [];
  const grants: { subject: string; clientId: string }[] = [];
  const tokens = new Map<string, VerifiedAccessToken & { resource: string }>();
  let asIssuer = "";

  const idp = await listen(async (req, body) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method === "GET" && path === "/.well-known/openid-configuration")
      return [200, { issuer: idp.base, token_endpoint: `${idp.base}/token` }];
    if (req.method !== "POST" || path !== "/token") return [404, { error: "not_found" }];
    if (body.get("grant_type") !== "urn:ietf:params:oauth:grant-type:token-exchange")
      return [400, { error: "unsupported_grant_type" }];
    if (
      body.get("client_id") !== options.idpClientId ||
      body.get("subject_token_type") !== "urn:ietf:params:oauth:token-type:id_token" ||
      body.get("requested_token_type") !== "urn:ietf:params:oauth:token-type:id-jag" ||
      !body.get("audience") ||
      !body.get("resource")
    )
      return [400, { error: "invalid_request" }];
    const verified = await jwtVerify(body.get("subject_token") ?? "", idpKeys.publicKey, {
      issuer: idp.base,
      audience: options.idpClientId,
    }).catch(() => undefined);
    if (!verified) return [400, { error: "invalid_grant", error_description: "bad id token" }];
    const subject = String(verified.payload.sub);
    if (refused.has(subject))
      return [400, { error: "access_denied", error_description: `secret-ish text for ${subject}` }];
    exchanges.push({ subject, audience: body.get("audience")!, resource: body.get("resource")! });
    const jag = await new SignJWT({ client_id: options.clientId, resource: body.get("resource") })
      .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt" })
      .setIssuer(idp.base)
      .setSubject(subject)
      .setAudience(body.get("audience")!)
      .setIssuedAt()
      .setExpirationTime("5m")
      .setJti(randomBytes(8).toString("hex"))
      .sign(jagKeys.privateKey);
    return [
      200,
      {
        access_token: jag,
        issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
        token_type: "N_A",
      },
    ];
  });

  const as = await listen(async (req, body) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method === "GET" && path === "/.well-known/oauth-authorization-server")
      return [
        200,
        {
          issuer: asIssuer,
          authorization_endpoint: `${asIssuer}/authorize`,
          token_endpoint: `${asIssuer}/token`,
          response_types_supported: ["code"],
          grant_types_supported: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
        },
      ];
    if (req.method !== "POST" || path !== "/token") return [404, { error: "not_found" }];
    if (body.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer")
      return [400, { error: "unsupported_grant_type" }];
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const [id, secret] = Buffer.from(basic ?? "", "base64")
      .toString()
      .split(":")
      .map(decodeURIComponent);
    if (id !== options.clientId || secret !== options.clientSecret)
      return [401, { error: "invalid_client" }];
    const assertion = body.get("assertion") ?? "";
    if (decodeProtectedHeader(assertion).typ !== "oauth-id-jag+jwt")
      return [400, { error: "invalid_grant" }];
    const verified = await jwtVerify(assertion, jagKeys.publicKey, {
      issuer: idp.base,
      audience: asIssuer,
    }).catch(() => undefined);
    if (!verified || verified.payload.client_id !== id) return [400, { error: "invalid_grant" }];
    const subject = String(verified.payload.sub);
    grants.push({ subject, clientId: id });
    const accessToken = `at-${randomBytes(12).toString("hex")}`;
    tokens.set(accessToken, {
      subject,
      clientId: id,
      scope: body.get("scope") ?? "",
      resource: String(verified.payload.resource),
    });
    return [200, { access_token: accessToken, token_type: "Bearer", expires_in: 3600 }];
  });
  asIssuer = as.base;

  const authority: ResourceAuthority = {
    issuer: asIssuer,
    verifyAccessToken: (token, resource) => {
      const found = tokens.get(token);
      return Promise.resolve(found && found.resource === resource ? found : undefined);
    },
  };
  return {
    idpIssuer: idp.base,
    authority,
    refused,
    exchanges,
    grants,
    /** Every access token issued so far. */
    accessTokens: () => [...tokens.keys()],
    /** An ID token of the IdP for `subject`, as a sign-in gets it. */
    idToken: (subject: string, expiresIn = "1h") =>
      new SignJWT({ email: `${subject}@example.com` })
        .setProtectedHeader({ alg: "ES256" })
        .setIssuer(idp.base)
        .setSubject(subject)
        .setAudience(options.idpClientId)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(idpKeys.privateKey),
    close: async () => {
      await idp.close();
      await as.close();
    },
  };
};
