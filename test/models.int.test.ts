/**
 * The team's model access (Settings → Models): admins set each vendor's key (sealed,
 * write-only, shown by its last four characters) and endpoint, or openai_compatible's
 * allowed endpoints; members read it without keys; every change is audited with it; the
 * worker opens the key for a step of the team, and only that team's.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { checkBaseUrl } from "@switchyard/core/providers";
import { createDb, listModelAccess, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { teamModelAccess } from "../apps/worker/src/model-access";
import {
  listTeamModelAccess,
  removeTeamModelAccess,
  setTeamModelAccess,
  type ModelActor,
  type SetModelAccess,
} from "~/server/models/model-operations";
import { listModelsResponse } from "~/server/contract/models.types";
import { dashboardCaller } from "./helpers/dashboard-caller";

const KEY = "sk-ant-api03-Model-Key-7f3eQ9zW";
const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
let database: TestDatabase;
let db: Db;
let teamId: string;
let adminId: string;
let memberId: string;
let admin: ModelActor;
const caller = (userId: string) => dashboardCaller({ db, keyring }, userId);
/** Everything stored for the team's models, bytes as text, to search for a key. */
const dump = async () =>
  JSON.stringify(
    await Promise.all([
      db.modelAccess.findMany(),
      db.credential.findMany(),
      db.auditLog.findMany(),
    ]),
    (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v),
  );

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  teamId = seeded.team.id;
  adminId = seeded.admin.id;
  admin = { teamId, userId: adminId, role: "owner" };
  const member = await db.user.create({ data: { email: "member@test.local", name: "Member" } });
  await db.membership.create({ data: { teamId, userId: member.id, role: "member" } });
  memberId = member.id;
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe("setting a vendor's access", () => {
  it("stores an admin's key sealed and lists it as set with its last four characters, never the key or its envelope", async () => {
    expect(await caller(adminId).models.set({ vendor: "anthropic", apiKey: KEY })).toMatchObject({
      vendor: "anthropic",
      keySet: true,
      keyHint: "Q9zW",
    });
    const list = await caller(adminId).models.list();
    expect(listModelsResponse.parse({ models: list }).models).toEqual(list);
    expect(list.map((m) => m.vendor)).toEqual([
      "anthropic",
      "openai",
      "gemini",
      "openai_compatible",
    ]);
    expect(list[0]).toEqual({
      vendor: "anthropic",
      configured: true,
      keySet: true,
      keyHint: "Q9zW",
      endpoint: null,
      defaultEndpoint: "https://api.anthropic.com",
      allowedEndpoints: [],
      updatedAt: expect.any(String) as unknown,
    });
    expect(list[1]).toMatchObject({
      vendor: "openai",
      configured: false,
      keySet: false,
      keyHint: null,
      defaultEndpoint: "https://api.openai.com/v1",
    });

    const credential = await db.credential.findFirstOrThrow({
      where: { teamId, name: { startsWith: "model:anthropic:" } },
    });
    const listed = JSON.stringify([list, await listModelAccess(db, teamId)]);
    for (const secret of [
      KEY,
      credential.id,
      Buffer.from(credential.ciphertext).toString("base64"),
      Buffer.from(credential.ciphertext).toString("hex"),
    ]) {
      expect(listed).not.toContain(secret);
    }
    expect(await dump()).not.toContain(KEY);
  });

  it("writes an audit entry with each change, naming the vendor and never the key", async () => {
    await setTeamModelAccess(db, keyring, admin, {
      vendor: "openai",
      apiKey: "sk-proj-openai-key-5566",
      endpoint: "https://gw.example.com/openai/",
    });
    const entries = await db.auditLog.findMany({
      where: { teamId, targetType: "model_access" },
      orderBy: { createdAt: "asc" },
    });
    expect(entries.map((e) => [e.action, e.targetId, e.actorUserId])).toEqual([
      ["model_access.set", "anthropic", adminId],
      ["model_access.set", "openai", adminId],
    ]);
    expect(entries[1]!.metadata).toEqual({
      key: "replaced",
      endpoint: "https://gw.example.com/openai",
      allowedEndpoints: [],
    });
    expect(JSON.stringify(entries)).not.toContain("5566");
  });

  it("never sends a key to an endpoint it was not given for: a new endpoint drops it unless a new key comes with it", async () => {
    const credentials = await db.credential.count({ where: { teamId } });
    // The same destination written another way keeps it.
    await setTeamModelAccess(db, keyring, admin, {
      vendor: "anthropic",
      endpoint: "https://api.anthropic.com/",
    });
    expect(await teamModelAccess(db, keyring, teamId, "anthropic")).toMatchObject({ apiKey: KEY });
    // Another endpoint without a key: the stored one is dropped, its sealed row with it, audited.
    const moved = await setTeamModelAccess(db, keyring, admin, {
      vendor: "anthropic",
      endpoint: "https://claude-gw.example.com",
    });
    expect(moved).toMatchObject({
      endpoint: "https://claude-gw.example.com",
      keySet: false,
      keyHint: null,
    });
    expect(await teamModelAccess(db, keyring, teamId, "anthropic")).toMatchObject({
      endpoint: "https://claude-gw.example.com",
      apiKey: undefined,
    });
    expect(await db.credential.count({ where: { teamId } })).toBe(credentials - 1);
    expect(
      await db.auditLog.findFirst({
        where: { teamId, targetId: "anthropic" },
        orderBy: { createdAt: "desc" },
      }),
    ).toMatchObject({
      metadata: {
        key: "dropped",
        keyDropped: "endpoint_changed",
        endpoint: "https://claude-gw.example.com",
      },
    });
    // A new endpoint with its key, then a key alone: both replace.
    await setTeamModelAccess(db, keyring, admin, {
      vendor: "anthropic",
      apiKey: "sk-ant-api03-second-key-AbCd",
      endpoint: null,
    });
    expect(await teamModelAccess(db, keyring, teamId, "anthropic")).toMatchObject({
      endpoint: null,
      apiKey: "sk-ant-api03-second-key-AbCd",
    });
    expect(await db.credential.count({ where: { teamId } })).toBe(credentials);
    expect(
      await db.auditLog.findFirst({
        where: { teamId, targetId: "anthropic" },
        orderBy: { createdAt: "desc" },
      }),
    ).toMatchObject({
      metadata: { key: "replaced", endpoint: null, allowedEndpoints: [] },
    });
  });

  it("keeps openai_compatible's allowed endpoints, normalised as steps' base URLs are checked, and an optional key", async () => {
    const set = await setTeamModelAccess(db, keyring, admin, {
      vendor: "openai_compatible",
      allowedEndpoints: [
        "https://LLM.example.com/v1/",
        "http://127.0.0.1:11434/v1",
        "https://llm.example.com/v1",
      ],
    });
    expect(set).toMatchObject({
      keySet: false,
      endpoint: null,
      allowedEndpoints: ["https://llm.example.com/v1", "http://127.0.0.1:11434/v1"],
    });
    const access = await teamModelAccess(db, keyring, teamId, "openai_compatible");
    expect(access).toEqual({
      vendor: "openai_compatible",
      endpoint: null,
      apiKey: undefined,
      allowedEndpoints: set.allowedEndpoints,
    });
    expect(checkBaseUrl("https://llm.example.com/v1/beta", access!.allowedEndpoints)).toMatchObject(
      { ok: true },
    );

    await setTeamModelAccess(db, keyring, admin, {
      vendor: "openai_compatible",
      apiKey: "local-default-key-0042",
    });
    expect(await teamModelAccess(db, keyring, teamId, "openai_compatible")).toMatchObject({
      apiKey: "local-default-key-0042",
      allowedEndpoints: set.allowedEndpoints,
    });
    // Fewer endpoints keep the key; one more drops it, unless a key comes with it.
    await setTeamModelAccess(db, keyring, admin, {
      vendor: "openai_compatible",
      allowedEndpoints: ["https://llm.example.com/v1"],
    });
    expect(await teamModelAccess(db, keyring, teamId, "openai_compatible")).toMatchObject({
      apiKey: "local-default-key-0042",
    });
    await setTeamModelAccess(db, keyring, admin, {
      vendor: "openai_compatible",
      allowedEndpoints: ["https://llm.example.com/v1", "https://attacker.example/v1"],
    });
    expect(await teamModelAccess(db, keyring, teamId, "openai_compatible")).toMatchObject({
      apiKey: undefined,
    });
    await setTeamModelAccess(db, keyring, admin, {
      vendor: "openai_compatible",
      apiKey: "local-default-key-0042",
      allowedEndpoints: set.allowedEndpoints,
    });
    expect(await teamModelAccess(db, keyring, teamId, "openai_compatible")).toMatchObject({
      apiKey: "local-default-key-0042",
      allowedEndpoints: set.allowedEndpoints,
    });
    await setTeamModelAccess(db, keyring, admin, { vendor: "openai_compatible", apiKey: null });
    expect(await teamModelAccess(db, keyring, teamId, "openai_compatible")).toMatchObject({
      apiKey: undefined,
    });
    expect(
      await db.credential.count({
        where: { teamId, name: { startsWith: "model:openai_compatible:" } },
      }),
    ).toBe(0);
  });
});

