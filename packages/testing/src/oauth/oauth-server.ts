// oidc-provider ships no types; the reference brings ours into every program that imports
// this file (core's typecheck reaches it through its tests without including this folder).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider.d.ts" />
/**
 * A real OAuth 2.1 authorization server for tests (oidc-provider on 127.0.0.1): dynamic
 * client registration, PKCE required, resource indicators (opaque access tokens bound to
 * one registered resource), refresh tokens that rotate, a configurable access-token TTL,
 * and a test user who approves every authorization. `approve` plays the browser: it
 * follows the redirects headlessly with a cookie jar until the client's redirect URI.
 * Handles let a test expire access tokens or revoke a refresh token.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { errors, type Adapter, type AdapterPayload } from "oidc-provider";

export type TestClient = {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: "none" | "client_secret_basic" | "client_secret_post";
};

export type OAuthServerOptions = {
  /** Seconds an access token lives (default 3600). */
  accessTokenTtlSeconds?: number;
  /** Whether dynamic client registration is offered (default true). */
  registration?: boolean;
  /** Clients registered beforehand, as an administrator would. */
  clients?: TestClient[];
  /** The subject of the test user who approves every authorization (default "test-user"). */
  subject?: string;
  /** Scopes the server lists beside openid and offline_access (default ["mcp:tools"]). */
  scopes?: string[];
  /** The loopback address it listens on (default 127.0.0.1), e.g. one an allow-list names alone. */
  host?: string;
  /** How clients may authenticate at the token endpoint, as its metadata lists (default oidc-provider's). */
  clientAuthMethods?: ("none" | "client_secret_basic" | "client_secret_post")[];
  /**
   * Take client ID metadata documents (https URLs as client ids, fetched and checked by the
   * server, listed in its metadata), fetched with `fetch`: where a test's https address is
   * reached (the server's own fetch refuses loopback addresses).
   */
  clientIdMetadataDocuments?: { fetch: (url: string, init: RequestInit) => Promise<Response> };
};

export type VerifiedAccessToken = { subject: string; clientId: string; scope: string };

/** One successful token request, as the authorization server saw it. */
export type TokenRequest = { grantType: string; resource: string | undefined; clientId: string };

export type TestAuthorizationServer = {
  issuer: string;
  /** Accept `resource` as a resource indicator; its tokens carry `scope`. */
  addResource(resource: string, scope: string): void;
  /** Who an access token belongs to, or undefined unless it is live and bound to `resource`. */
  verifyAccessToken(token: string, resource: string): Promise<VerifiedAccessToken | undefined>;
  /**
   * Plays the user's browser from the authorization URL to the redirect back to the client,
   * approving (or with `deny`, refusing), and returns the URL the browser lands on.
   */
  approve(
    authorizationUrl: URL | string,
    redirectUri: string,
    options?: { deny?: boolean },
  ): Promise<URL>;
  /** Drops every access token issued so far, as if they had all expired; returns how many. */
  expireAccessTokens(): number;
  /** Revokes one refresh token; false when it was not live. */
  revokeRefreshToken(refreshToken: string): boolean;
  readonly tokenRequests: readonly TokenRequest[];
  /** Clients registered dynamically so far. */
  readonly registrations: number;
  /** Forgets a dynamically registered client, as a server that dropped it; false when unknown. */
  forgetClient(clientId: string): boolean;
  /** Token requests it refused, by their grant type and OAuth error code. */
  readonly tokenRefusals: readonly { grantType: string; error: string }[];
  close(): Promise<void>;
};

type Entry = { payload: AdapterPayload; expiresAt: number };

/** oidc-provider's storage in plain maps, one per model, so tokens can be listed and dropped. */
const createStorage = () => {
  const models = new Map<string, Map<string, Entry>>();
  const storeOf = (model: string) => {
    let store = models.get(model);
    if (!store) models.set(model, (store = new Map<string, Entry>()));
    return store;
  };
  const live = (entry: Entry | undefined) =>
    entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
  const adapter = (model: string): Adapter => {
    const store = storeOf(model);
    return {
      upsert: async (id, payload, expiresIn) => {
        store.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
      },
      find: async (id) => live(store.get(id)),
      findByUid: async (uid) => live([...store.values()].find((e) => e.payload.uid === uid)),
      findByUserCode: async (code) =>
        live([...store.values()].find((e) => e.payload.userCode === code)),
      consume: async (id) => {
        const entry = store.get(id);
        if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
      },
      destroy: async (id) => {
        store.delete(id);
      },
      revokeByGrantId: async (grantId) => {
        for (const s of models.values())
          for (const [id, e] of s) if (e.payload.grantId === grantId) s.delete(id);
      },
    };
  };
  return { adapter, storeOf };
};

const listen = async (
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host: string,
) => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { port: (server.address() as AddressInfo).port, close };
};

