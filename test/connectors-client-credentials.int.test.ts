/**
 * Machine-to-machine connectors (`auth: client_credentials`) against a real authorization
 * server that grants only client credentials and a real protected MCP server on 127.0.0.1:
 * an admin stores the client's secret or private key as the team credential (a key that is
 * no PEM key Switchyard can sign with is refused at save), and the worker obtains a token by
 * itself (secret by HTTP Basic or in the body as the server lists, or a signed assertion with
 * aud the issuer), with the resource and the scope of the resource's metadata, keeps it for
 * later calls, and asks for a new one once when the server refuses it. A refusal at the
 * token endpoint fails the call with USER.CONNECTOR.TOKEN_REFUSED and marks the credential;
 * moving the connector drops it. Neither the secret, the key nor a token is in any row, audit
 * entry or answer.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { discoverOAuthServer, requestClientCredentialsToken } from "@switchyard/core/connectors";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { Scrubber } from "@switchyard/core/secrets";
import { LOOPBACK_EGRESS_ALLOW, loopbackEgressFetch } from "@switchyard/testing/egress";
import {
  startClientCredentialsServer,
  startProtectedMcpServer,
  type ClientCredentialsServer,
  type ClientCredentialsServerOptions,
} from "@switchyard/testing/oauth";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { everyRow } from "./helpers/every-row";
import { startConnectorWorker } from "./helpers/worker-step-connectors";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
const prefix = `cc-${randomBytes(4).toString("hex")}`;
let seeded: SeededDatabase;
let redis: Redis;
const closers: (() => Promise<unknown>)[] = [];

const admin = () =>
  dashboardCaller({ db: seeded.db, keyring, redis, prefix, egress }, seeded.adminId);

/** An authorization server granting client credentials, its protected MCP server, and connector `id` for it. */
const machineConnector = async (
  id: string,
  server: ClientCredentialsServerOptions,
  clientAuth?: "client_secret" | "private_key_jwt",
) => {
  const authority = await startClientCredentialsServer(server);
  const mcp = await startProtectedMcpServer({
    authorizationServer: authority,
    scopes: ["reports:read"],
  });
  closers.push(
    () => mcp.close(),
    () => authority.close(),
  );
  const definition = { id, name: id, transport: "http", url: mcp.url };
  const machine = { auth: "client_credentials", oauth_client_id: server.clientId };
  await admin().connectors.create({
    definition: { ...definition, ...machine, ...(clientAuth && { oauth_client_auth: clientAuth }) },
  });
  return { authority, mcp };
};

/** A worker of its own opening connector `slug` for one step; the step and its scrubber. */
const startWorker = () => {
  const open = startConnectorWorker(seeded, keyring, closers);
  return async (slug: string) => {
    const scrubber = new Scrubber();
    return { step: (await open(slug, scrubber))!, scrubber };
  };
};

const text = (value: unknown) => JSON.stringify(value);

beforeAll(async () => {
  seeded = await openSeededDatabase();
  redis = new Redis(process.env.REDIS_URL!);
}, 120_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  redis?.disconnect();
  await seeded?.close();
});

