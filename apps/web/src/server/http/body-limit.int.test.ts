/**
 * Request body limits on the REST and tRPC routes, served in-process over fetch against a
 * real database: 1 MiB by default, the bundle limit for bundles, 413 with a code past it;
 * and validating a bundle applies the same size limits as saving it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiToken, createDb, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "../../../../../test/helpers/dashboard-caller";
import { handleRest } from "../rest/rest-api";
import { handleTrpc } from "../trpc/handle-trpc";
import { BODY_LIMITS } from "./body-limit";

const MIB = 1024 * 1024;

let database: TestDatabase;
let db: Db;
let token: string;
let adminId: string;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
  const seeded = await seed(db, {
    adminEmail: "limits@test.local",
    adminPassword: "pw-limits-1234",
  });
  adminId = seeded.admin.id;
  token = (await createApiToken(db, { teamId: seeded.team.id, userId: adminId, name: "limits" }))
    .token;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const unusedQueue = () => {
  throw new Error("no queue in this test");
};

const rest = async (path: string, body: string, headers: Record<string, string> = {}) => {
  const res = await handleRest(
    { db, queue: unusedQueue, prefix: "unused", publish: () => Promise.resolve(0) },
    new Request(`http://localhost/api/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body,
    }),
    path,
  );
  return {
    status: res.status,
    body: (await res.json()) as { error?: { code: string; message: string; details?: unknown } },
  };
};

const trpc = async (path: string, input: unknown) => {
  const res = await handleTrpc(
    new Request(`http://localhost/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ json: input }),
    }),
    () =>
      Promise.resolve({
        db,
        queue: unusedQueue,
        queuePrefix: "unused",
        publish: () => Promise.resolve(0),
        redis: () => {
          throw new Error("no redis in this test");
        },
        keyring: () => {
          throw new Error("no keyring in this test");
        },
        userId: adminId,
        teamId: undefined,
      }),
  );
  const json = (await res.json()) as {
    error?: { json: { message: string; data: { appCode: string | null; httpStatus: number } } };
  };
  return { status: res.status, error: json.error?.json };
};

/** A bundle of `files` comment-padded files of `bytesEach`, with a valid workflow that reads none of them. */
const bundle = (files: number, bytesEach: number) => ({
  files: {
    "workflow.yaml":
      "name: big-one\nstates:\n  initial: a\n  a:\n    type: step\n    command: echo hi\n",
    ...Object.fromEntries(
      Array.from({ length: files }, (_, i) => [`notes/${i}.md`, "#".repeat(bytesEach)]),
    ),
  },
});

it("refuses a REST body over 1 MiB with 413 and a code, and lets a bundle route take a bundle", async () => {
  const big = JSON.stringify({ inputs: { blob: "x".repeat(MIB + 10) } });
  const refused = await rest("/workflows/anything/runs", big);
  expect(refused.status).toBe(413);
  expect(refused.body.error).toMatchObject({
    code: "PAYLOAD_TOO_LARGE",
    message: "the request body is larger than 1 MiB",
    details: { limitBytes: MIB },
  });

  // A declared length over the limit is refused before any of the body is read.
  const declared = await rest("/workflows/anything/runs", "{}", {
    "content-length": String(MIB + 1),
  });
  expect(declared.status).toBe(413);

  const threeMib = await rest("/workflows/validate", JSON.stringify(bundle(3, MIB - 1024)));
  expect(threeMib).toMatchObject({ status: 200, body: { ok: true } });

  const tooBig = await rest("/workflows/validate", JSON.stringify(bundle(7, MIB - 1024)));
  expect(tooBig).toMatchObject({
    status: 413,
    body: { error: { code: "PAYLOAD_TOO_LARGE", details: { limitBytes: BODY_LIMITS.bundle } } },
  });
});

it("refuses a tRPC body over its limit with 413 and the code, and lets the bundle procedures take a bundle", async () => {
  const refused = await trpc("tokens.create", { name: "x".repeat(MIB + 10) });
  expect(refused.status).toBe(413);
  expect(refused.error).toMatchObject({
    message: "the request body is larger than 1 MiB",
    data: { appCode: "PAYLOAD_TOO_LARGE", httpStatus: 413 },
  });

  const validated = await trpc("workflows.validate", {
    entry: "workflow.yaml",
    ...bundle(3, MIB - 1024),
  });
  expect(validated).toMatchObject({ status: 200 });

  const tooBig = await trpc("workflows.save", { entry: "workflow.yaml", ...bundle(7, MIB - 1024) });
  expect(tooBig).toMatchObject({ status: 413, error: { data: { appCode: "PAYLOAD_TOO_LARGE" } } });

  // A pack's archive (2 MiB here, base64) is read, and refused for what it is, not for its size.
  const archive = Buffer.alloc(1.5 * MIB, 7).toString("base64");
  expect(await trpc("packs.install", { archive })).toMatchObject({
    status: 400,
    error: { data: { appCode: "USER.PACK.INVALID_ARCHIVE" } },
  });
});

it("validates a bundle under the same size limits as saving it", async () => {
  const caller = dashboardCaller({ db }, adminId).workflows;
  for (const [input, message] of [
    [bundle(50, 10), "a bundle holds at most 50 files"],
    [bundle(1, MIB + 1), "notes/0.md is larger than 1 MiB"],
    [
      { files: { ...bundle(0, 0).files, "../escape.sh": "echo" } },
      'bundle path "../escape.sh" must be relative, without "." or ".." segments',
    ],
  ] as const) {
    await expect(caller.validate({ entry: "workflow.yaml", ...input })).rejects.toMatchObject({
      message,
    });
    await expect(caller.save({ entry: "workflow.yaml", ...input })).rejects.toMatchObject({
      message,
    });
  }
  expect(await caller.validate({ entry: "workflow.yaml", ...bundle(49, 10) })).toMatchObject({
    ok: true,
    errors: [],
  });
});