export const startOAuthServer = async (
  options: OAuthServerOptions = {},
): Promise<TestAuthorizationServer> => {
  const ttl = options.accessTokenTtlSeconds ?? 3600;
  const subject = options.subject ?? "test-user";
  const resources = new Map<string, string>();
  const tokenRequests: TokenRequest[] = [];
  const tokenRefusals: { grantType: string; error: string }[] = [];
  let registrations = 0;
  const storage = createStorage();

  const interact = async (req: IncomingMessage, res: ServerResponse, deny: boolean) => {
    const p = provider;
    const details = await p.interactionDetails(req, res);
    if (deny) {
      await p.interactionFinished(req, res, {
        error: "access_denied",
        error_description: "the test user refused",
      });
      return;
    }
    if (details.prompt.name === "login") {
      await p.interactionFinished(
        req,
        res,
        { login: { accountId: subject } },
        {
          mergeWithLastSubmission: false,
        },
      );
      return;
    }
    const grant =
      (details.grantId ? await p.Grant.find(details.grantId) : undefined) ??
      new p.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
    const missing = details.prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes.join(" "));
    await p.interactionFinished(req, res, { consent: { grantId: await grant.save() } });
  };

  const http = await listen((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/interaction/")) {
      interact(req, res, url.searchParams.has("deny")).catch((error: Error) => {
        res.statusCode = 500;
        res.end(`interaction failed: ${error.message}`);
      });
      return;
    }
    provider.callback()(req, res);
  }, options.host ?? "127.0.0.1");
  const issuer = `http://${options.host ?? "127.0.0.1"}:${http.port}`;

  const provider = new Provider(issuer, {
    adapter: storage.adapter,
    scopes: ["openid", "offline_access", ...(options.scopes ?? ["mcp:tools"])],
    clients: (options.clients ?? []).map((c) => ({
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: c.client_secret ? "client_secret_basic" : "none",
      ...c,
    })),
    ...(options.clientAuthMethods ? { clientAuthMethods: options.clientAuthMethods } : {}),
    ...(options.clientIdMetadataDocuments
      ? { fetch: options.clientIdMetadataDocuments.fetch }
      : {}),
    cookies: { keys: [randomBytes(16).toString("hex")] },
    jwks: {
      keys: [
        generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }),
      ],
    },
    findAccount: (_ctx: unknown, accountId: string) => ({
      accountId,
      claims: () => ({ sub: accountId }),
    }),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.registration ?? true },
      revocation: { enabled: true },
      ...(options.clientIdMetadataDocuments
        ? {
            clientIdMetadataDocument: {
              enabled: true,
              ack: "draft-02",
            },
          }
        : {}),
      resourceIndicators: {
        enabled: true,
        // No resource named, none chosen: a client that leaves out `resource` gets no token
        // the MCP server accepts.
        defaultResource: () => undefined,
        useGrantedResource: () => false,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          const scope = resources.get(resource);
          if (scope === undefined) throw new errors.InvalidTarget();
          return { scope, audience: resource, accessTokenTTL: ttl, accessTokenFormat: "opaque" };
        },
      },
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    pkce: { required: () => true },
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ttl,
      AuthorizationCode: 60,
      Grant: 14 * 24 * 3600,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: 14 * 24 * 3600,
      Session: 3600,
    },
  });
  provider.on("grant.success", (ctx) => {
    const params = ctx.oidc?.params ?? {};
    tokenRequests.push({
      grantType: String(params.grant_type),
      resource: typeof params.resource === "string" ? params.resource : undefined,
      clientId: ctx.oidc?.client?.clientId ?? "",
    });
  });

  provider.on("registration_create.success", () => {
    registrations += 1;
  });
  provider.on("grant.error", (ctx, error) => {
    tokenRefusals.push({
      grantType: String(ctx.oidc?.params?.grant_type),
      error: String((error as { error?: unknown }).error),
    });
  });

  const approve: TestAuthorizationServer["approve"] = async (
    authorizationUrl,
    redirectUri,
    opts,
  ) => {
    const target = new URL(redirectUri);
    const jar = new Map<string, string>();
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 12; hop++) {
      if (url.origin === target.origin && url.pathname === target.pathname) return url;
      if (opts?.deny && url.pathname.startsWith("/interaction/")) url.searchParams.set("deny", "1");
      const res = await fetch(url, {
        redirect: "manual",
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
      });
      for (const cookie of res.headers.getSetCookie()) {
        const pair = cookie.split(";")[0] ?? "";
        const eq = pair.indexOf("=");
        jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
      }
      const body = await res.text();
      const location = res.headers.get("location");
      if (!location)
        throw new Error(
          `the authorization stopped at ${url.pathname} with ${res.status}: ${body.slice(0, 300)}`,
        );
      url = new URL(location, url);
    }
    throw new Error("too many redirects while authorizing");
  };

  return {
    issuer,
    addResource: (resource, scope) => void resources.set(resource, scope),
    verifyAccessToken: async (token, resource) => {
      const found = await provider.AccessToken.find(token);
      if (!found || found.exp * 1000 <= Date.now()) return undefined;
      const audience = Array.isArray(found.aud) ? found.aud : [found.aud];
      if (!audience.includes(resource)) return undefined;
      return { subject: found.accountId, clientId: found.clientId, scope: found.scope ?? "" };
    },
    approve,
    expireAccessTokens: () => {
      const store = storage.storeOf("AccessToken");
      const count = store.size;
      store.clear();
      return count;
    },
    revokeRefreshToken: (refreshToken) => storage.storeOf("RefreshToken").delete(refreshToken),
    tokenRequests,
    tokenRefusals,
    get registrations() {
      return registrations;
    },
    forgetClient: (clientId) => storage.storeOf("Client").delete(clientId),
    close: http.close,
  };
};
