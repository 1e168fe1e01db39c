/**
 * Enterprise connectors (cross-app access) against real servers on 127.0.0.1: an
 * organisation IdP, an authorization server that takes the IdP's grants, and a protected MCP
 * server. A member's sign-in through the IdP is kept (sealed) by the sign-in's own function;
 * the worker exchanges it at the IdP for an ID-JAG and that for the member's access token,
 * and the server sees the member. Without a sign-in, with an expired one, or when the IdP
 * refuses, the step is refused with a code; no token or secret is stored in the clear.
 */
import { randomBytes } from "node:crypto";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { Scrubber } from "@switchyard/core/secrets";
import { ssoIdTokenOf } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW, loopbackEgressFetch } from "@switchyard/testing/egress";
import {
  startMetadataOnlyAuthorizationServer,
  startProtectedMcpServer,
  type ResourceAuthority,
} from "@switchyard/testing/oauth";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { createWorkerConnectors } from "../apps/worker/src/team-connectors";
import { startCrossAppAccess, type CrossAppSetup } from "./helpers/cross-app-idp";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { everyRow } from "./helpers/every-row";
import { openTestStep } from "./helpers/open-test-step";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { signInThroughIssuer } from "./helpers/sign-in-stand-in";
import { addMember } from "./helpers/team-member";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const prefix = `xaa-${randomBytes(4).toString("hex")}`;
const CLIENT_SECRET = `xaa-secret-${randomBytes(8).toString("hex")}`;
let seeded: SeededDatabase;
let redis: Redis;
let memberId: string;
let setup: CrossAppSetup;
let mcpUrl: string;
const closers: (() => Promise<unknown>)[] = [];

const admin = () =>
  dashboardCaller({ db: seeded.db, keyring, redis, prefix, egress }, seeded.adminId);

let connectors: ReturnType<typeof createWorkerConnectors>;
const open = (starterId: string | null, scrubber = new Scrubber()) =>
  openTestStep(
    { db: seeded.db, keyring, connectors, teamId: seeded.teamId },
    { slug: "crm", starterId, scrubber },
  );

const definition = (overrides: Record<string, unknown> = {}) => ({
  id: "crm",
  name: "CRM",
  transport: "http" as const,
  url: mcpUrl,
  auth: "enterprise" as const,
  credential_mode: "member" as const,
  idp_issuer: setup.idpIssuer,
  idp_client_id: "switchyard-at-idp",
  oauth_client_id: "switchyard-at-crm",
  ...overrides,
});

beforeAll(async () => {
  seeded = await openSeededDatabase();
  redis = new Redis(process.env.REDIS_URL!);
  memberId = await addMember(seeded.db, seeded.teamId, {
    email: "m@test.local",
    name: "M",
    role: "member",
  });
  setup = await startCrossAppAccess({
    idpClientId: "switchyard-at-idp",
    clientId: "switchyard-at-crm",
    clientSecret: CLIENT_SECRET,
  });
  closers.push(() => setup.close());
  const mcp = await startProtectedMcpServer({ authorizationServer: setup.authority });
  closers.push(() => mcp.close());
  mcpUrl = mcp.url;
  connectors = createWorkerConnectors({
    allowAnyCommand: () => Promise.resolve(false),
    oauthFetch: loopbackEgressFetch(),
    httpFetch: loopbackEgressFetch("connector"),
  });
  closers.push(() => connectors.pool.close());
}, 120_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  redis?.disconnect();
  await seeded?.close();
});

