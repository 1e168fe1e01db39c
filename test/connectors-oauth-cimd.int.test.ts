/**
 * Switchyard's OAuth client metadata document, against a real authorization server that
 * takes such documents (oidc-provider, its draft-02 feature) and a real protected MCP server:
 * the instance (AUTH_URL https://switchyard.test, which the server reaches at the web app's
 * loopback listener, as through the dashboard's TLS proxy) presents the document's URL as its
 * client id, the server fetches the document from the web app's public route and sends the
 * browser back only to the redirect URI it names, no client is registered for the team, and
 * the worker refreshes and calls with that client id. A pre-registered client id still wins;
 * a server that takes no documents gets a registered client as before.
 */
import { randomBytes } from "node:crypto";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_METADATA_PATH } from "@switchyard/core/connectors";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import type { RunJob } from "@switchyard/core/runs";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import {
  startOAuthServer,
  type OAuthServerOptions,
  type ResourceAuthority,
} from "@switchyard/testing/oauth";
import { connectorOAuthCallback } from "~/server/connectors/connector-oauth";
import { webEgress } from "~/server/egress";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { createOAuthConnector } from "./helpers/oauth-connector";
import { startConnectorWorker } from "./helpers/worker-step-connectors";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { startWebAppServer, type WebAppServer } from "./helpers/web-app-server";

const PUBLIC = "https://switchyard.test";
process.env.AUTH_URL = PUBLIC;
const DOCUMENT_URL = `${PUBLIC}${CLIENT_METADATA_PATH}`;
const REDIRECT_URI = `${PUBLIC}/api/connectors/oauth/callback`;

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const prefix = `oauth-cimd-${randomBytes(4).toString("hex")}`;
let seeded: SeededDatabase;
let redis: Redis;
let web: WebAppServer;
const closers: (() => Promise<unknown>)[] = [];

const admin = () =>
  dashboardCaller({ db: seeded.db, keyring, redis, prefix, egress }, seeded.adminId);

/** Document fetches the authorization servers made, by URL. */
const fetched: string[] = [];

/** An authorization server that takes client ID metadata documents, reaching PUBLIC at the web app. */
const documentServer = (options: OAuthServerOptions = {}) =>
  startOAuthServer({
    ...options,
    clientIdMetadataDocuments: {
      fetch: (url, init) => {
        fetched.push(url);
        // Its own dispatcher refuses loopback addresses; the test's TLS proxy stands in here.
        const { dispatcher: _, ...rest } = init as RequestInit & { dispatcher?: unknown };
        return fetch(url.startsWith(PUBLIC) ? web.origin + url.slice(PUBLIC.length) : url, rest);
      },
    },
  }).then((server) => (closers.push(() => server.close()), server));

const oauthConnector = (id: string, authority: ResourceAuthority, clientId?: string) =>
  createOAuthConnector(admin, closers, { id, authority, clientId });

const callback = (landed: URL) =>
  connectorOAuthCallback({ db: seeded.db, redis, keyring, prefix, egress }, seeded.adminId, landed);

const outcomeOf = (response: Response) =>
  new URL(response.headers.get("location") ?? "", REDIRECT_URI).searchParams.toString();

const startWorker = () => startConnectorWorker(seeded, keyring, closers);

beforeAll(async () => {
  seeded = await openSeededDatabase();
  redis = new Redis(process.env.REDIS_URL!);
  const queue = new Queue<RunJob>(`cimd-${prefix}`, { connection: redis, prefix });
  closers.push(() => queue.close());
  web = await startWebAppServer(() => ({ db: seeded.db, queue, redis, prefix, keyring, egress }));
  closers.push(() => web.close());
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  redis?.disconnect();
  await seeded?.close();
});

