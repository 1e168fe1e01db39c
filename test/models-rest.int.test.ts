/**
 * The team's model access over REST: GET /models for any member (never a key), PUT and
 * DELETE /models/{vendor} for admins, with validation errors naming the field, as the
 * OpenAPI document describes them.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { createApiToken, createDb, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { teamModelAccess } from "../apps/worker/src/model-access";
import { listModelsResponse, modelAccessResponse } from "~/server/contract/models.types";
import { restCaller, type RestCall } from "./helpers/rest-caller";

const KEY = "sk-proj-rest-key-Zx81";
const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
let database: TestDatabase;
let db: Db;
let teamId: string;
let adminToken: string;
let memberToken: string;
let call: RestCall;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  teamId = seeded.team.id;
  const member = await db.user.create({ data: { email: "member@test.local", name: "Member" } });
  await db.membership.create({ data: { teamId, userId: member.id, role: "member" } });
  adminToken = (await createApiToken(db, { teamId, userId: seeded.admin.id, name: "ci" })).token;
  memberToken = (await createApiToken(db, { teamId, userId: member.id, name: "member-ci" })).token;
  // the queue and Redis are never reached by these routes
  call = restCaller(
    { db, queue: undefined as never, redis: undefined as never, prefix: "unused", keyring },
    () => adminToken,
  );
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

it("sets a vendor's key and endpoint, answering and listing it without the key", async () => {
  const set = await call("PUT", "/models/openai", {
    body: { apiKey: KEY, endpoint: "https://gw.example.com/openai/" },
  });
  expect(set.status).toBe(200);
  expect(modelAccessResponse.parse(set.body)).toEqual(set.body);
  expect(set.body).toMatchObject({
    vendor: "openai",
    configured: true,
    keySet: true,
    keyHint: "Zx81",
    endpoint: "https://gw.example.com/openai",
  });

  const list = await call("GET", "/models", { token: memberToken });
  expect(list.status).toBe(200);
  expect(listModelsResponse.parse(list.body)).toEqual(list.body);
  expect((list.body.models as { vendor: string }[]).map((m) => m.vendor)).toEqual([
    "anthropic",
    "openai",
    "gemini",
    "openai_compatible",
  ]);
  expect(JSON.stringify([set.body, list.body])).not.toContain(KEY);
  expect(await teamModelAccess(db, keyring, teamId, "openai")).toMatchObject({
    apiKey: KEY,
    endpoint: "https://gw.example.com/openai",
  });
});

it("refuses bad input with USER.INPUT.VALIDATION_FAILED and the field", async () => {
  const bad = await call("PUT", "/models/anthropic", {
    body: { apiKey: "sk-ant-12345678", endpoint: "https://user:s3cret-pw@gw.example.com" },
  });
  expect(bad).toMatchObject({
    status: 400,
    body: { error: { code: "USER.INPUT.VALIDATION_FAILED", location: { path: "endpoint" } } },
  });
  expect(JSON.stringify(bad.body)).not.toContain("s3cret-pw");
  expect(
    await call("PUT", "/models/openai_compatible", {
      body: { allowedEndpoints: ["https://a.example.com", "https://b.example.com/v1?x=1"] },
    }),
  ).toMatchObject({
    status: 400,
    body: {
      error: { code: "USER.INPUT.VALIDATION_FAILED", location: { path: "allowedEndpoints.1" } },
    },
  });
  expect(await call("PUT", "/models/mistral", { body: { apiKey: "sk-12345678" } })).toMatchObject({
    status: 400,
    body: { error: { code: "USER.INPUT.VALIDATION_FAILED", location: { path: "vendor" } } },
  });
  expect(await call("PUT", "/models/openai", { body: { apiKey: 42 } })).toMatchObject({
    status: 400,
    body: { error: { code: "BAD_REQUEST" } },
  });
  expect(await teamModelAccess(db, keyring, teamId, "anthropic")).toBeUndefined();
});

it("lets a member read but not change or remove, and removes for an admin", async () => {
  expect(
    await call("PUT", "/models/gemini", {
      token: memberToken,
      body: { apiKey: "gemini-key-12345678" },
    }),
  ).toMatchObject({
    status: 403,
    body: { error: { code: "FORBIDDEN" } },
  });
  expect(await call("DELETE", "/models/openai", { token: memberToken })).toMatchObject({
    status: 403,
    body: { error: { code: "FORBIDDEN" } },
  });
  expect(await call("DELETE", "/models/openai")).toMatchObject({
    status: 200,
    body: { vendor: "openai" },
  });
  expect(await teamModelAccess(db, keyring, teamId, "openai")).toBeUndefined();
  expect(await db.credential.count({ where: { teamId, name: { startsWith: "model:" } } })).toBe(0);
  expect(await call("DELETE", "/models/openai")).toMatchObject({
    status: 404,
    body: { error: { code: "NOT_FOUND" } },
  });
});

it("is in the OpenAPI document as it answers", async () => {
  const spec = await call("GET", "/openapi.json", { token: "" });
  const paths = spec.body.paths as Record<
    string,
    Record<
      string,
      { requestBody?: { content: Record<string, { schema: { properties: object } }> } }
    >
  >;
  expect(Object.keys(paths["/models"]!)).toEqual(["get"]);
  expect(Object.keys(paths["/models/{vendor}"]!).sort()).toEqual(["delete", "put"]);
  expect(
    Object.keys(
      paths["/models/{vendor}"]!.put!.requestBody!.content["application/json"]!.schema.properties,
    ).sort(),
  ).toEqual(["allowedEndpoints", "apiKey", "endpoint"]);
});
