import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  startMetadataOnlyAuthorizationServer,
  startOAuthServer,
  startProtectedMcpServer,
  TEST_REDIRECT_URI as REDIRECT,
  type TestAuthorizationServer,
} from "@switchyard/testing/oauth";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { beginAuthorization } from "./begin-authorization";
import { completeAuthorization } from "./complete-authorization";
import { discoverOAuthServer } from "./discover-oauth-server";
import { obtainOAuthClient } from "./obtain-oauth-client";
import { loopbackEgressFetch } from "@switchyard/testing/egress";

/** The test servers are on loopback, which the operator's allow-list names here. */
const egress = loopbackEgressFetch();

const closers: (() => Promise<void>)[] = [];
const track = <T extends { close(): Promise<void> }>(thing: T) => (
  closers.push(() => thing.close()),
  thing
);
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const whoami = async (url: string, accessToken: string) => {
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
    }),
  );
  try {
    const result = await client.callTool({ name: "whoami", arguments: {} });
    return (result.content as { text: string }[])[0]?.text;
  } finally {
    await client.close();
  }
};

const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

const protectedPair = async (options: Parameters<typeof startOAuthServer>[0] = {}) => {
  const as = track(await startOAuthServer(options));
  const mcp = track(await startProtectedMcpServer({ authorizationServer: as }));
  return { as, mcp };
};

describe("discoverOAuthServer", () => {
  it("finds the protected resource metadata from the 401 and the authorization server from it", async () => {
    const { as, mcp } = await protectedPair();
    const server = await discoverOAuthServer(mcp.url, { fetch: egress });
    expect(server).toMatchObject({
      serverUrl: mcp.url,
      resource: mcp.url,
      resourceMetadataUrl: mcp.resourceMetadataUrl,
      issuer: as.issuer,
      scope: "mcp:tools",
    });
    expect(server.metadata.code_challenge_methods_supported).toContain("S256");
    expect(server.metadata.registration_endpoint).toBe(`${as.issuer}/reg`);
    expect(mcp.unauthorized).toBe(1);
  });

  it("falls back to the well-known metadata URLs, and to OpenID discovery", async () => {
    const as = track(await startMetadataOnlyAuthorizationServer({}, "openid-configuration"));
    const mcp = track(
      await startProtectedMcpServer({ authorizationServer: as, announceMetadata: false }),
    );
    const server = await discoverOAuthServer(mcp.url, { fetch: egress });
    expect(server.resourceMetadataUrl).toBe(mcp.resourceMetadataUrl);
    expect(server.issuer).toBe(as.issuer);
    expect(server.metadata.token_endpoint).toBe(`${as.issuer}/token`);
  });

  it("refuses an authorization server that does not offer PKCE with S256", async () => {
    for (const methods of [["plain"], undefined]) {
      const as = track(
        await startMetadataOnlyAuthorizationServer({ code_challenge_methods_supported: methods }),
      );
      const mcp = track(await startProtectedMcpServer({ authorizationServer: as }));
      const error = await rejection(discoverOAuthServer(mcp.url, { fetch: egress }));
      expect(error.code).toBe("USER.CONNECTOR.OAUTH_UNSUPPORTED");
      expect(error.message).toContain("S256");
      expect(error.message).toContain("code_challenge_methods_supported");
      expect(error.message).toContain(as.issuer);
    }
  });

  it("refuses metadata whose issuer is not the authorization server it was fetched from", async () => {
    const as = track(
      await startMetadataOnlyAuthorizationServer({ issuer: "http://127.0.0.1:9/elsewhere" }),
    );
    const mcp = track(await startProtectedMcpServer({ authorizationServer: as }));
    const error = await rejection(discoverOAuthServer(mcp.url, { fetch: egress }));
    expect(error.code).toBe("USER.CONNECTOR.OAUTH_DISCOVERY_FAILED");
    expect(error.message).toContain("issuer");
  });

  it("says so when the server does not ask for OAuth at all", async () => {
    const as = track(await startMetadataOnlyAuthorizationServer());
    const error = await rejection(discoverOAuthServer(`${as.issuer}/mcp`, { fetch: egress }));
    expect(error.code).toBe("USER.CONNECTOR.OAUTH_UNSUPPORTED");
    expect(error.message).toContain("protected resource metadata");
  });
});

