/**
 * What real authorization servers ask of Switchyard's OAuth client, against real servers on
 * 127.0.0.1 (oidc-provider, a metadata-only server) and a real protected MCP server: a server
 * whose metadata leaves out the authorization code grant is refused before anyone is sent to
 * it; a pre-registered client authenticates with the secret an admin set (basic or post, as
 * the server's metadata lists), at the code exchange and at every refresh, and that secret is
 * never shown or stored in the clear; a client registered dynamically is kept for the team and
 * used again, and registered anew once the server no longer knows it; two workers refreshing one grant of a server that rotates refresh tokens (and revokes
 * the grant when a spent one comes back) take turns on the credential row, so one refresh
 * reaches the server and both go on with its tokens.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { findOAuthClient, keepOAuthClient } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import {
  connectWithOAuth,
  startMetadataOnlyAuthorizationServer,
  startOAuthServer,
  startProtectedMcpServer,
  type ResourceAuthority,
  type TestAuthorizationServer,
} from "@switchyard/testing/oauth";
import { Redis } from "ioredis";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectorOAuthCallback } from "~/server/connectors/connector-oauth";
import { webEgress } from "~/server/egress";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { everyRow, startTeamWorker } from "./helpers/team-worker";
import { storeTeamGrant } from "./helpers/team-grant";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

process.env.AUTH_URL = "http://127.0.0.1:3999";
const REDIRECT_URI = "http://127.0.0.1:3999/api/connectors/oauth/callback";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const prefix = `oauth-clients-${randomBytes(4).toString("hex")}`;
let seeded: SeededDatabase;
let redis: Redis;
let memberId: string;
const closers: (() => Promise<unknown>)[] = [];

const as = (userId: string) =>
  dashboardCaller({ db: seeded.db, keyring, redis, prefix, egress }, userId);
const admin = () => as(seeded.adminId);
const pendingKeys = () => redis.keys(`${prefix}:connector-oauth:*`);

/** Begins connecting `id` as the admin, approves, and answers the callback's outcome (its query). */
const connect = async (id: string, authority: Pick<TestAuthorizationServer, "approve">) => {
  const begun = await admin().connectors.beginOAuth({ id, scope: "team" });
  const landed = await authority.approve(begun.authorizationUrl, begun.redirectUri);
  const response = await connectorOAuthCallback(
    { db: seeded.db, redis, keyring, prefix, egress },
    seeded.adminId,
    landed,
  );
  return new URL(response.headers.get("location") ?? "", REDIRECT_URI).searchParams.toString();
};

/** A protected MCP server of `authority`, set up as the team's connector `id`. */
const oauthConnector = async (id: string, authority: ResourceAuthority, clientId?: string) => {
  const mcp = await startProtectedMcpServer({ authorizationServer: authority });
  closers.push(() => mcp.close());
  await admin().connectors.create({
    definition: {
      id,
      name: id,
      transport: "http",
      url: mcp.url,
      auth: "oauth",
      ...(clientId ? { oauth_client_id: clientId } : {}),
    },
  });
  return mcp;
};

/** An authorization server that publishes `metadata` and nothing else, behind connector `id`. */
const metadataOnlyConnector = async (
  id: string,
  metadata: Record<string, unknown>,
  clientId?: string,
) => {
  const server = await startMetadataOnlyAuthorizationServer(metadata);
  closers.push(() => server.close());
  await oauthConnector(id, server, clientId);
  return server;
};

beforeAll(async () => {
  seeded = await openSeededDatabase();
  redis = new Redis(process.env.REDIS_URL!);
  const member = await seeded.db.user.create({ data: { email: "m@test.local", name: "M" } });
  await seeded.db.membership.create({
    data: { teamId: seeded.teamId, userId: member.id, role: "member" },
  });
  memberId = member.id;
}, 120_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  const keys = await pendingKeys();
  if (keys.length > 0) await redis.del(...keys);
  redis?.disconnect();
  await seeded?.close();
});

describe("the authorization server's grant types", () => {
  it("refuses a server that does not list authorization_code before the browser is sent there", async () => {
    await metadataOnlyConnector("machines", { grant_types_supported: ["client_credentials"] });
    await expect(
      admin().connectors.beginOAuth({ id: "machines", scope: "team" }),
    ).rejects.toMatchObject({
      cause: {
        code: "USER.CONNECTOR.OAUTH_UNSUPPORTED",
        message: expect.stringMatching(/"authorization_code" in grant_types_supported/) as string,
      },
    });
    expect(await pendingKeys()).toEqual([]);
  });

  it("takes a server that lists authorization_code, or leaves the field out", async () => {
    for (const [id, grants] of [
      ["listed", ["authorization_code"]],
      ["silent", undefined],
    ] as const) {
      const server = await metadataOnlyConnector(
        id,
        {
          grant_types_supported: grants,
          token_endpoint_auth_methods_supported: ["none"],
        },
        "pre-registered",
      );
      const begun = await admin().connectors.beginOAuth({ id, scope: "team" });
      expect(new URL(begun.authorizationUrl).origin).toBe(server.issuer);
    }
  });
});

