// oidc-provider ships no types; see oauth-server.ts.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider.d.ts" />
/**
 * A real OpenID Connect issuer for browser tests of single sign-on (oidc-provider over http
 * on 127.0.0.1): one confidential client whose redirect URI is the web app's callback, and a
 * login page a browser test fills in with who it claims to be (subject, email, whether the
 * email is verified, name). Those claims go into the ID token; consent is given at once.
 * Nothing here is for production: it signs in whoever the form says.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export type OidcIssuerOptions = { clientId: string; clientSecret: string; redirectUris: string[] };

export type TestOidcIssuer = { issuer: string; close(): Promise<void> };

type Claims = { sub: string; email: string; email_verified: boolean; name: string };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const loginPage = (uid: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test issuer sign-in</title></head>
<body><main>
<h1>Test issuer</h1>
<form method="post" action="/interaction/${escapeHtml(uid)}/login" aria-label="Test issuer sign-in">
<p><label>Subject <input name="sub" required></label></p>
<p><label>Email <input name="email" type="email" required></label></p>
<p><label>Name <input name="name"></label></p>
<p><label><input type="checkbox" name="email_verified" value="true"> Email verified</label></p>
<p><button type="submit">Sign in to the test issuer</button></p>
</form>
</main></body></html>`;

const readForm = async (req: IncomingMessage) => {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
};

export const startOidcIssuer = async (options: OidcIssuerOptions): Promise<TestOidcIssuer> => {
  const accounts = new Map<string, Claims>();

  const interact = async (
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    submitted: boolean,
  ) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === "login") {
      if (!submitted) {
        res.setHeader("content-type", "text/html; charset=utf-8");
        res.end(loginPage(uid));
        return;
      }
      const form = await readForm(req);
      const sub = form.get("sub")?.trim() ?? "";
      if (!sub) {
        res.statusCode = 400;
        res.end("a subject is needed");
        return;
      }
      accounts.set(sub, {
        sub,
        email: form.get("email")?.trim() ?? "",
        email_verified: form.get("email_verified") === "true",
        name: form.get("name")?.trim() ?? "",
      });
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant =
      (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({
        accountId: details.session!.accountId,
        clientId: details.params.client_id,
      });
    const missing = details.prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
    if (match) {
      interact(req, res, match[1]!, req.method === "POST" && match[2] === "/login").catch(
        (error: Error) => {
          res.statusCode = 500;
          res.end(`interaction failed: ${error.message}`);
        },
      );
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    scopes: ["openid", "email", "profile"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The claims go into the ID token, which is where the web app reads them.
    conformIdTokenClaims: false,
    cookies: { keys: [randomBytes(16).toString("hex")] },
    jwks: {
      keys: [
        generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }),
      ],
    },
    findAccount: (_ctx: unknown, accountId: string) => {
      const claims = accounts.get(accountId);
      return claims ? { accountId, claims: () => claims } : undefined;
    },
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
  });

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
