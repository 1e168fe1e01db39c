/**
 * A refreshed OAuth token reaches the scrubber of every live step using the grant, through
 * the worker's own connector code: a real authorization server whose access tokens live less
 * than the refresh margin (so every use refreshes), a real protected MCP server, the grant
 * stored sealed as the web app stores it, and the worker's pool. Two steps share the grant;
 * a call of the first refreshes it through the pool, which holds the second's token source:
 * both scrubbers know the new tokens. Once the second step has ended it learns no more.
 */
import { grantFromJson } from "@switchyard/core/connectors";
import { keyringOf, openConnectorCredential, parseMasterKey } from "@switchyard/core/crypto";
import { Scrubber } from "@switchyard/core/secrets";
import { connectorCredentialForUse, TEAM_OWNER } from "@switchyard/db";
import {
  connectWithOAuth,
  startOAuthServer,
  startProtectedMcpServer,
  type ProtectedMcpServer,
  type TestAuthorizationServer,
} from "@switchyard/testing/oauth";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createWorkerConnectors, type WorkerConnectors } from "../apps/worker/src/team-connectors";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { storeTeamGrant } from "./helpers/team-grant";
import { openTeamStep } from "./helpers/team-worker";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { LOOPBACK_EGRESS_ALLOW, loopbackEgressFetch } from "@switchyard/testing/egress";
import { webEgress } from "~/server/egress";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
let seeded: SeededDatabase;
let authServer: TestAuthorizationServer;
let mcp: ProtectedMcpServer;
let connectors: WorkerConnectors;

beforeAll(async () => {
  seeded = await openSeededDatabase();
  authServer = await startOAuthServer({ accessTokenTtlSeconds: 30 });
  mcp = await startProtectedMcpServer({ authorizationServer: authServer });
  await dashboardCaller(
    { db: seeded.db, keyring, egress: webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW)) },
    seeded.adminId,
  ).connectors.create({
    definition: {
      id: "crm",
      name: "CRM",
      transport: "http",
      url: mcp.url,
      auth: "oauth",
      lanes: ["*"],
    },
  });
  const grant = await connectWithOAuth(authServer, mcp.url);
  await storeTeamGrant(seeded, keyring, "crm", grant);
  // The servers are on loopback, which the operator's allow-list names here.
  connectors = createWorkerConnectors({
    allowAnyCommand: () => Promise.resolve(false),
    oauthFetch: loopbackEgressFetch(),
    httpFetch: loopbackEgressFetch("connector"),
  });
}, 120_000);
afterAll(async () => {
  await connectors?.pool.close();
  await mcp?.close();
  await authServer?.close();
  await seeded?.close();
});

const open = (scrubber: Scrubber, stateName: string) =>
  openTeamStep(
    { seeded, keyring, connectors, db: seeded.db },
    { slug: "crm", scrubber, stateName },
  );

/** The grant's tokens as stored now (the worker seals every refresh). */
const storedTokens = async () => {
  const stored = (await connectorCredentialForUse(seeded.db, {
    teamId: seeded.teamId,
    slug: "crm",
    owner: TEAM_OWNER,
  }))!;
  const value = openConnectorCredential(
    keyring,
    {
      teamId: seeded.teamId,
      credentialId: stored.sealed.credentialId,
      connector: "crm",
      owner: TEAM_OWNER,
    },
    stored.sealed.envelope,
  );
  const { tokens } = grantFromJson(value);
  return [tokens.accessToken, tokens.refreshToken!];
};

it("teaches a token refreshed during one step's call to every live step using the grant, and no ended one", async () => {
  const first = new Scrubber();
  const second = new Scrubber();
  const one = (await open(first, "one"))!;
  const two = (await open(second, "two"))!;
  const refreshesBefore = authServer.tokenRequests.filter(
    (r) => r.grantType === "refresh_token",
  ).length;

  const called = await one.host.callTool("crm", "whoami", {});
  expect(called.isError ?? false, JSON.stringify(called)).toBe(false);
  expect(
    authServer.tokenRequests.filter((r) => r.grantType === "refresh_token").length,
  ).toBeGreaterThan(refreshesBefore);
  const refreshed = await storedTokens();
  for (const token of refreshed) {
    expect(first.scrub(`seen ${token}`)).toBe("seen [REDACTED]");
    expect(second.scrub(`seen ${token}`)).toBe("seen [REDACTED]");
  }

  await two.host.close();
  await one.host.callTool("crm", "whoami", {});
  const later = await storedTokens();
  expect(later[0]).not.toBe(refreshed[0]);
  expect(first.scrub(later[0]!)).toBe("[REDACTED]");
  expect(second.scrub(later[0]!)).toBe(later[0]);
  await one.host.close();
}, 120_000);