/** A worker of its own: its database pool and its connector pool, as another process has. */
const startWorker = () => startTeamWorker(seeded, keyring, closers);

describe("refreshing one grant from two workers", () => {
  it("locks the credential while refreshing: one refresh reaches the server, and both workers call with its token", async () => {
    const authServer = await startOAuthServer();
    closers.push(() => authServer.close());
    const mcp = await oauthConnector("rotating", authServer);
    const grant = await connectWithOAuth(authServer, mcp.url);
    // Stored as expired: the first use of each worker refreshes.
    const expired = {
      ...grant,
      tokens: { ...grant.tokens, expiresAt: new Date(Date.now() - 1000) },
    };
    await storeTeamGrant(seeded, keyring, "rotating", expired);
    const refreshes = () => authServer.tokenRequests.filter((r) => r.grantType === "refresh_token");
    expect(refreshes()).toHaveLength(0);

    const [one, two] = await Promise.all([startWorker()("rotating"), startWorker()("rotating")]);
    const calls = await Promise.all([
      one!.host.callTool("rotating", "whoami", {}),
      two!.host.callTool("rotating", "whoami", {}),
    ]);
    for (const call of calls) {
      expect(call.isError ?? false, JSON.stringify(call)).toBe(false);
      expect(JSON.stringify(call)).toContain("test-user");
    }
    expect(refreshes()).toHaveLength(1);
    expect(authServer.tokenRefusals).toEqual([]);
    await Promise.all([one!.host.close(), two!.host.close()]);
  }, 120_000);
});

describe("a grant connected again while a step runs", () => {
  it("is not refreshed with the old refresh token, nor marked, by the step that holds the old grant", async () => {
    const authServer = await startOAuthServer();
    closers.push(() => authServer.close());
    const mcp = await oauthConnector("reconnected", authServer);
    const grant = await connectWithOAuth(authServer, mcp.url);
    // The step's grant: fresh for three seconds beyond the worker's one-minute refresh margin,
    // then due; its refresh token is one the server refuses.
    const due = Date.now() + 63_000;
    await storeTeamGrant(seeded, keyring, "reconnected", {
      ...grant,
      tokens: { ...grant.tokens, expiresAt: new Date(due), refreshToken: "spent" },
    });
    const step = (await startWorker()("reconnected"))!;
    // A person connects again while the step runs: a new credential in the row.
    await storeTeamGrant(seeded, keyring, "reconnected", grant);
    await new Promise((r) => setTimeout(r, Math.max(0, due - 60_000 - Date.now() + 200)));

    const call = await step.host.callTool("reconnected", "whoami", {}).catch((e: unknown) => e);
    expect(JSON.stringify(call)).toContain("NEEDS_RECONNECT");
    // The old refresh token never went to the server: nothing was refused there.
    expect(authServer.tokenRefusals).toEqual([]);
    expect(authServer.tokenRequests.filter((r) => r.grantType === "refresh_token")).toEqual([]);
    const row = await seeded.db.connectorCredential.findFirst({
      where: { teamId: seeded.teamId, connector: { slug: "reconnected" } },
      select: { status: true },
    });
    expect(row?.status).toBe("active");
    await step.host.close();
    // The next step takes the new grant.
    const next = (await startWorker()("reconnected"))!;
    const ok = await next.host.callTool("reconnected", "whoami", {});
    expect(ok.isError ?? false, JSON.stringify(ok)).toBe(false);
    await next.host.close();
  }, 120_000);
});

