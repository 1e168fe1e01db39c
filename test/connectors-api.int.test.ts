/**
 * The team's connectors through the dashboard's procedures and the REST API: the curated
 * catalog listed beside the team's own; admins add, change and remove connectors (a value
 * that looks like a secret refused where it was written, lanes the team has, at most 64);
 * members may not; a credential is write-only (team's by admins, each member's own by that
 * member), shown by kind, fingerprint, who and when, sealed for its connector and owner, and
 * every change is an audit entry without the value. A workflow naming a connector its lane
 * may not reach is refused at save and at start.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringOf, openConnectorCredential, parseMasterKey } from "@switchyard/core/crypto";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { CONNECTOR_CALL_QUEUE } from "@switchyard/core/runs";
import {
  connectorCredentialForUse,
  createApiToken,
  createConnector,
  type Db,
} from "@switchyard/db";
import { listConnectorsResponse } from "~/server/contract/connectors.types";
import { handleRest } from "~/server/rest/rest-api";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const TEAM_KEY = "lin_api_TeamKey_7d2f9a41c6b3e805";
const OWN_KEY = "lin_api_OwnKey_3c8e1f7a92d4b610";
let seeded: SeededDatabase;
let db: Db;
let memberId: string;
const caller = (userId: string) => dashboardCaller({ db, keyring }, userId);
const dump = async () =>
  JSON.stringify(
    await Promise.all([
      db.connector.findMany(),
      db.connectorCredential.findMany(),
      db.credential.findMany(),
      db.auditLog.findMany(),
    ]),
    (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v),
  );

const LOCAL = {
  id: "files",
  name: "Files",
  transport: "stdio",
  command: "node",
  args: ["/opt/connectors/server.js"],
  credential_env: "FILES_TOKEN",
};

beforeAll(async () => {
  seeded = await openSeededDatabase();
  db = seeded.db;
  const member = await db.user.create({ data: { email: "member@test.local", name: "Member" } });
  await db.membership.create({
    data: { teamId: seeded.teamId, userId: member.id, role: "member" },
  });
  memberId = member.id;
});
afterAll(async () => {
  await seeded?.close();
});

describe("connectors through the dashboard's procedures", () => {
  it("lists the curated catalog, not set up, beside nothing of the team's", async () => {
    const list = await caller(memberId).connectors.list();
    expect(listConnectorsResponse.parse({ connectors: list }).connectors).toHaveLength(list.length);
    const linear = list.find((c) => c.id === "linear")!;
    expect(linear).toMatchObject({
      source: "curated",
      needsCredential: true,
      teamCredential: null,
      docsUrl: "https://linear.app/docs/mcp",
    });
    expect(linear.definition).toMatchObject({
      transport: "http",
      url: "https://mcp.linear.app/mcp",
      enabled: false,
      lanes: ["*"],
    });
  });

  it("lets admins add a stdio connector, open to operator unless told, and refuses members and bad definitions where they are", async () => {
    await expect(caller(memberId).connectors.create({ definition: LOCAL })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const created = await caller(seeded.adminId).connectors.create({ definition: LOCAL });
    expect(created).toMatchObject({
      id: "files",
      source: "team",
      needsCredential: true,
      teamCredential: null,
    });
    expect(created.definition).toMatchObject({
      lanes: ["operator"],
      credential_mode: "team",
      enabled: true,
      args: ["/opt/connectors/server.js"],
    });

    const secretInArgs = caller(seeded.adminId).connectors.create({
      definition: {
        ...LOCAL,
        id: "leaky",
        args: ["--token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"],
      },
    });
    await expect(secretInArgs).rejects.toMatchObject({
      cause: { code: "USER.CONNECTOR.SECRET_IN_FIELD", location: { path: "args[1]" } },
    });
    const badLane = caller(seeded.adminId).connectors.create({
      definition: { ...LOCAL, id: "nolane", lanes: ["ghost"] },
    });
    await expect(badLane).rejects.toMatchObject({
      cause: { code: "USER.CONNECTOR.INVALID", location: { path: "lanes[0]" } },
    });
    const badId = caller(seeded.adminId).connectors.create({
      definition: { ...LOCAL, id: "Bad-Id" },
    });
    await expect(badId).rejects.toMatchObject({
      cause: { code: "USER.CONNECTOR.INVALID", location: { path: "id" } },
    });
    await expect(
      caller(seeded.adminId).connectors.create({ definition: LOCAL }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await dump()).not.toContain("ghp_abcdefghij");
  });

  it("refuses a stdio command from outside the connectors folder, or an environment that chooses code, at its field, storing nothing", async () => {
    const before = await dump();
    for (const [definition, path] of [
      [
        { ...LOCAL, id: "inline", args: ["-e", "require('child_process').execSync('id')"] },
        "command",
      ],
      [
        {
          ...LOCAL,
          id: "curl",
          command: "/usr/bin/curl",
          args: ["http://169.254.169.254/latest/meta-data/"],
        },
        "command",
      ],
      [{ ...LOCAL, id: "fetched", command: "npx", args: ["-y", "some-mcp-server"] }, "command"],
      [
        {
          ...LOCAL,
          id: "preload",
          env: { NODE_OPTIONS: "--import=data:text/javascript,process.exit(3)" },
        },
        "env.NODE_OPTIONS",
      ],
    ] as const) {
      await expect(
        caller(seeded.adminId).connectors.create({ definition }),
        definition.id,
      ).rejects.toMatchObject({
        cause: { code: "USER.CONNECTOR.COMMAND_NOT_ALLOWED", location: { path } },
      });
    }
    // Nor may an admin turn an allowed one into one.
    await expect(
      caller(seeded.adminId).connectors.update({
        id: "files",
        definition: { ...LOCAL, command: "/bin/sh", args: ["-c", "id"] },
      }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
      cause: { code: "USER.CONNECTOR.COMMAND_NOT_ALLOWED", location: { path: "command" } },
    });
    expect(await dump()).toBe(before);
  });

  it("keeps a credential write-only: sealed for its connector and owner, shown by fingerprint, audited without the value", async () => {
    await expect(
      caller(memberId).connectors.setCredential({ id: "files", scope: "team", value: TEAM_KEY }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const shown = await caller(seeded.adminId).connectors.setCredential({
      id: "files",
      scope: "team",
      value: TEAM_KEY,
    });
    expect(shown).toMatchObject({
      kind: "api_key",
      status: "active",
      setBy: seeded.adminId,
      fingerprint: expect.stringMatching(/^[0-9a-f]{12}$/) as string,
    });
    const listed = (await caller(memberId).connectors.list()).find((c) => c.id === "files")!;
    expect(listed.teamCredential).toEqual(shown);
    expect(JSON.stringify(listed)).not.toContain(TEAM_KEY);

    const stored = await connectorCredentialForUse(db, {
      teamId: seeded.teamId,
      slug: "files",
      owner: "team",
    });
    const owner = {
      teamId: seeded.teamId,
      credentialId: stored!.sealed.credentialId,
      connector: "files",
      owner: "team",
    };
    expect(openConnectorCredential(keyring, owner, stored!.sealed.envelope)).toBe(TEAM_KEY);
    expect(() =>
      openConnectorCredential(keyring, { ...owner, owner: memberId }, stored!.sealed.envelope),
    ).toThrow();

    const actions = (
      await db.auditLog.findMany({
        where: { teamId: seeded.teamId, targetType: "connector" },
        orderBy: { createdAt: "asc" },
      })
    ).map((a) => a.action);
    expect(actions).toEqual(["connector.create", "connector.credential.set"]);
    expect(await dump()).not.toContain(TEAM_KEY);
  });

  it("lets each member connect their own account where a connector uses each member's", async () => {
    await caller(seeded.adminId).connectors.update({
      id: "files",
      definition: { ...LOCAL, credential_mode: "member", lanes: ["*"] },
    });
    await expect(
      caller(memberId).connectors.setCredential({ id: "files", scope: "team", value: OWN_KEY }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await caller(memberId).connectors.setCredential({
      id: "files",
      scope: "member",
      value: OWN_KEY,
    });
    const forMember = (await caller(memberId).connectors.list()).find((c) => c.id === "files")!;
    const forAdmin = (await caller(seeded.adminId).connectors.list()).find(
      (c) => c.id === "files",
    )!;
    expect(forMember.myCredential).toMatchObject({ setBy: memberId });
    expect(forAdmin.myCredential).toBeNull();
    expect(forAdmin.memberCredentials).toBe(1);
    await caller(memberId).connectors.revokeCredential({ id: "files", scope: "member" });
    expect(
      (await caller(memberId).connectors.list()).find((c) => c.id === "files")!.myCredential,
    ).toBeNull();
    expect(await dump()).not.toContain(OWN_KEY);
  });

  it("refuses a workflow naming a connector its lane may not reach, at save", async () => {
    await caller(seeded.adminId).connectors.update({
      id: "files",
      definition: { ...LOCAL, lanes: ["operator"] },
    });
    const workflow = (id: string) =>
      `name: uses-${id}\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: claude\n    prompt: hi\n    mcp_proxy:\n      connectors: [${id}]\n    on_success: done\n  done:\n    type: terminal\n    status: success\n`;
    const denied = await caller(memberId).workflows.validate({
      entry: "workflow.yaml",
      files: { "workflow.yaml": workflow("files") },
    });
    expect(denied.errors.map((e) => [e.code, e.path])).toEqual([
      ["USER.MCP_PROXY.LANE_DENIED", "states.a.mcp_proxy.connectors"],
    ]);
    const unknown = await caller(memberId).workflows.validate({
      entry: "workflow.yaml",
      files: { "workflow.yaml": workflow("ghost") },
    });
    expect(unknown.errors.map((e) => e.code)).toEqual(["USER.MCP_PROXY.UNKNOWN_CONNECTOR"]);
  });
});

describe("a curated connector set up again", () => {
  it("keeps its credential for choices that do not move it, and asks for a reconnect when its URL moved or moves back", async () => {
    await caller(seeded.adminId).connectors.setUp({ id: "linear", choice: { auth: "bearer" } });
    await caller(seeded.adminId).connectors.setCredential({
      id: "linear",
      scope: "team",
      value: TEAM_KEY,
    });
    const teamCredential = async () =>
      (await caller(seeded.adminId).connectors.list()).find((c) => c.id === "linear")!
        .teamCredential;
    await caller(seeded.adminId).connectors.setUp({
      id: "linear",
      choice: { auth: "oauth", lanes: ["operator"] },
    });
    expect(await teamCredential()).toMatchObject({ status: "active", reconnectReason: null });

    const linear = (await caller(seeded.adminId).connectors.list()).find((c) => c.id === "linear")!;
    await caller(seeded.adminId).connectors.update({
      id: "linear",
      definition: { ...linear.definition, url: "https://linear.attacker.example/mcp" },
    });
    expect(await teamCredential()).toMatchObject({
      status: "needs_reconnect",
      reconnectReason: "destination_changed",
    });
    await caller(seeded.adminId).connectors.setCredential({
      id: "linear",
      scope: "team",
      value: OWN_KEY,
    });
    // Set up again, its URL is the catalog's once more: another destination than the key was given for.
    await caller(seeded.adminId).connectors.setUp({ id: "linear", choice: { auth: "bearer" } });
    expect(await teamCredential()).toMatchObject({
      status: "needs_reconnect",
      reconnectReason: "destination_changed",
    });
    const audit = await db.auditLog.findFirstOrThrow({
      where: { teamId: seeded.teamId, action: "connector.update", targetId: "linear" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit.metadata).toMatchObject({
      curated: true,
      destinationChanged: "url",
      credentialsToReconnect: 1,
    });
    await caller(seeded.adminId).connectors.remove({ id: "linear" });
  });
});

describe("the console", () => {
  it("checks the connector is the caller's team's, enabled, open to the lane and connected before it audits or queues anything", async () => {
    const redis = new Redis(process.env.REDIS_URL!);
    const prefix = `console-${randomBytes(4).toString("hex")}`;
    const queue = new Queue(CONNECTOR_CALL_QUEUE, {
      connection: redis.duplicate({ maxRetriesPerRequest: null }),
      prefix,
    });
    const { token } = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: seeded.adminId,
      name: "console",
    });
    const rest = (id: string, body: unknown) =>
      handleRest(
        {
          db,
          queue: () => {
            throw new Error("no queue");
          },
          prefix,
          publish: () => Promise.resolve(0),
          keyring: () => keyring,
          redis: () => redis,
        },
        new Request(`http://localhost/api/v1/connectors/${id}/call`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        }),
        `/connectors/${id}/call`,
      );
    try {
      // Another team's connector, by its id.
      const other = await db.team.create({ data: { slug: "console-other", name: "Other" } });
      await createConnector(db, {
        teamId: other.id,
        slug: "theirs",
        createdById: seeded.adminId,
        max: 64,
        name: "Theirs",
        description: "",
        transport: "stdio",
        config: { command: "/opt/connectors/server" },
        lanes: ["*"],
        credentialMode: "team",
        initialTools: [],
        toolAllow: {},
        enabled: true,
        curatedKey: null,
      });
      await caller(seeded.adminId).connectors.create({
        definition: { ...LOCAL, id: "shut", enabled: false, credential_env: undefined },
      });
      await caller(seeded.adminId).connectors.create({ definition: { ...LOCAL, id: "unset" } });
      await caller(seeded.adminId).connectors.create({
        definition: { ...LOCAL, id: "review_only", lanes: ["default"], credential_env: undefined },
      });
      const audited = () => db.auditLog.count({ where: { action: "connector.console.call" } });
      const before = await audited();
      const admin = (id: string, lane?: string) =>
        dashboardCaller({ db, keyring, redis, prefix }, seeded.adminId).connectors.callTool({
          id,
          tool: "echo",
          arguments: {},
          ...(lane ? { lane } : {}),
        });
      await expect(admin("theirs")).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(admin("ghost")).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(admin("shut")).rejects.toMatchObject({
        cause: { code: "USER.MCP_PROXY.UNKNOWN_CONNECTOR" },
      });
      await expect(admin("review_only")).rejects.toMatchObject({
        cause: { code: "USER.MCP_PROXY.LANE_DENIED" },
      });
      await expect(admin("unset")).rejects.toMatchObject({
        cause: { code: "USER.CONNECTOR.NOT_CONNECTED" },
      });
      const answered = await rest("theirs", { tool: "echo", arguments: {} });
      expect(answered.status).toBe(404);
      expect(await audited()).toBe(before);
      expect(await queue.getJobCounts()).toMatchObject({
        waiting: 0,
        active: 0,
        delayed: 0,
        completed: 0,
        failed: 0,
      });
      // Nothing but what this test's own queue handle wrote.
      expect((await redis.keys(`${prefix}:*`)).filter((k) => !k.endsWith(":meta"))).toEqual([]);
    } finally {
      await queue.close();
      redis.disconnect();
    }
  }, 120_000);
});

describe("connectors through the REST API", () => {
  it("answers the same operations with the same contract, and errors as {code, message, location}", async () => {
    const { token } = await createApiToken(db, {
      teamId: seeded.teamId,
      userId: seeded.adminId,
      name: "ci",
    });
    const rest = async (method: string, path: string, body?: unknown, requestId?: string) => {
      const res = await handleRest(
        {
          db,
          queue: () => {
            throw new Error("no queue");
          },
          prefix: "t",
          publish: () => Promise.resolve(0),
          keyring: () => keyring,
        },
        new Request(`http://localhost/api/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            ...(requestId ? { "x-request-id": requestId } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        }),
        path,
      );
      return {
        status: res.status,
        requestId: res.headers.get("x-request-id"),
        body: (await res.json()) as Record<string, unknown>,
      };
    };
    const created = await rest(
      "POST",
      "/connectors",
      {
        definition: {
          id: "remote",
          name: "Remote",
          transport: "http",
          url: "https://mcp.example.com/mcp",
          auth: "bearer",
        },
      },
      "ci-run-42",
    );
    expect(created).toMatchObject({ status: 201, requestId: "ci-run-42" });
    // The audit entry names the request that made the change; a request without an id gets one.
    const entry = await db.auditLog.findFirstOrThrow({
      where: { teamId: seeded.teamId, action: "connector.create", targetId: "remote" },
    });
    expect(entry).toMatchObject({ actorUserId: seeded.adminId, requestId: "ci-run-42" });
    expect((await rest("GET", "/connectors")).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      (await rest("PUT", "/connectors/remote/credential", { scope: "team", value: TEAM_KEY })).body,
    ).toMatchObject({ kind: "api_key" });
    const list = await rest("GET", "/connectors");
    expect(
      listConnectorsResponse.parse(list.body).connectors.find((c) => c.id === "remote")
        ?.teamCredential?.kind,
    ).toBe("api_key");
    const refused = await rest("POST", "/connectors", {
      definition: {
        id: "plain",
        name: "Plain",
        transport: "http",
        url: "http://mcp.example.com/mcp",
        auth: "none",
      },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { code: "USER.EGRESS.DENIED", location: { path: "url" } } },
    });
    // Where it points is checked when it is saved: an internal address is refused there already.
    const internal = await rest("POST", "/connectors", {
      definition: {
        id: "metadata",
        name: "Metadata",
        transport: "http",
        url: "https://169.254.169.254/mcp",
        auth: "none",
      },
    });
    expect(internal).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "USER.EGRESS.DENIED",
          location: { path: "url" },
          details: { reason: "link-local" },
        },
      },
    });
    expect((await rest("DELETE", "/connectors/remote")).status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(TEAM_KEY);
  });
});