describe("enterprise connectors (cross-app access)", () => {
  it("refuses a definition without the IdP, the clients or member accounts, naming the field", async () => {
    for (const [field, overrides] of [
      ["idp_issuer", { idp_issuer: undefined }],
      ["idp_client_id", { idp_client_id: undefined }],
      ["oauth_client_id", { oauth_client_id: undefined }],
      ["credential_mode", { credential_mode: "team" }],
    ] as const)
      await expect(
        admin().connectors.create({ definition: definition(overrides) }),
      ).rejects.toMatchObject({
        cause: { code: "USER.CONNECTOR.INVALID", location: { path: field } },
      });
    await expect(
      admin().connectors.create({
        definition: { ...definition(), auth: "oauth", credential_mode: "team" },
      }),
    ).rejects.toMatchObject({
      cause: { code: "USER.CONNECTOR.INVALID", location: { path: "idp_issuer" } },
    });
  });

  it("refuses a member who never signed in through the IdP, before anything is asked of it", async () => {
    await admin().connectors.create({ definition: definition() });
    await admin().connectors.setClientSecret({ id: "crm", secret: CLIENT_SECRET });
    await expect(open(memberId)).rejects.toMatchObject({
      code: "USER.CONNECTOR.NO_SSO_IDENTITY",
    });
    await expect(open(null)).rejects.toMatchObject({ code: "USER.CONNECTOR.NO_SSO_IDENTITY" });
    expect(setup.exchanges).toEqual([]);
  });

  it("grants the member's access from their sign-in through the IdP, with no browser and nothing in the clear", async () => {
    const idToken = await setup.idToken("member-7");
    await signInThroughIssuer({ db: seeded.db, keyring }, memberId, {
      issuer: setup.idpIssuer,
      idToken,
    });
    const scrubber = new Scrubber();
    const step = (await open(memberId, scrubber))!;
    const result = await step.host.callTool("crm", "whoami", {});
    // The server saw the member's identity at the IdP, through the token it issued.
    expect(result.content).toEqual([{ type: "text", text: "member-7" }]);
    expect(setup.exchanges).toEqual([
      { subject: "member-7", audience: setup.authority.issuer, resource: mcpUrl },
    ]);
    expect(setup.grants).toEqual([{ subject: "member-7", clientId: "switchyard-at-crm" }]);
    await step.host.close();

    const [accessToken] = setup.accessTokens();
    for (const secret of [idToken, accessToken!, CLIENT_SECRET])
      expect(scrubber.scrub(`x ${secret} x`)).not.toContain(secret);
    const rows = await everyRow(seeded.db);
    for (const secret of [idToken, accessToken!, CLIENT_SECRET]) expect(rows).not.toContain(secret);

    const audit = await seeded.db.auditLog.findMany({
      where: { teamId: seeded.teamId, action: "connector.credential.use", targetId: "crm" },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.metadata).toMatchObject({ owner: "member", grantedBy: setup.idpIssuer });
    // The sign-in is the member's in their teams only.
    expect(
      await ssoIdTokenOf(seeded.db, {
        teamId: "another-team",
        userId: memberId,
        issuer: setup.idpIssuer,
      }),
    ).toBeUndefined();
  });

  it("refuses with IDP_REFUSED when the IdP will not grant the member access, without its text", async () => {
    setup.refused.add("member-7");
    try {
      const refusal = await open(memberId).catch((e: unknown) => e);
      expect(refusal).toMatchObject({ code: "USER.CONNECTOR.IDP_REFUSED" });
      expect((refusal as Error).message).toContain("access_denied");
      expect((refusal as Error).message).not.toContain("secret-ish");
    } finally {
      setup.refused.delete("member-7");
    }
  });

  it("sends the client secret only to the authorization server pinned when it was set", async () => {
    const other = await startMetadataOnlyAuthorizationServer({
      grant_types_supported: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
    });
    closers.push(() => other.close());
    let named: ResourceAuthority = setup.authority;
    const moved = await startProtectedMcpServer({
      authorizationServer: {
        get issuer() {
          return named.issuer;
        },
        verifyAccessToken: (token, resource) => named.verifyAccessToken(token, resource),
        addResource: (resource, scope) => setup.authority.addResource?.(resource, scope),
      },
    });
    closers.push(() => moved.close());
    await admin().connectors.create({ definition: definition({ id: "crm_pin", url: moved.url }) });
    await admin().connectors.setClientSecret({ id: "crm_pin", secret: CLIENT_SECRET });
    await signInThroughIssuer({ db: seeded.db, keyring }, memberId, {
      issuer: setup.idpIssuer,
      idToken: await setup.idToken("member-7"),
    });
    const exchanged = setup.exchanges.length;
    named = other;
    const refusal = await openTestStep(
      { db: seeded.db, keyring, connectors, teamId: seeded.teamId },
      { slug: "crm_pin", starterId: memberId, scrubber: new Scrubber() },
    ).catch((e: unknown) => e);
    expect(refusal).toMatchObject({
      code: "USER.CONNECTOR.NEEDS_RECONNECT",
      details: { reason: "destination_changed" },
    });
    expect((refusal as Error).message).toContain(other.issuer);
    expect((refusal as Error).message).not.toContain(CLIENT_SECRET);
    // Nothing was asked of the IdP or sent anywhere.
    expect(setup.exchanges).toHaveLength(exchanged);
    const action = "connector.client_secret.destination_changed";
    const entries = await seeded.db.auditLog.findMany({ where: { action, targetId: "crm_pin" } });
    expect(entries.map((e) => [e.teamId, e.actorUserId, e.metadata])).toEqual([
      [
        seeded.teamId,
        memberId,
        expect.objectContaining({
          pinnedIssuer: setup.authority.issuer,
          discoveredIssuer: other.issuer,
        }),
      ],
    ]);
  });

  it("asks the IdP and the authorization server once for a wider scope when a call needs one, and calls again", async () => {
    const scoped = await startProtectedMcpServer({
      authorizationServer: setup.authority,
      toolScopes: { echo: "crm:write" },
    });
    closers.push(() => scoped.close());
    await admin().connectors.create({
      definition: definition({ id: "crm_scope", url: scoped.url }),
    });
    await admin().connectors.setClientSecret({ id: "crm_scope", secret: CLIENT_SECRET });
    await signInThroughIssuer({ db: seeded.db, keyring }, memberId, {
      issuer: setup.idpIssuer,
      idToken: await setup.idToken("member-7"),
    });
    const before = setup.grants.length;
    const step = (await openTestStep(
      { db: seeded.db, keyring, connectors, teamId: seeded.teamId },
      { slug: "crm_scope", starterId: memberId, scrubber: new Scrubber() },
    ))!;
    const call = await step.host.callTool("crm_scope", "echo", { text: "wider" });
    await step.host.close();
    expect(call.isError ?? false, JSON.stringify(call)).toBe(false);
    expect(JSON.stringify(call)).toContain("wider");
    // The step's first grant, then one with the union of scopes.
    expect(setup.grants.length - before).toBe(2);
  });

  it("refuses a member whose kept sign-in has expired", async () => {
    await signInThroughIssuer({ db: seeded.db, keyring }, memberId, {
      issuer: setup.idpIssuer,
      idToken: await setup.idToken("member-7", "-1m"),
    });
    const refusal = await open(memberId).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: "USER.CONNECTOR.NO_SSO_IDENTITY" });
    expect((refusal as Error).message).toContain("expired");
  });
});