describe("a pre-registered client with a secret", () => {
  for (const method of ["client_secret_basic", "client_secret_post"] as const) {
    it(`authenticates with the secret an admin set, by ${method} as the server lists it, at the code exchange and at refresh`, async () => {
      const id = method.replace("client_secret_", "app_");
      const secret = `cs-${randomBytes(16).toString("hex")}`;
      const authServer = await startOAuthServer({
        // Shorter than the worker's refresh margin: its first use refreshes.
        accessTokenTtlSeconds: 30,
        registration: false,
        clientAuthMethods: [method],
        clients: [
          {
            client_id: id,
            client_secret: secret,
            redirect_uris: [REDIRECT_URI],
            token_endpoint_auth_method: method,
          },
        ],
      });
      closers.push(() => authServer.close());
      await oauthConnector(id, authServer, id);

      // Without its secret the client is refused at the token endpoint, after the person approved.
      expect(await connect(id, authServer)).toBe(
        `connector=${id}&error=USER.CONNECTOR.OAUTH_FAILED`,
      );
      expect(authServer.tokenRefusals).toEqual([
        { grantType: "authorization_code", error: "invalid_client" },
      ]);

      await expect(as(memberId).connectors.setClientSecret({ id, secret })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      expect(await admin().connectors.setClientSecret({ id, secret })).toEqual({
        id,
        clientSecret: "set",
      });
      const listed = (await admin().connectors.list()).find((c) => c.id === id)!;
      expect(listed.clientSecret).toBe("set");
      expect(JSON.stringify(listed)).not.toContain(secret);

      expect(await connect(id, authServer)).toBe(`connector=${id}&connected=team`);
      expect(authServer.tokenRequests.filter((r) => r.grantType === "authorization_code")).toEqual([
        expect.objectContaining({ clientId: id }),
      ]);

      // The worker's refresh authenticates the same way.
      const step = (await startWorker()(id))!;
      const call = await step.host.callTool(id, "whoami", {});
      expect(call.isError ?? false, JSON.stringify(call)).toBe(false);
      expect(authServer.tokenRequests.filter((r) => r.grantType === "refresh_token")).not.toEqual(
        [],
      );
      expect(authServer.tokenRefusals).toHaveLength(1);
      await step.host.close();

      const audit = await seeded.db.auditLog.findMany({
        where: {
          teamId: seeded.teamId,
          targetId: id,
          action: { startsWith: "connector.client_secret" },
        },
      });
      expect(audit.map((a) => a.action)).toEqual(["connector.client_secret.set"]);
      const stored = await everyRow(seeded.db);
      expect(stored).toContain(id);
      expect(stored).not.toContain(secret);

      expect(await admin().connectors.setClientSecret({ id, secret: null })).toEqual({
        id,
        clientSecret: "not_set",
      });
      expect((await admin().connectors.list()).find((c) => c.id === id)!.clientSecret).toBe(
        "not_set",
      );
    }, 120_000);
  }

  it("stays with its client and server: a new URL or client id drops it, in the change's transaction and audit entry", async () => {
    const id = "moving";
    const definition = {
      id,
      name: "Moving",
      transport: "http" as const,
      url: "http://127.0.0.1:9/mcp",
      auth: "oauth" as const,
      oauth_client_id: "app-1",
    };
    await admin().connectors.create({ definition });
    const secretOf = async () =>
      (await admin().connectors.list()).find((c) => c.id === id)!.clientSecret;
    const moves = async () =>
      (
        await seeded.db.auditLog.findMany({
          where: { teamId: seeded.teamId, targetId: id, action: "connector.update" },
          orderBy: { createdAt: "asc" },
        })
      ).map((a) => (a.metadata as Record<string, unknown>).clientSecretCleared ?? 0);

    // Another name leaves it where it was.
    await admin().connectors.setClientSecret({ id, secret: "cs-first-secret" });
    await admin().connectors.update({ id, definition: { ...definition, name: "Renamed" } });
    expect(await secretOf()).toBe("set");
    // Another server: the secret is not sent to whatever token endpoint that one names.
    await admin().connectors.update({
      id,
      definition: { ...definition, url: "http://127.0.0.1:10/mcp" },
    });
    expect(await secretOf()).toBe("not_set");
    // Another client id at the same server: not that client's secret either.
    await admin().connectors.setClientSecret({ id, secret: "cs-second-secret" });
    await admin().connectors.update({
      id,
      definition: { ...definition, url: "http://127.0.0.1:10/mcp", oauth_client_id: "app-2" },
    });
    expect(await secretOf()).toBe("not_set");
    expect(await moves()).toEqual([0, 1, 1]);
    // Its sealed row went with it.
    expect(
      await seeded.db.credential.count({
        where: { teamId: seeded.teamId, name: { contains: id } },
      }),
    ).toBe(0);
  });

  it("is only for an OAuth connector", async () => {
    await admin().connectors.create({
      definition: {
        id: "keyed",
        name: "Keyed",
        transport: "http",
        url: "http://127.0.0.1:9/mcp",
        auth: "bearer",
      },
    });
    await expect(
      admin().connectors.setClientSecret({ id: "keyed", secret: "cs-abcdefgh" }),
    ).rejects.toMatchObject({ cause: { code: "BAD_REQUEST" } });
  });
});

describe("a client registered dynamically", () => {
  it("is kept once when two first connections to one server meet: the later keeps nothing, and its connection goes on", async () => {
    const key = { teamId: seeded.teamId, issuer: "http://127.0.0.1:9", redirectUri: REDIRECT_URI };
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const hasInserted = new Promise<void>((r) => (inserted = r));
    // The first keeping, not yet committed when the second begins.
    const first = seeded.db.$transaction(
      async (tx) => {
        await tx.oAuthClient.create({ data: { ...key, clientId: "first" } });
        inserted();
        await released;
      },
      { timeout: 30_000 },
    );
    await hasInserted;
    const second = keepOAuthClient(seeded.db, {
      ...key,
      clientId: "second",
      tokenEndpointAuthMethod: null,
      secret: null,
      secretExpiresAt: null,
    });
    await new Promise((r) => setTimeout(r, 300));
    release();
    await first;
    expect(await second).toBe(false);
    expect((await findOAuthClient(seeded.db, key))?.clientId).toBe("first");
  });

  it("is registered once per server and redirect URI, and again once the server refuses it", async () => {
    const authServer = await startOAuthServer();
    closers.push(() => authServer.close());
    await oauthConnector("registered", authServer);
    await oauthConnector("registered_too", authServer);
    const clientOf = async (id: string) => {
      const begun = await admin().connectors.beginOAuth({ id, scope: "team" });
      return new URL(begun.authorizationUrl).searchParams.get("client_id");
    };

    const first = await clientOf("registered");
    expect(await clientOf("registered")).toBe(first);
    // Another connector behind the same authorization server: the same client.
    expect(await clientOf("registered_too")).toBe(first);
    expect(authServer.registrations).toBe(1);
    expect(await connect("registered", authServer)).toBe("connector=registered&connected=team");
    expect(authServer.registrations).toBe(1);

    // The server dropped the client between the approval and the callback: invalid_client.
    const begun = await admin().connectors.beginOAuth({ id: "registered", scope: "team" });
    const landed = await authServer.approve(begun.authorizationUrl, begun.redirectUri);
    expect(authServer.forgetClient(first!)).toBe(true);
    const refused = await connectorOAuthCallback(
      { db: seeded.db, redis, keyring, prefix, egress },
      seeded.adminId,
      landed,
    );
    expect(refused.headers.get("location")).toContain("error=USER.CONNECTOR.OAUTH_FAILED");
    const again = await clientOf("registered");
    expect(again).not.toBe(first);
    expect(authServer.registrations).toBe(2);
    expect(await connect("registered", authServer)).toBe("connector=registered&connected=team");
  }, 120_000);

  it("is registered again when an authorization presented with it never came back (the server dropped it)", async () => {
    const authServer = await startOAuthServer();
    closers.push(() => authServer.close());
    await oauthConnector("dropped", authServer);
    expect(await connect("dropped", authServer)).toBe("connector=dropped&connected=team");
    const key = { teamId: seeded.teamId, issuer: authServer.issuer, redirectUri: REDIRECT_URI };
    const first = (await findOAuthClient(seeded.db, key))!.clientId;
    expect((await findOAuthClient(seeded.db, key))!.presentedAt).toBeNull();
    // The server forgets the client: its authorization page refuses it and sends nobody back.
    expect(authServer.forgetClient(first)).toBe(true);
    const begun = await admin().connectors.beginOAuth({ id: "dropped", scope: "team" });
    expect(new URL(begun.authorizationUrl).searchParams.get("client_id")).toBe(first);
    // While a begun authorization may still come back, the same client is presented.
    const again = await admin().connectors.beginOAuth({ id: "dropped", scope: "team" });
    expect(new URL(again.authorizationUrl).searchParams.get("client_id")).toBe(first);
    expect(authServer.registrations).toBe(1);
    // Ten minutes on, nothing came back with it: the next connection registers a new client.
    await seeded.db.oAuthClient.updateMany({
      where: key,
      data: { presentedAt: new Date(Date.now() - 11 * 60_000) },
    });
    expect(await connect("dropped", authServer)).toBe("connector=dropped&connected=team");
    expect(authServer.registrations).toBe(2);
    const kept = (await findOAuthClient(seeded.db, key))!;
    expect(kept.clientId).not.toBe(first);
    expect(kept.presentedAt).toBeNull();
  }, 120_000);
});