describe("a connector with a client secret", () => {
  for (const method of ["client_secret_basic", "client_secret_post"] as const) {
    it(`obtains a token by ${method} as the server lists it, keeps it, and asks again once when it is refused`, async () => {
      const id = method.replace("client_secret_", "cc_");
      const secret = `cs-${randomBytes(16).toString("hex")}`;
      const { authority, mcp } = await machineConnector(id, {
        clientId: "reporting-bot",
        clientSecret: secret,
        authMethods: [method],
      });
      const shown = await admin().connectors.setCredential({ id, scope: "team", value: secret });
      expect(text(shown)).not.toContain(secret);
      const open = startWorker();

      const { step, scrubber } = await open(id);
      const first = await step.host.callTool(id, "whoami", {});
      expect(first.isError ?? false, text(first)).toBe(false);
      expect(text(first)).toContain("reporting-bot");
      // No person signed in anywhere: one client_credentials request, with the secret as the server takes it.
      expect(authority.requests).toEqual([
        {
          grantType: "client_credentials",
          method,
          scope: "reports:read",
          resource: mcp.url,
          outcome: "token",
        },
      ]);
      // The token is kept for the next call and the next step of this worker.
      await step.host.callTool(id, "echo", { text: "again" });
      await step.host.close();
      const next = await open(id);
      expect((await next.step.host.callTool(id, "whoami", {})).isError ?? false).toBe(false);
      expect(authority.requests).toHaveLength(1);
      // The step's scrubber knows the token the worker obtained, and the secret.
      expect(scrubber.scrub(`${authority.issued[0]} ${secret}`)).not.toMatch(/cc-|cs-/);

      // Refused before its expiry (revoked at the server): one new token, and the call goes through.
      authority.revoke(authority.issued[0]!);
      const after = await next.step.host.callTool(id, "whoami", {});
      expect(after.isError ?? false, text(after)).toBe(false);
      expect(authority.requests).toHaveLength(2);
      await next.step.host.close();

      const rows = await everyRow(seeded.db);
      for (const value of [secret, ...authority.issued]) expect(rows).not.toContain(value);
      const listing = (await admin().connectors.list()).find((c) => c.id === id);
      expect(listing?.teamCredential).toMatchObject({ status: "active" });
      expect(text(listing)).not.toContain(secret);
    }, 120_000);
  }

  it("is refused at the token endpoint with TOKEN_REFUSED, and the credential is marked for an admin to set again", async () => {
    const { authority, mcp } = await machineConnector("cc_wrong", {
      clientId: "reporting-bot",
      clientSecret: "the-right-secret",
    });
    // What the worker raises when the token endpoint refuses: the OAuth code, not the server's words.
    const server = await discoverOAuthServer(mcp.url, {
      fetch: loopbackEgressFetch(),
      grant: "client_credentials",
    });
    const refused = await requestClientCredentialsToken({
      server,
      credentials: { clientId: "reporting-bot", method: "client_secret", secret: "not-the-secret" },
      fetch: loopbackEgressFetch(),
      connectorName: "cc_wrong",
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: "USER.CONNECTOR.TOKEN_REFUSED",
      message: expect.stringContaining("invalid_client") as string,
    });
    expect(text(refused)).not.toContain("not-the-secret");
    expect(text(refused)).not.toContain("refused: invalid_client");

    await admin().connectors.setCredential({
      id: "cc_wrong",
      scope: "team",
      value: "a-wrong-secret-value",
    });
    const { step } = await startWorker()("cc_wrong");
    const call = await step.host.callTool("cc_wrong", "whoami", {}).catch((e: unknown) => e);
    expect(text(call)).toMatch(/USER\.CONNECTOR\.(TOKEN_REFUSED|NEEDS_RECONNECT)/);
    expect(text(call)).not.toContain("a-wrong-secret-value");
    expect(authority.requests.map((r) => r.outcome)).toEqual(["invalid_client", "invalid_client"]);
    await step.host.close();
    const listing = (await admin().connectors.list()).find((c) => c.id === "cc_wrong");
    expect(listing?.teamCredential).toMatchObject({
      status: "needs_reconnect",
      reconnectReason: "refresh_refused",
    });
    // The next step is refused before anything is sent; setting the secret again mends it.
    await expect(startWorker()("cc_wrong")).rejects.toMatchObject({
      code: "USER.CONNECTOR.NEEDS_RECONNECT",
    });
    expect(authority.requests).toHaveLength(2);
    await admin().connectors.setCredential({
      id: "cc_wrong",
      scope: "team",
      value: "the-right-secret",
    });
    const mended = await startWorker()("cc_wrong");
    expect((await mended.step.host.callTool("cc_wrong", "whoami", {})).isError ?? false).toBe(
      false,
    );
    await mended.step.host.close();
  }, 120_000);

  it("drops the secret when the connector is moved or given another client", async () => {
    const { mcp } = await machineConnector("cc_moved", {
      clientId: "reporting-bot",
      clientSecret: "moved-secret-value",
    });
    await admin().connectors.setCredential({
      id: "cc_moved",
      scope: "team",
      value: "moved-secret-value",
    });
    const definition = {
      name: "cc_moved",
      transport: "http",
      url: mcp.url,
      auth: "client_credentials",
      oauth_client_id: "another-bot",
    };
    const changed = await admin().connectors.update({ id: "cc_moved", definition });
    expect(changed.teamCredential).toBeNull();
    const audit = await seeded.db.auditLog.findFirst({
      where: { teamId: seeded.teamId, action: "connector.update", targetId: "cc_moved" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit?.metadata).toMatchObject({ clientCredentialsDropped: 1 });
    expect(await everyRow(seeded.db)).not.toContain("moved-secret-value");
  }, 120_000);
});

describe("where the secret goes", () => {
  it("sends it only to the authorization server pinned when it was set: one the resource names later is refused, the credential marked and audited", async () => {
    const secret = `pin-${randomBytes(16).toString("hex")}`;
    const client = { clientId: "reporting-bot", clientSecret: secret };
    const pinned = await startClientCredentialsServer(client);
    // Another server that would take the same secret: it must never see it.
    const other = await startClientCredentialsServer(client);
    let named: ClientCredentialsServer = pinned;
    const mcp = await startProtectedMcpServer({
      authorizationServer: {
        get issuer() {
          return named.issuer;
        },
        verifyAccessToken: (token, resource) => named.verifyAccessToken(token, resource),
        addResource: (resource, scope) => {
          pinned.addResource?.(resource, scope);
          other.addResource?.(resource, scope);
        },
      },
      scopes: ["reports:read"],
    });
    closers.push(
      () => mcp.close(),
      () => pinned.close(),
      () => other.close(),
    );
    await admin().connectors.create({
      definition: {
        id: "cc_pinned",
        name: "cc_pinned",
        transport: "http",
        url: mcp.url,
        auth: "client_credentials",
        oauth_client_id: "reporting-bot",
      },
    });
    await admin().connectors.setCredential({ id: "cc_pinned", scope: "team", value: secret });
    // The resource server now names another authorization server (changed at the resource, or a worker that starts afresh).
    named = other;
    const { step, scrubber } = await startWorker()("cc_pinned");
    const call = await step.host.callTool("cc_pinned", "whoami", {}).catch((e: unknown) => e);
    await step.host.close();
    expect(text(call)).toContain("USER.CONNECTOR.NEEDS_RECONNECT");
    expect(text(call)).toContain("authorization server");
    expect(text(call)).not.toContain(secret);
    expect(other.requests).toEqual([]);
    expect(pinned.requests).toEqual([]);
    expect(scrubber.scrub(secret)).not.toContain(secret);

    const listing = (await admin().connectors.list()).find((c) => c.id === "cc_pinned");
    expect(listing?.teamCredential).toMatchObject({
      status: "needs_reconnect",
      reconnectReason: "destination_changed",
    });
    const audit = await seeded.db.auditLog.findFirst({
      where: {
        teamId: seeded.teamId,
        action: "connector.credential.destination_changed",
        targetId: "cc_pinned",
      },
    });
    expect(audit?.metadata).toMatchObject({
      pinnedIssuer: pinned.issuer,
      discoveredIssuer: other.issuer,
    });
    await expect(startWorker()("cc_pinned")).rejects.toMatchObject({
      code: "USER.CONNECTOR.NEEDS_RECONNECT",
    });
    expect(other.requests).toEqual([]);

    // An admin who sets the secret again pins the server the resource names now.
    await admin().connectors.setCredential({ id: "cc_pinned", scope: "team", value: secret });
    const mended = await startWorker()("cc_pinned");
    const ok = await mended.step.host.callTool("cc_pinned", "whoami", {});
    await mended.step.host.close();
    expect(ok.isError ?? false, text(ok)).toBe(false);
    expect(other.requests.map((r) => r.outcome)).toEqual(["token"]);
    expect(await everyRow(seeded.db)).not.toContain(secret);
  }, 120_000);
});

describe("a call its server refuses for want of scope (403 insufficient_scope)", () => {
  /** A machine connector whose server wants reports:write too for `echo`; the authorization server grants `grantable`. */
  const scoped = async (id: string, grantable?: string[]) => {
    const secret = `sc-${randomBytes(12).toString("hex")}`;
    const authority = await startClientCredentialsServer({
      clientId: "reporting-bot",
      clientSecret: secret,
      ...(grantable ? { grantable } : {}),
    });
    const mcp = await startProtectedMcpServer({
      authorizationServer: authority,
      scopes: ["reports:read"],
      toolScopes: { echo: "reports:write" },
    });
    closers.push(
      () => mcp.close(),
      () => authority.close(),
    );
    const definition = { id, name: id, transport: "http", url: mcp.url };
    await admin().connectors.create({
      definition: { ...definition, auth: "client_credentials", oauth_client_id: "reporting-bot" },
    });
    await admin().connectors.setCredential({ id, scope: "team", value: secret });
    return authority;
  };

  it("asks once for a token with the scope it had and the one asked for, and makes the call again", async () => {
    const authority = await scoped("cc_scope");
    const { step } = await startWorker()("cc_scope");
    const call = await step.host.callTool("cc_scope", "echo", { text: "widened" });
    expect(call.isError ?? false, text(call)).toBe(false);
    expect(text(call)).toContain("widened");
    expect(authority.requests.map((r) => r.scope)).toEqual([
      "reports:read",
      "reports:read reports:write",
    ]);
    // The wider token serves the next calls too.
    expect((await step.host.callTool("cc_scope", "echo", { text: "x" })).isError ?? false).toBe(
      false,
    );
    expect(authority.requests).toHaveLength(2);
    await step.host.close();
  }, 120_000);

  it("fails with SCOPE_REFUSED when the wider token still lacks it, asking only once", async () => {
    const authority = await scoped("cc_noscope", ["reports:read"]);
    const { step } = await startWorker()("cc_noscope");
    const call = await step.host
      .callTool("cc_noscope", "echo", { text: "x" })
      .catch((e: unknown) => e);
    expect(call).toMatchObject({
      code: "USER.CONNECTOR.SCOPE_REFUSED",
      details: { requiredScope: "reports:read reports:write" },
    });
    expect(authority.requests).toHaveLength(2);
    // Asked again later: refused without another token request.
    const again = await step.host
      .callTool("cc_noscope", "echo", { text: "x" })
      .catch((e: unknown) => e);
    expect(again).toMatchObject({ code: "USER.CONNECTOR.SCOPE_REFUSED" });
    expect(authority.requests).toHaveLength(2);
    // Other calls still work, and the credential is not marked.
    expect((await step.host.callTool("cc_noscope", "whoami", {})).isError ?? false).toBe(false);
    await step.host.close();
    const listing = (await admin().connectors.list()).find((c) => c.id === "cc_noscope");
    expect(listing?.teamCredential).toMatchObject({ status: "active" });
  }, 120_000);

  it("tells a bearer connector's caller that its token needs the scope, with NEEDS_MORE_ACCESS", async () => {
    const token = `bt-${randomBytes(12).toString("hex")}`;
    const mcp = await startProtectedMcpServer({
      authorizationServer: {
        issuer: "https://issuer.bearer.example",
        verifyAccessToken: (t) =>
          Promise.resolve(
            t === token ? { subject: "bot", clientId: "bot", scope: "reports:read" } : undefined,
          ),
      },
      scopes: ["reports:read"],
      toolScopes: { echo: "reports:write" },
    });
    closers.push(() => mcp.close());
    const bearer = { auth: "bearer", url: mcp.url, transport: "http" };
    await admin().connectors.create({ definition: { id: "bearer_scope", name: "b", ...bearer } });
    await admin().connectors.setCredential({ id: "bearer_scope", scope: "team", value: token });
    const { step } = await startWorker()("bearer_scope");
    expect((await step.host.callTool("bearer_scope", "whoami", {})).isError ?? false).toBe(false);
    const call = await step.host
      .callTool("bearer_scope", "echo", { text: "x" })
      .catch((e: unknown) => e);
    await step.host.close();
    expect(call).toMatchObject({
      code: "USER.CONNECTOR.NEEDS_MORE_ACCESS",
      details: { requiredScope: "reports:read reports:write" },
    });
    expect((call as Error).message).toContain("token");
    expect(text(call)).not.toContain(token);
  }, 120_000);
});

describe("a connector with a private key (private_key_jwt)", () => {
  it("signs an assertion the server verifies (iss and sub the client, aud the issuer) and gets a token", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    const { authority } = await machineConnector(
      "cc_jwt",
      {
        clientId: "signing-bot",
        publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
      },
      "private_key_jwt",
    );
    await admin().connectors.setCredential({ id: "cc_jwt", scope: "team", value: pem });
    const { step } = await startWorker()("cc_jwt");
    const call = await step.host.callTool("cc_jwt", "whoami", {});
    expect(call.isError ?? false, text(call)).toBe(false);
    expect(text(call)).toContain("signing-bot");
    expect(authority.requests).toHaveLength(1);
    expect(authority.requests[0]).toMatchObject({
      method: "private_key_jwt",
      outcome: "token",
      claims: { iss: "signing-bot", sub: "signing-bot", aud: authority.issuer },
    });
    await step.host.close();
    const body = pem.split("\n")[1]!;
    expect(await everyRow(seeded.db)).not.toContain(body);
  }, 120_000);

  it("refuses at save a key that is no PEM private key, or one it cannot sign with, naming the field", async () => {
    await machineConnector(
      "cc_badkey",
      { clientId: "signing-bot", publicKeyPem: undefined, clientSecret: "unused-secret" },
      "private_key_jwt",
    );
    const ed = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" });
    for (const value of ["not a key at all, just text", ed.toString()])
      await expect(
        admin().connectors.setCredential({ id: "cc_badkey", scope: "team", value }),
      ).rejects.toMatchObject({
        cause: { code: "USER.CONNECTOR.INVALID_KEY", location: { path: "value" } },
      });
    const listing = (await admin().connectors.list()).find((c) => c.id === "cc_badkey");
    expect(listing?.teamCredential).toBeNull();
  });

  it("refuses a private key given to a connector that signs in with a client secret", async () => {
    await machineConnector("cc_secretonly", { clientId: "bot", clientSecret: "s3cret-value" });
    const pem = generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ format: "pem", type: "pkcs8" })
      .toString();
    await expect(
      admin().connectors.setCredential({ id: "cc_secretonly", scope: "team", value: pem }),
    ).rejects.toMatchObject({
      cause: { code: "USER.INPUT.VALIDATION_FAILED", location: { path: "value" } },
    });
  });
});
