/**
 * Every REST route and every tRPC procedure fed malformed requests as a team owner (so
 * input reaches validation): bodies that are not JSON, of the wrong content type, too
 * large, of the wrong shape (fields missing, extra, of other types, hostile strings with NUL
 * and lone surrogates), path parameters that are not ids, and odd headers (Authorization,
 * Idempotency-Key, Last-Event-ID, cursors and limits), dates Postgres cannot store (year 0,
 * past 9999, in a query, a body or a forged cursor), and methods a path does not take.
 * Against the real handlers and a real database: never a 5xx; every refusal is a 4xx with
 * `{ error: { code, message } }` (REST) or tRPC's error shape with a 4xx code. Generated
 * bodies use a fixed fast-check seed.
 */
import { randomBytes } from "node:crypto";
import { Queue } from "bullmq";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createApiToken, createDb, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { handleRest, restOperations } from "~/server/rest/rest-api";
import { handleTrpc } from "~/server/trpc/handle-trpc";
import { appRouter } from "~/server/trpc/root";
import { randomPrefix } from "./helpers/worker-process";

const SEED = 20261201;
const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));

let database: TestDatabase;
let db: Db;
let redis: Redis;
let queue: Queue<RunJob>;
let prefix: string;
let teamId: string;
let adminId: string;
let token: string;
let helloId: string;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  teamId = seeded.team.id;
  adminId = seeded.admin.id;
  helloId = (await db.workflow.findFirstOrThrow({ where: { teamId, name: "hello-world" } })).id;
  prefix = randomPrefix();
  redis = new Redis(process.env.REDIS_URL!);
  queue = new Queue<RunJob>(RUN_QUEUE, {
    connection: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null }),
    prefix,
  });
  token = (await createApiToken(db, { teamId, userId: adminId, name: "fuzz" })).token;
}, 120_000);
afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await db?.$disconnect();
  await database?.drop();
});

/** Strings that have broken servers: NUL (Postgres refuses it), lone surrogates, huge, paths, markup, templates. */
const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "x".repeat(70_000),
  "../../etc/passwd",
  "%00",
  "' OR '1'='1",
  "$(id)",
  "{{.env.SECRET}}",
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "😀",
  "\u202e",
  "-1",
  "1e309",
  "9999999999999999999999",
  "null",
  "[]",
  "{}",
  // Dates JavaScript holds but PostgreSQL cannot store.
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:30:00+01:00",
  "+275760-09-13T00:00:00.000Z",
];
const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: "binary", maxLength: 30 }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      -0,
      1.5,
      2 ** 53 + 2,
      1e308,
      -1e308,
      Number.MAX_SAFE_INTEGER,
    ),
    fc.integer(),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(hostileString, tie("v"), { maxKeys: 3 }),
  ),
})).v;

/** Objects with the schema's own keys (some left out, some of the wrong type) plus keys it does not know. */
const shapedBody = (schema: z.ZodType | undefined): fc.Arbitrary<unknown> => {
  const keys = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const known =
    keys.length > 0
      ? fc.dictionary(fc.constantFrom(...keys), hostileValue, { maxKeys: keys.length })
      : fc.constant({});
  return fc
    .tuple(known, fc.dictionary(hostileString, hostileValue, { maxKeys: 2 }))
    .map(([a, b]) => ({ ...b, ...a }));
};

/** The schema's every field set to text Postgres cannot store: a NUL, then a lone surrogate. */
const unstorableBodies = (schema: z.ZodType | undefined): unknown[] => {
  const keys = schema instanceof z.ZodObject ? Object.keys(schema.shape) : ["x"];
  return ["a\u0000b", "a\ud800b"].map((bad) => Object.fromEntries(keys.map((k) => [k, bad])));
};

/** Path parameters that are not ids. */
const BAD_PARAMS = [
  "not-an-id",
  "-1",
  "99999999999999999999999",
  "%00",
  "a%00b",
  "%E0%A4%A",
  "%ZZ",
  "%2e%2e%2F%2e%2e",
  "..",
  "'%20OR%20'1'='1",
  "%ED%A0%80",
  "x".repeat(3000),
];