describe("the client metadata document", () => {
  it("is served at its public route: the client id is its own URL, a public client sent back to the callback", async () => {
    const response = await fetch(`${web.origin}${CLIENT_METADATA_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({
      client_id: DOCUMENT_URL,
      client_name: "Switchyard",
      client_uri: PUBLIC,
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "web",
    });
  });

  it("is the client id where the server takes documents: fetched by the server, no registration for the team, and the worker refreshes with it", async () => {
    // Shorter than the worker's refresh margin: its first use refreshes.
    const authServer = await documentServer({ accessTokenTtlSeconds: 30 });
    await oauthConnector("docs", authServer);

    const begun = await admin().connectors.beginOAuth({ id: "docs", scope: "team" });
    expect(begun.redirectUri).toBe(REDIRECT_URI);
    expect(new URL(begun.authorizationUrl).searchParams.get("client_id")).toBe(DOCUMENT_URL);
    const landed = await authServer.approve(begun.authorizationUrl, REDIRECT_URI);
    expect(outcomeOf(await callback(landed))).toBe("connector=docs&connected=team");

    expect(fetched).toContain(DOCUMENT_URL);
    expect(authServer.registrations).toBe(0);
    expect(await seeded.db.oAuthClient.count({ where: { teamId: seeded.teamId } })).toBe(0);
    expect(authServer.tokenRequests).toEqual([
      expect.objectContaining({ grantType: "authorization_code", clientId: DOCUMENT_URL }),
    ]);
    const listed = (await admin().connectors.list()).find((c) => c.id === "docs")!;
    expect(JSON.stringify(listed)).not.toContain(landed.searchParams.get("code")!);

    const step = (await startWorker()("docs"))!;
    const call = await step.host.callTool("docs", "whoami", {});
    expect(call.isError ?? false, JSON.stringify(call)).toBe(false);
    const refreshes = authServer.tokenRequests.filter((r) => r.grantType === "refresh_token");
    expect(refreshes).not.toEqual([]);
    expect(refreshes.every((r) => r.clientId === DOCUMENT_URL)).toBe(true);
    expect(authServer.tokenRefusals).toEqual([]);
    await step.host.close();
  }, 120_000);

  it("binds the redirect URI: the server sends the browser nowhere else", async () => {
    const authServer = await documentServer();
    await oauthConnector("bound", authServer);
    const begun = await admin().connectors.beginOAuth({ id: "bound", scope: "team" });
    const elsewhere = new URL(begun.authorizationUrl);
    elsewhere.searchParams.set("redirect_uri", "https://elsewhere.test/steal");
    await expect(authServer.approve(elsewhere, "https://elsewhere.test/steal")).rejects.toThrow(
      /stopped at \/auth with 400/,
    );
    expect(fetched).toContain(DOCUMENT_URL);
  });

  it("gives way to a pre-registered client id", async () => {
    const authServer = await documentServer({
      registration: false,
      clients: [{ client_id: "by_hand", redirect_uris: [REDIRECT_URI] }],
    });
    await oauthConnector("by_hand", authServer, "by_hand");
    const begun = await admin().connectors.beginOAuth({ id: "by_hand", scope: "team" });
    expect(new URL(begun.authorizationUrl).searchParams.get("client_id")).toBe("by_hand");
    const landed = await authServer.approve(begun.authorizationUrl, REDIRECT_URI);
    expect(outcomeOf(await callback(landed))).toBe("connector=by_hand&connected=team");
  }, 60_000);

  it("is not offered to a server that does not take documents: the team registers a client there", async () => {
    const authServer = await startOAuthServer();
    closers.push(() => authServer.close());
    await oauthConnector("registers", authServer);
    const begun = await admin().connectors.beginOAuth({ id: "registers", scope: "team" });
    const clientId = new URL(begun.authorizationUrl).searchParams.get("client_id");
    expect(clientId).not.toBe(DOCUMENT_URL);
    expect(authServer.registrations).toBe(1);
    expect(
      await seeded.db.oAuthClient.count({ where: { teamId: seeded.teamId, clientId: clientId! } }),
    ).toBe(1);
  }, 60_000);
});
