import {
  connectWithOAuth,
  startOAuthServer,
  startProtectedMcpServer,
  type ProtectedMcpServer,
  type TestAuthorizationServer,
} from "@switchyard/testing/oauth";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { McpConnectorHost } from "../mcp-connector-host";
import { OAuthTokenSource } from "./oauth-token-source";
import type { OAuthTokenSet } from "./oauth-types";
import { loopbackEgressFetch } from "@switchyard/testing/egress";

/** The test servers are on loopback, which the operator's allow-list names here. */
const egress = loopbackEgressFetch();

const HOUR = 3600_000;

let as: TestAuthorizationServer;
let mcp: ProtectedMcpServer;
beforeEach(async () => {
  as = await startOAuthServer({ accessTokenTtlSeconds: 3600 });
  mcp = await startProtectedMcpServer({ authorizationServer: as });
});
afterEach(async () => {
  await mcp.close();
  await as.close();
});

/** Connects as the web app would, then hands the worker's token source a clock it can move. */
const connected = async () => {
  const { server, client, tokens } = await connectWithOAuth(as, mcp.url);
  const clock = { skew: 0 };
  const stored: OAuthTokenSet[] = [];
  const failures: string[] = [];
  const source = new OAuthTokenSource({
    fetch: egress,
    server,
    client,
    tokens,
    onTokens: (next) => void stored.push(next),
    onFailed: (reason) => void failures.push(reason),
    now: () => Date.now() + clock.skew,
  });
  return { server, client, tokens, clock, stored, failures, source };
};

const refreshes = () => as.tokenRequests.filter((r) => r.grantType === "refresh_token");

const text = (result: { content: unknown }) =>
  (result.content as { text?: string }[]).map((b) => b.text ?? "").join("");