type Seen = { status: number; body: unknown; what: string };
const problems: string[] = [];
/** Checks one answer: never 5xx; a refusal is a 4xx with { error: { code, message } }. */
const checkRest = (seen: Seen) => {
  const { status, body, what } = seen;
  if (status >= 500) problems.push(`${what}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
  else if (status >= 400) {
    const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if (typeof error?.code !== "string" || typeof error.message !== "string")
      problems.push(
        `${what}: ${status} without { error: { code, message } }: ${JSON.stringify(body).slice(0, 300)}`,
      );
  }
};

const rest = async (
  method: string,
  path: string,
  options: { body?: string | null; headers?: Record<string, string>; query?: string } = {},
): Promise<Seen> => {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    authorization: `Bearer ${token}`,
    ...options.headers,
  };
  for (const [k, v] of Object.entries(headers)) if (v === "<none>") delete headers[k];
  const res = await handleRest(
    {
      db,
      queue: () => queue,
      prefix,
      publish: (c, m) => redis.publish(c, m),
      keyring: () => keyring,
      redis: () => redis,
    },
    new Request(`http://localhost/api/v1${path}${options.query ?? ""}`, {
      method,
      headers,
      body: options.body ?? undefined,
    }),
    path,
  );
  const what = `${method} ${path.slice(0, 120)}${options.query ?? ""} ${JSON.stringify(options.headers ?? {}).slice(0, 80)} ${String(options.body ?? "").slice(0, 120)}`;
  if (
    res.headers.get("content-type")?.includes("event-stream") ||
    res.headers.get("content-type")?.includes("ndjson")
  ) {
    await res.body?.cancel();
    return { status: res.status, body: undefined, what };
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a non-JSON answer is checked as such
  }
  return { status: res.status, body, what };
};

/** A path for a route: real ids where a body is to be checked (so the route goes on to read it), else `param`. */
const pathOf = (template: string, param?: string) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (param !== undefined) return param;
    if (name === "id" && template.startsWith("/workflows/")) return helloId;
    if (name === "name" && template.startsWith("/lanes/")) return "default";
    if (name === "vendor") return "anthropic";
    if (name === "name") return "FUZZ_VAR";
    if (name === "number") return "1";
    return "not-an-id";
  });

const hasBody = (method: string) => method === "POST" || method === "PUT" || method === "DELETE";

