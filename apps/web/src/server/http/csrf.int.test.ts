/**
 * Cross-site request forgery against the cookie-authenticated tRPC mutations, served in-process
 * over fetch against a real database: a state-changing call sent from another site (its Origin, or
 * the browser's Sec-Fetch-Site) is refused with 403 and changes nothing; a form-style text/plain
 * body is refused too. The same call from the dashboard's own origin works. REST takes only
 * Bearer tokens (a browser never attaches one cross-site), so it ignores cookies and Origin alike.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiToken, createDb, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "../../../../../test/helpers/dashboard-caller";
import { handleRest } from "../rest/rest-api";
import { handleTrpc } from "../trpc/handle-trpc";

let database: TestDatabase;
let db: Db;
let token: string;
let adminId: string;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
  const seeded = await seed(db, { adminEmail: "csrf@test.local", adminPassword: "pw-csrf-1234" });
  adminId = seeded.admin.id;
  token = (await createApiToken(db, { teamId: seeded.team.id, userId: adminId, name: "csrf" }))
    .token;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const unused = () => {
  throw new Error("not used in this test");
};

const createToken = async (
  name: string,
  headers: Record<string, string>,
  body = JSON.stringify({ json: { name } }),
) => {
  const res = await handleTrpc(
    new Request("http://sy.local:3000/api/trpc/tokens.create", {
      method: "POST",
      headers: { host: "sy.local:3000", "content-type": "application/json", ...headers },
      body,
    }),
    () =>
      Promise.resolve({
        db,
        queue: unused,
        queuePrefix: "unused",
        publish: () => Promise.resolve(0),
        redis: unused,
        keyring: unused,
        userId: adminId,
        teamId: undefined,
      }),
  );
  return res.status;
};

const tokenNames = async () =>
  (await dashboardCaller({ db }, adminId).tokens.list()).map((t) => t.name);

it("refuses a cookie-authenticated mutation sent from another site and changes nothing", async () => {
  expect(await createToken("evil-origin", { origin: "https://evil.example" })).toBe(403);
  expect(await createToken("evil-fetch-site", { "sec-fetch-site": "cross-site" })).toBe(403);
  expect(
    await createToken("evil-sibling", {
      "sec-fetch-site": "same-site",
      origin: "http://other.sy.local:3000",
    }),
  ).toBe(403);
  expect(await createToken("evil-null", { origin: "null" })).toBe(403);
  const formStyle = await createToken(
    "evil-form",
    { "content-type": "text/plain" },
    JSON.stringify({ json: { name: "evil-form" } }),
  );
  expect(formStyle).toBeGreaterThanOrEqual(400);
  expect(formStyle).toBeLessThan(500);
  expect((await tokenNames()).filter((n) => n.startsWith("evil"))).toEqual([]);
});

it("lets the same mutation through from the dashboard's own origin, and from a client that sends no Origin", async () => {
  expect(
    await createToken("same-origin", {
      origin: "http://sy.local:3000",
      "sec-fetch-site": "same-origin",
    }),
  ).toBe(200);
  expect(
    await createToken("behind-proxy", {
      origin: "https://sy.example",
      "x-forwarded-host": "sy.example",
    }),
  ).toBe(200);
  expect(await createToken("no-origin", {})).toBe(200);
  expect(await tokenNames()).toEqual(
    expect.arrayContaining(["same-origin", "behind-proxy", "no-origin"]),
  );
});

it("REST ignores cookies and Origin: a Bearer token works cross-origin, a cookie alone is unauthorized", async () => {
  const rest = (headers: Record<string, string>) =>
    handleRest(
      { db, queue: unused, prefix: "unused", publish: () => Promise.resolve(0) },
      new Request("http://sy.local:3000/api/v1/tokens", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ name: "rest-cross-origin" }),
      }),
      "/tokens",
    );
  const withCookie = await rest({
    cookie: "authjs.session-token=whatever",
    origin: "https://evil.example",
  });
  expect(withCookie.status).toBe(401);
  const withBearer = await rest({
    authorization: `Bearer ${token}`,
    origin: "https://evil.example",
  });
  expect(withBearer.status).toBeLessThan(300);
});