describe("OAuthTokenSource", () => {
  it("hands out the token while it is fresh, then refreshes once for concurrent callers and keeps the rotated refresh token", async () => {
    const { tokens, clock, stored, source } = await connected();
    expect(await source.resolve()).toBe(tokens.accessToken);
    clock.skew = HOUR - 90_000;
    expect(await source.resolve()).toBe(tokens.accessToken);
    expect(refreshes()).toEqual([]);

    clock.skew = HOUR - 30_000;
    const all = await Promise.all([source.resolve(), source.resolve(), source.resolve()]);
    expect(new Set(all).size).toBe(1);
    expect(all[0]).not.toBe(tokens.accessToken);
    expect(refreshes()).toHaveLength(1);
    expect(refreshes()[0]!.resource).toBe(mcp.url);

    expect(stored).toHaveLength(1);
    expect(stored[0]!.accessToken).toBe(all[0]);
    expect(stored[0]!.refreshToken).toBeTruthy();
    expect(stored[0]!.refreshToken).not.toBe(tokens.refreshToken);
    expect(stored[0]!.expiresAt!.getTime()).toBeGreaterThan(
      Date.now() + clock.skew + HOUR - 60_000,
    );
    expect(source.tokens).toEqual(stored[0]);
    expect(await source.resolve()).toBe(all[0]);
    expect(refreshes()).toHaveLength(1);

    // The next refresh presents the rotated token (the first one was consumed).
    clock.skew += HOUR;
    await source.resolve();
    expect(refreshes()).toHaveLength(2);
    expect(stored[1]!.refreshToken).not.toBe(stored[0]!.refreshToken);
  });

  it("asks for a reconnect when the grant was revoked, once, without asking the server again", async () => {
    const { tokens, clock, failures, source } = await connected();
    expect(as.revokeRefreshToken(tokens.refreshToken!)).toBe(true);
    clock.skew = HOUR;
    const first = await source.resolve().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(AppError);
    expect((first as AppError).code).toBe("USER.CONNECTOR.NEEDS_RECONNECT");
    expect((first as AppError).retryable).toBe(false);
    expect((first as AppError).message).toMatch(/reconnect/i);
    expect((first as AppError).message).not.toContain(tokens.refreshToken!);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain("invalid_grant");

    const asked = as.tokenRequests.length;
    await expect(source.resolve()).rejects.toMatchObject({
      code: "USER.CONNECTOR.NEEDS_RECONNECT",
    });
    expect(as.tokenRequests.length).toBe(asked);
    expect(failures).toHaveLength(1);
  });

  it("reports an unreachable token endpoint as retryable and leaves the grant alone", async () => {
    const { server, client, tokens } = await connected();
    const failures: string[] = [];
    const source = new OAuthTokenSource({
      fetch: egress,
      server: {
        ...server,
        metadata: { ...server.metadata, token_endpoint: "http://127.0.0.1:9/token" },
      },
      client,
      tokens,
      onTokens: () => undefined,
      onFailed: (reason) => void failures.push(reason),
      now: () => Date.now() + HOUR,
    });
    const error = await source.resolve().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "EXECUTION.CONNECTOR_UNAVAILABLE", retryable: true });
    expect(failures).toEqual([]);
  });

  it("asks for a reconnect when the token expired and there is no refresh token", async () => {
    const { server, client, tokens } = await connected();
    const failures: string[] = [];
    const source = new OAuthTokenSource({
      fetch: egress,
      server,
      client,
      tokens: { ...tokens, refreshToken: undefined },
      onTokens: () => undefined,
      onFailed: (reason) => void failures.push(reason),
      now: () => Date.now() + HOUR,
    });
    await expect(source.resolve()).rejects.toMatchObject({
      code: "USER.CONNECTOR.NEEDS_RECONNECT",
    });
    expect(failures).toHaveLength(1);
  });

  it("keeps an MCP connector working through McpConnectorHost when its token expires between two calls", async () => {
    const { clock, stored, source } = await connected();
    const host = new McpConnectorHost({
      httpFetch: loopbackEgressFetch("connector"),
      connectors: [{ id: "protected", kind: "http", url: mcp.url }],
      credentials: { resolve: () => source.resolve() },
    });
    try {
      expect(text(await host.callTool("protected", "whoami", {}))).toBe("test-user");
      expect(as.expireAccessTokens()).toBe(1);
      clock.skew = HOUR;
      expect(text(await host.callTool("protected", "echo", { text: "still here" }))).toBe(
        "still here",
      );
      expect(text(await host.callTool("protected", "whoami", {}))).toBe("test-user");
      expect(refreshes()).toHaveLength(1);
      expect(stored).toHaveLength(1);
      expect(mcp.unauthorized).toBe(1);
    } finally {
      await host.close();
    }
  });

  it("refreshes once and sends the call again when the server refuses a token before its expiry", async () => {
    const { stored, source } = await connected();
    const host = new McpConnectorHost({
      httpFetch: loopbackEgressFetch("connector"),
      connectors: [{ id: "protected", kind: "http", url: mcp.url }],
      credentials: {
        resolve: () => source.resolve(),
        rejected: (_id, token) => source.invalidate(token),
      },
    });
    try {
      expect(text(await host.callTool("protected", "whoami", {}))).toBe("test-user");
      const before = refreshes().length;
      const refusedBefore = mcp.unauthorized;
      // Revoked at the server while the worker still thinks the token has an hour left.
      expect(as.expireAccessTokens()).toBe(1);
      expect(text(await host.callTool("protected", "echo", { text: "after the 401" }))).toBe(
        "after the 401",
      );
      expect(refreshes().length - before).toBe(1);
      expect(mcp.unauthorized - refusedBefore).toBe(1);
      expect(stored).toHaveLength(1);
      expect(text(await host.callTool("protected", "whoami", {}))).toBe("test-user");
      expect(refreshes().length - before).toBe(1);
    } finally {
      await host.close();
    }
  });

  it("takes the tokens another worker stored instead of refreshing the same grant again", async () => {
    const first = await connected();
    const shared: OAuthTokenSet[] = [];
    const worker = (clock: { skew: number }) =>
      new OAuthTokenSource({
        fetch: egress,
        server: first.server,
        client: first.client,
        tokens: first.tokens,
        onTokens: (next) => void shared.push(next),
        reload: () => Promise.resolve(shared.at(-1)),
        now: () => Date.now() + clock.skew,
      });
    const clock = { skew: HOUR };
    const a = worker(clock);
    const b = worker(clock);
    const before = refreshes().length;
    const fromA = await a.resolve();
    expect(refreshes().length - before).toBe(1);
    // b holds the same, now rotated, grant: it takes a's tokens rather than spend the old refresh token.
    expect(await b.resolve()).toBe(fromA);
    expect(refreshes().length - before).toBe(1);
    expect(b.tokens.refreshToken).toBe(shared.at(-1)!.refreshToken);
  });
});