describe("REST", () => {
  const routes = restOperations.map((r) => [`${r.method} ${r.path}`, r] as const);

  it.each(routes)(
    "%s",
    async (_key, route) => {
      const { method } = route;
      const seen: Seen[] = [];
      const path = pathOf(route.path);
      // Path parameters that are not ids.
      if (route.path.includes("{"))
        for (const p of BAD_PARAMS)
          seen.push(
            await rest(method, pathOf(route.path, p), { body: hasBody(method) ? "{}" : null }),
          );
      // Bodies that are not JSON, not objects, not JSON-typed, too large.
      if (route.body) {
        for (const body of [
          "{",
          "nul",
          '{"a":',
          "\u0000",
          "[]",
          "null",
          "1",
          '"text"',
          '{"__proto__": {"x": 1}}',
          "a=b&c=d",
        ])
          seen.push(await rest(method, path, { body }));
        for (const type of [
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "<none>",
          "application/json; charset=latin1",
        ])
          seen.push(
            await rest(method, path, {
              body: "not json at all",
              headers: { "content-type": type },
            }),
          );
        // Over the route's own limit: a bundle's (about 6 MiB), a pack archive's (about 7.7 MiB).
        const big =
          route.path === "/packs"
            ? 9
            : route.path === "/workflows" || route.path === "/workflows/validate"
              ? 7
              : 2;
        const huge = await rest(method, path, {
          body: JSON.stringify({ x: "x".repeat(big * 1024 * 1024) }),
        });
        seen.push(huge);
        expect(huge.status, huge.what).toBe(413);
        const declared = await rest(method, path, {
          body: "{}",
          headers: { "content-length": String(100 * 1024 * 1024) },
        });
        seen.push(declared);
      }
      // Authorization that is not a token of ours.
      for (const authorization of [
        "<none>",
        "Bearer",
        "Bearer ",
        "Bearer a b",
        "Basic YWRtaW46YWRtaW4=",
        `Bearer ${token}x`,
        `Bearer ${"x".repeat(10_000)}`,
        "Bearer sy_00000000_%00",
        "bearer\t" + token.slice(0, 10),
      ]) {
        const r = await rest(method, path, {
          body: hasBody(method) ? "{}" : null,
          headers: { authorization },
        });
        seen.push(r);
        expect(r.status, r.what).toBe(401);
      }
      // Query parameters: cursors and limits that are not.
      if (route.query)
        for (const key of Object.keys(route.query.shape))
          for (const v of [
            "",
            "-1",
            "0",
            "abc",
            "1e9",
            "99999999999999999999",
            "%00",
            "%E0%A4%A",
            "eyJpZCI6MX0",
            "W10",
            "null",
            "x".repeat(5000),
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:30:00-01:00",
            // Cursors forged to hold a moment Postgres cannot store.
            Buffer.from("0000-01-01T00:00:00.000Z|x").toString("base64url"),
            Buffer.from("+275760-09-13T00:00:00.000Z|x").toString("base64url"),
          ])
            seen.push(await rest(method, path, { query: `?${key}=${v}` }));
      // Generated bodies: arbitrary JSON, and objects of the route's own fields with values of any type.
      // The connector console's well-formed calls wait up to a minute for a worker, which this test does not run.
      if (route.body && route.path !== "/connectors/{id}/call") {
        const samples = fc.sample(
          fc.oneof(hostileValue, shapedBody(route.body), shapedBody(route.body)),
          { seed: SEED, numRuns: 15 },
        );
        for (const value of [...unstorableBodies(route.body), ...samples])
          seen.push(await rest(method, path, { body: JSON.stringify(value) }));
      }
      // A method the path does not take (under any route it matches: /workflows/validate is also a /workflows/{id}): 405.
      const matches = (template: string) =>
        new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`).test(path);
      const taken = restOperations.filter((r) => matches(r.path)).map((r) => r.method);
      for (const other of ["GET", "POST", "PUT", "DELETE", "PATCH"].filter(
        (m) => !taken.includes(m),
      )) {
        const r = await rest(other, path, {
          body: hasBody(other) || other === "PATCH" ? "{}" : null,
        });
        seen.push(r);
        expect(r.status, r.what).toBe(405);
      }
      for (const s of seen) checkRest(s);
      expect(problems.splice(0)).toEqual([]);
    },
    120_000,
  );

  it("odd headers: Idempotency-Key, Last-Event-ID, x-request-id", async () => {
    const seen: Seen[] = [];
    for (const key of ["", " ", "x".repeat(10_000), "é", "a\tb", "../../x", "%00"])
      seen.push(
        await rest("POST", `/workflows/${helloId}/runs`, {
          body: "{}",
          headers: { "idempotency-key": key },
        }),
      );
    const run = seen.find((s) => s.status === 201 || s.status === 200)?.body as
      { id?: string } | undefined;
    const runId = run?.id ?? "not-an-id";
    for (const id of [
      "abc",
      "-1",
      "1e3",
      "0x10",
      "99999999999999999999999999",
      "",
      "é",
      "1.5",
      `${"9".repeat(400)}`,
    ])
      seen.push(await rest("GET", `/runs/${runId}/events`, { headers: { "last-event-id": id } }));
    for (const id of ["x".repeat(10_000), "é", "", "\t"])
      seen.push(await rest("GET", "/workflows", { headers: { "x-request-id": id } }));
    for (const s of seen) checkRest(s);
    expect(problems.splice(0)).toEqual([]);
  }, 120_000);
});

type TrpcSeen = { status: number; body: unknown; what: string };
const trpcProblems: string[] = [];
const checkTrpc = ({ status, body, what }: TrpcSeen) => {
  if (status >= 500) {
    trpcProblems.push(`${what}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
    return;
  }
  if (status < 400) return;
  const items = Array.isArray(body) ? body : [body];
  for (const item of items) {
    const error = (
      item as {
        error?: { json?: { message?: unknown; data?: { code?: unknown; httpStatus?: unknown } } };
      }
    )?.error?.json;
    if (!error) continue;
    const httpStatus = error.data?.httpStatus;
    if (
      typeof error.data?.code !== "string" ||
      typeof error.message !== "string" ||
      typeof httpStatus !== "number" ||
      httpStatus < 400 ||
      httpStatus >= 500
    )
      trpcProblems.push(`${what}: ${status} error shape ${JSON.stringify(item).slice(0, 300)}`);
  }
};

const trpc = async (
  path: string,
  init: { method: "GET" | "POST"; input?: string; body?: string; headers?: Record<string, string> },
): Promise<TrpcSeen> => {
  const sep = path.includes("?") ? "&" : "?";
  const url = `http://localhost/api/trpc/${path}${init.input === undefined ? "" : `${sep}input=${encodeURIComponent(init.input)}`}`;
  const res = await handleTrpc(
    new Request(url, {
      method: init.method,
      headers: { "content-type": "application/json", ...init.headers },
      body: init.body,
    }),
    () =>
      Promise.resolve({
        db,
        queue: () => queue,
        queuePrefix: prefix,
        publish: (c: string, m: string) => redis.publish(c, m),
        redis: () => redis,
        keyring: () => keyring,
        userId: adminId,
        teamId,
      }),
  );
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // checked as it is
  }
  return {
    status: res.status,
    body,
    what: `${init.method} ${path} ${String(init.input ?? init.body ?? "").slice(0, 160)}`,
  };
};

describe("tRPC", () => {
  type Proc = { _def: { type: string; inputs: z.ZodType[] } };
  const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Proc>)
    // Leaving the team takes no input: calling it would only end the owner's membership, not test anything.
    .filter(([path]) => path !== "members.leave");

  it.each(procedures)(
    "%s",
    async (path, proc) => {
      const query = proc._def.type === "query";
      const call = (json: string, headers?: Record<string, string>) =>
        query
          ? trpc(path, { method: "GET", input: json, headers })
          : trpc(path, { method: "POST", body: json, headers });
      const seen: TrpcSeen[] = [];
      for (const raw of [
        "{",
        "nul",
        "[]",
        "null",
        "1",
        '"x"',
        '{"json":',
        "\u0000",
        '{"json": {"__proto__": {"a": 1}}}',
        '{"meta": {"values": {"x": ["Date"]}}, "json": {"x": "not a date"}}',
      ])
        seen.push(await call(raw));
      seen.push(
        await trpc(path, { method: query ? "POST" : "GET", body: query ? "{}" : undefined }),
      );
      if (!query && proc._def.inputs.length > 0) {
        const huge = await call(
          JSON.stringify({
            json: {
              x: "x".repeat(
                (path === "packs.install" ? 9 : path.startsWith("workflows.") ? 7 : 2) *
                  1024 *
                  1024,
              ),
            },
          }),
        );
        seen.push(huge);
        expect(huge.status, huge.what).toBe(413);
        seen.push(await call("{}", { "content-type": "text/plain" }));
      }
      const samples = fc.sample(
        fc.oneof(hostileValue, shapedBody(proc._def.inputs[0]), shapedBody(proc._def.inputs[0])),
        { seed: SEED, numRuns: 15 },
      );
      for (const value of [...unstorableBodies(proc._def.inputs[0]), ...samples])
        seen.push(await call(JSON.stringify({ json: value })));
      // The malformed inputs reached validation: at least one was refused as a bad request.
      if (proc._def.inputs.length > 0)
        expect(seen.filter((s) => s.status === 400).length, path).toBeGreaterThan(0);
      for (const s of seen) checkTrpc(s);
      expect(trpcProblems.splice(0)).toEqual([]);
    },
    120_000,
  );

  it("batches, unknown procedures and bad URLs", async () => {
    const seen: TrpcSeen[] = [];
    seen.push(await trpc("nope.nothing", { method: "GET" }));
    seen.push(
      await trpc("runs.get,runs.list?batch=1", { method: "GET", input: '{"0": {"json": 1}}' }),
    );
    seen.push(await trpc("runs.get,runs.get", { method: "GET", input: "[1]" }));
    seen.push(await trpc("%E0%A4%A", { method: "GET" }));
    seen.push(
      await trpc(`${"runs.get,".repeat(500)}runs.get?batch=1`, { method: "GET", input: "{}" }),
    );
    for (const s of seen) checkTrpc(s);
    expect(trpcProblems.splice(0)).toEqual([]);
  }, 120_000);
});
