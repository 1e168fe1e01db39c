/**
 * What real authorization servers ask of Switchyard's OAuth client, against real servers on
 * 127.0.0.1 (oidc-provider, a metadata-only server) and a real protected MCP server: a server
 * whose metadata leaves out the authorization code grant is refused before anyone is sent to
 * it.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import {
  startMetadataOnlyAuthorizationServer,
  startProtectedMcpServer,
} from "@switchyard/testing/oauth";
import { Redis } from "ioredis";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

process.env.AUTH_URL = "http://127.0.0.1:3999";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const prefix = `oauth-clients-${randomBytes(4).toString("hex")}`;
let seeded: SeededDatabase;
let redis: Redis;
const closers: (() => Promise<unknown>)[] = [];

const as = (userId: string) =>
  dashboardCaller({ db: seeded.db, keyring, redis, prefix, egress }, userId);
const admin = () => as(seeded.adminId);
const pendingKeys = () => redis.keys(`${prefix}:connector-oauth:*`);

/** A protected MCP server whose authorization server publishes `metadata`, set up as connector `id`. */
const oauthConnector = async (id: string, metadata: Record<string, unknown>, clientId?: string) => {
  const server = await startMetadataOnlyAuthorizationServer(metadata);
  closers.push(() => server.close());
  const mcp = await startProtectedMcpServer({ authorizationServer: server });
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
  return server;
};

beforeAll(async () => {
  seeded = await openSeededDatabase();
  redis = new Redis(process.env.REDIS_URL!);
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
    await oauthConnector("machines", { grant_types_supported: ["client_credentials"] });
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
      const server = await oauthConnector(
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