describe("refusals", () => {
  const refusal = async (input: Parameters<typeof setTeamModelAccess>[3], actor = admin) => {
    const error = await setTeamModelAccess(db, keyring, actor, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    return error as { code: string; location?: { path?: string }; message: string };
  };

  it("refuses a bad endpoint with USER.INPUT.VALIDATION_FAILED and the field, and stores nothing", async () => {
    const before = await dump();
    for (const [input, path] of [
      [
        { vendor: "gemini", apiKey: "gemini-key-12345678", endpoint: "ftp://files.example.com" },
        "endpoint",
      ],
      [
        {
          vendor: "gemini",
          apiKey: "gemini-key-12345678",
          endpoint: "https://me:pa55word@gw.example.com",
        },
        "endpoint",
      ],
      [
        {
          vendor: "gemini",
          apiKey: "gemini-key-12345678",
          endpoint: "https://gw.example.com/v1?key=abc",
        },
        "endpoint",
      ],
      [
        {
          vendor: "gemini",
          apiKey: "gemini-key-12345678",
          endpoint: "https://gw.example.com/v1#frag",
        },
        "endpoint",
      ],
      [
        {
          vendor: "openai_compatible",
          allowedEndpoints: ["https://ok.example.com/v1", "not a url"],
        },
        "allowedEndpoints.1",
      ],
      [{ vendor: "openai_compatible", allowedEndpoints: [] }, "allowedEndpoints"],
      [
        {
          vendor: "openai_compatible",
          allowedEndpoints: ["https://ok.example.com"],
          endpoint: "https://ok.example.com",
        },
        "endpoint",
      ],
      [
        {
          vendor: "gemini",
          apiKey: "gemini-key-12345678",
          allowedEndpoints: ["https://ok.example.com"],
        },
        "allowedEndpoints",
      ],
      [{ vendor: "gemini", endpoint: "https://gw.example.com" }, "apiKey"],
      [{ vendor: "gemini", apiKey: "two\nlines-of-key" }, "apiKey"],
      [{ vendor: "mistral", apiKey: "some-key-12345678" }, "vendor"],
    ] satisfies Array<[SetModelAccess, string]>) {
      const error = await refusal(input);
      expect(error, JSON.stringify(input)).toMatchObject({
        code: "USER.INPUT.VALIDATION_FAILED",
        location: { path },
      });
      expect(error.message).not.toContain("pa55word");
    }
    expect(await dump()).toBe(before);
  });

  it("lets a member read the list but not change it, by either door", async () => {
    const member = { teamId, userId: memberId, role: "member" as const };
    const seen = await listTeamModelAccess(db, member);
    expect(seen.find((m) => m.vendor === "anthropic")).toMatchObject({
      configured: true,
      keySet: true,
    });
    expect(
      await refusal({ vendor: "gemini", apiKey: "gemini-key-12345678" }, member),
    ).toMatchObject({ code: "FORBIDDEN" });
    await expect(removeTeamModelAccess(db, member, { vendor: "anthropic" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      caller(memberId).models.set({ vendor: "gemini", apiKey: "gemini-key-12345678" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller(memberId).models.remove({ vendor: "anthropic" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await teamModelAccess(db, keyring, teamId, "gemini")).toBeUndefined();
    expect(await teamModelAccess(db, keyring, teamId, "anthropic")).toBeDefined();
  });

  it("keeps teams apart: another team sees none of it, and neither removes nor opens it", async () => {
    const other = await db.team.create({ data: { slug: "other", name: "Other" } });
    const owner = await db.user.create({
      data: { email: "owner@other.local", name: "Other owner" },
    });
    await db.membership.create({ data: { teamId: other.id, userId: owner.id, role: "owner" } });
    const stranger = { teamId: other.id, userId: owner.id, role: "owner" as const };
    expect((await listTeamModelAccess(db, stranger)).filter((m) => m.configured)).toEqual([]);
    expect((await caller(owner.id).models.list()).filter((m) => m.configured)).toEqual([]);
    await expect(
      removeTeamModelAccess(db, stranger, { vendor: "anthropic" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await teamModelAccess(db, keyring, other.id, "anthropic")).toBeUndefined();

    // its own key for the same vendor is its own
    await setTeamModelAccess(db, keyring, stranger, {
      vendor: "anthropic",
      apiKey: "sk-ant-other-team-key-0000",
    });
    expect(await teamModelAccess(db, keyring, other.id, "anthropic")).toMatchObject({
      apiKey: "sk-ant-other-team-key-0000",
    });
    expect(await teamModelAccess(db, keyring, teamId, "anthropic")).toMatchObject({
      apiKey: "sk-ant-api03-second-key-AbCd",
    });
  });
});

describe("the worker's side", () => {
  it("does not open a vendor's key sealed for another vendor", async () => {
    const sealedFor = async (vendor: string) =>
      db.credential.findFirstOrThrow({
        where: { teamId, name: { startsWith: `model:${vendor}:` } },
      });
    const [anthropic, openai] = [await sealedFor("anthropic"), await sealedFor("openai")];
    const { keyId, wrappedKey, ciphertext, iv, authTag } = anthropic;
    await db.credential.update({
      where: { id: openai.id },
      data: { keyId, wrappedKey, ciphertext, iv, authTag },
    });
    await expect(teamModelAccess(db, keyring, teamId, "openai")).rejects.toMatchObject({
      code: "SYSTEM.CREDENTIAL_UNREADABLE",
    });
    await expect(
      teamModelAccess(
        db,
        keyringOf(parseMasterKey("k9", randomBytes(32).toString("base64"))),
        teamId,
        "anthropic",
      ),
    ).rejects.toMatchObject({
      code: "SYSTEM.CREDENTIAL_KEY_MISSING",
    });
  });
});

describe("removing a vendor's access", () => {
  it("deletes its row and its sealed key, audited; removing it again is NOT_FOUND", async () => {
    const row = await db.modelAccess.findUniqueOrThrow({
      where: { teamId_vendor: { teamId, vendor: "anthropic" } },
    });
    expect(row.credentialId).not.toBeNull();
    expect(await caller(adminId).models.remove({ vendor: "anthropic" })).toEqual({
      vendor: "anthropic",
    });
    expect(await db.modelAccess.findUnique({ where: { id: row.id } })).toBeNull();
    expect(await db.credential.findUnique({ where: { id: row.credentialId! } })).toBeNull();
    expect(await teamModelAccess(db, keyring, teamId, "anthropic")).toBeUndefined();
    expect(
      await db.auditLog.findFirst({
        where: { teamId, action: "model_access.remove", targetId: "anthropic" },
      }),
    ).toMatchObject({ actorUserId: adminId });
    expect((await caller(adminId).models.list())[0]).toMatchObject({
      vendor: "anthropic",
      configured: false,
      keySet: false,
      keyHint: null,
    });
    await expect(removeTeamModelAccess(db, admin, { vendor: "anthropic" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