/**
 * A server of the 2025-03-26 revision: 401 without `resource_metadata`, no protected
 * resource metadata, and RFC 8414 metadata at its origin when `metadata` is given.
 */
const legacyServer = async (metadata?: (origin: string) => Record<string, unknown>) => {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.method === "POST" && req.url === "/mcp") {
      res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' }).end();
      return;
    }
    if (metadata && req.url === "/.well-known/oauth-authorization-server") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(metadata(origin)));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return track({
    url: `${origin}/mcp`,
    origin,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
};

describe("discoverOAuthServer, servers of the 2025-03-26 revision", () => {
  it("takes the server's origin as the authorization server when no protected resource metadata exists", async () => {
    const legacy = await legacyServer((origin) => ({
      issuer: `${origin}/oauth`,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
    }));
    const server = await discoverOAuthServer(legacy.url, { fetch: egress });
    expect(server).toMatchObject({
      serverUrl: legacy.url,
      resource: legacy.url,
      issuer: `${legacy.origin}/oauth`,
    });
    expect(server.resourceMetadataUrl).toBeUndefined();
    expect(server.metadata.token_endpoint).toBe(`${legacy.origin}/oauth/token`);
    expect(legacy.seen).toContain("GET /.well-known/oauth-authorization-server");
  });

  it("uses /authorize, /token and /register at the origin when it serves no metadata at all", async () => {
    const legacy = await legacyServer();
    const server = await discoverOAuthServer(legacy.url, { fetch: egress });
    expect(server.issuer).toBe(legacy.origin);
    expect(server.metadata).toMatchObject({
      authorization_endpoint: `${legacy.origin}/authorize`,
      token_endpoint: `${legacy.origin}/token`,
      registration_endpoint: `${legacy.origin}/register`,
    });
  });

  it("refuses origin metadata that names an issuer on another origin", async () => {
    const legacy = await legacyServer(() => ({
      issuer: "http://127.0.0.1:9/elsewhere",
      authorization_endpoint: "http://127.0.0.1:9/authorize",
      token_endpoint: "http://127.0.0.1:9/token",
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
    }));
    const error = await rejection(discoverOAuthServer(legacy.url, { fetch: egress }));
    expect(error.code).toBe("USER.CONNECTOR.OAUTH_DISCOVERY_FAILED");
    expect(error.message).toContain("issuer");
  });

  it("makes every fallback request through the guarded fetch it is given", async () => {
    const legacy = await legacyServer();
    const fetched: string[] = [];
    await discoverOAuthServer(legacy.url, {
      fetch: (input, init) => {
        fetched.push(String(input));
        return egress(input, init);
      },
    });
    expect(fetched).toContain(`${legacy.origin}/.well-known/oauth-authorization-server`);
    expect(fetched).toHaveLength(legacy.seen.length);
  });
});

const authorize = async (
  as: TestAuthorizationServer,
  mcpUrl: string,
  preRegistered?: { clientId: string; clientSecret?: string },
) => {
  const server = await discoverOAuthServer(mcpUrl, { fetch: egress });
  const client = await obtainOAuthClient(server, {
    fetch: egress,
    redirectUri: REDIRECT,
    clientName: "Switchyard test",
    ...(preRegistered ? { preRegistered } : {}),
  });
  const begun = await beginAuthorization({ server, client, redirectUri: REDIRECT });
  const callback = await as.approve(begun.url, REDIRECT);
  const complete = (over: Partial<Parameters<typeof completeAuthorization>[0]> = {}) =>
    completeAuthorization({
      fetch: egress,
      server,
      client,
      redirectUri: REDIRECT,
      state: begun.state,
      codeVerifier: begun.codeVerifier,
      callback,
      ...over,
    });
  return { server, client, begun, callback, complete };
};

describe("the authorization code flow", () => {
  it("registers a client, authorizes with PKCE and the resource, and the token opens the MCP server", async () => {
    const { as, mcp } = await protectedPair();
    const { client, begun, callback, complete } = await authorize(as, mcp.url);

    expect(client.issuer).toBe(as.issuer);
    expect(client.clientId).toBeTruthy();
    const asked = begun.url.searchParams;
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.get("resource")).toBe(mcp.url);
    expect(asked.get("scope")).toBe("mcp:tools");
    expect(asked.get("state")).toBe(begun.state);
    expect(begun.state.length).toBeGreaterThanOrEqual(32);
    expect(begun.codeVerifier.length).toBeGreaterThanOrEqual(43);
    expect(callback.searchParams.get("state")).toBe(begun.state);

    const before = Date.now();
    const tokens = await complete();
    expect(tokens.tokenType.toLowerCase()).toBe("bearer");
    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.scope).toBe("mcp:tools");
    expect(tokens.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 3590_000);
    expect(tokens.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect(as.tokenRequests).toEqual([
      { grantType: "authorization_code", resource: mcp.url, clientId: client.clientId },
    ]);

    expect(await whoami(mcp.url, tokens.accessToken)).toBe("test-user");
  });

  it("refuses a callback with another state, a refusal, or a code replayed", async () => {
    const { as, mcp } = await protectedPair();
    const { server, client, callback, complete } = await authorize(as, mcp.url);

    const wrongState = await rejection(complete({ state: "another" }));
    expect(wrongState.code).toBe("USER.CONNECTOR.OAUTH_FAILED");
    expect(wrongState.message).toContain("state");

    const forged = new URL(callback);
    forged.searchParams.set("iss", "http://127.0.0.1:9");
    const wrongIssuer = await rejection(complete({ callback: forged }));
    expect(wrongIssuer.message).toContain("issuer");

    await complete();
    const replayed = await rejection(complete());
    expect(replayed.code).toBe("USER.CONNECTOR.OAUTH_FAILED");
    expect(replayed.message).toContain("invalid_grant");

    const again = await beginAuthorization({ server, client, redirectUri: REDIRECT });
    const denied = await as.approve(again.url, REDIRECT, { deny: true });
    const refusal = await rejection(
      complete({ state: again.state, codeVerifier: again.codeVerifier, callback: denied }),
    );
    expect(refusal.code).toBe("USER.CONNECTOR.OAUTH_FAILED");
    expect(refusal.message).toContain("access_denied");
  });

  it("uses a pre-registered client where the authorization server offers no registration", async () => {
    const { as, mcp } = await protectedPair({
      registration: false,
      clients: [
        {
          client_id: "switchyard-team",
          client_secret: "a-long-client-secret-0123456789",
          redirect_uris: [REDIRECT],
        },
      ],
    });
    const server = await discoverOAuthServer(mcp.url, { fetch: egress });
    expect(server.metadata.registration_endpoint).toBeUndefined();
    const none = await rejection(
      obtainOAuthClient(server, {
        fetch: egress,
        redirectUri: REDIRECT,
      }),
    );
    expect(none.code).toBe("USER.CONNECTOR.OAUTH_UNSUPPORTED");
    expect(none.message).toContain("client id");

    const { client, complete } = await authorize(as, mcp.url, {
      clientId: "switchyard-team",
      clientSecret: "a-long-client-secret-0123456789",
    });
    expect(client).toMatchObject({ clientId: "switchyard-team", issuer: as.issuer });
    const tokens = await complete();
    expect(await whoami(mcp.url, tokens.accessToken)).toBe("test-user");
    expect(as.tokenRequests.map((r) => r.clientId)).toEqual(["switchyard-team"]);

    const wrongSecret = await authorize(as, mcp.url, {
      clientId: "switchyard-team",
      clientSecret: "nope",
    });
    const refused = await rejection(wrongSecret.complete());
    expect(refused.message).toContain("invalid_client");
    expect(refused.message).not.toContain("nope");
  });
});
