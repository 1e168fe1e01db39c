/**
 * The REST API end to end: bearer-token authentication as a team member, saving a
 * workflow, starting a run that a real worker executes, reading it back, team isolation,
 * roles, and errors as `{ error: { code, message, details } }` with the mapped status.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunJob } from "@switchyard/core/runs";
import { createApiToken, revokeApiToken, type Db } from "@switchyard/db";
import type { TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller, type RestBody, type RestCall } from "./helpers/rest-caller";
import { runResponse, startRunResponse } from "~/server/contract/runs.types";
import { listTokensResponse } from "~/server/contract/tokens.types";
import { handleRest } from "~/server/rest/rest-api";
import { closeRunStack, openRunStack, runEnded } from "./helpers/run-stack";
import type { WorkerHandle } from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let redis: Redis;
let prefix: string;
let worker: WorkerHandle;
let token: string;
let teamId: string;
let adminId: string;

type Body = RestBody;

/** The raw Response, for headers. */
const handleRestRaw = (
  services: { db: Db; queue: Queue<RunJob>; redis: Redis; prefix: string },
  bearer: string,
  method: string,
  path: string,
  body?: unknown,
) =>
  handleRest(
    {
      db: services.db,
      queue: () => services.queue,
      prefix: services.prefix,
      publish: (c, m) => services.redis.publish(c, m),
    },
    new Request(`http://localhost/api/v1${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    path,
  );
let call: RestCall;

beforeAll(async () => {
  ({ database, db, queue, redis, prefix, adminId, teamId, worker } = await openRunStack());
  token = (await createApiToken(db, { teamId, userId: adminId, name: "ci" })).token;
  call = restCaller({ db, queue, redis, prefix }, () => token);
});
afterAll(() => closeRunStack({ database, db, queue, redis, worker }));

it("refuses requests without a valid token, and describes itself without one", async () => {
  expect(await call("GET", "/workflows", { token: "" })).toMatchObject({
    status: 401,
    body: { error: { code: "UNAUTHORIZED" } },
  });
  expect((await call("GET", "/workflows", { token: `sy_00000000_${"a".repeat(43)}` })).status).toBe(
    401,
  );
  const spec = await call("GET", "/openapi.json", { token: "" });
  expect(spec.status).toBe(200);
  expect(spec.body).toMatchObject({ openapi: "3.1.0" });
  expect(Object.keys(spec.body.paths as object)).toEqual(
    expect.arrayContaining(["/workflows/{id}/runs", "/variables/{name}/lanes", "/tokens/{id}"]),
  );
});

it("saves a workflow, starts a run a worker executes, and reads it back", async () => {
  const bad = await call("POST", "/workflows", {
    body: {
      files: {
        "workflow.yaml":
          "name: api-made\nstates:\n  initial: a\n  a:\n    type: step\n    comand: x\n",
      },
    },
  });
  expect(bad.status).toBe(422);
  expect(bad.body.error?.code).toBe("WORKFLOW.VALIDATION_FAILED");
  expect(bad.body.error?.details?.diagnostics?.map((d) => [d.code, d.line])).toContainEqual([
    "WORKFLOW.PARSE.UNKNOWN_FIELD",
    6,
  ]);

  const saved = await call("POST", "/workflows", {
    body: {
      files: {
        "workflow.yaml":
          'name: api-made\ninputs:\n  - name: n\n    type: integer\n    default: 2\nstates:\n  initial: a\n  a:\n    type: step\n    command: echo "n={{.inputs.n}}"\n',
      },
    },
  });
  expect(saved.status).toBe(201);
  const list = await call("GET", "/workflows");
  expect((list.body.workflows as { name: string }[]).map((w) => w.name)).toContain("api-made");

  const started = await call("POST", `/workflows/${saved.body.workflowId as string}/runs`, {
    body: { inputs: { n: 2 } },
  });
  expect(started).toMatchObject({ status: 202, body: { status: "queued" } });
  // answered as the document says: exactly the schema's fields
  const documented = (
    (await call("GET", "/openapi.json", { token: "" })).body.paths as Record<
      string,
      {
        post?: {
          responses: Record<
            string,
            { content: Record<string, { schema: { properties: object } }> }
          >;
        };
      }
    >
  )["/workflows/{id}/runs"]!.post!.responses["202"]!.content["application/json"]!.schema;
  expect(Object.keys(started.body).sort()).toEqual(Object.keys(documented.properties).sort());
  expect(startRunResponse.parse(started.body)).toEqual(started.body);
  const run = await runEnded(
    async () =>
      (await call("GET", `/runs/${started.body.id as string}`)).body as Body & { status: string },
    "the run",
  );
  expect(() => runResponse.parse(run)).not.toThrow();
  expect(run).toMatchObject({ status: "succeeded", workflow: "api-made", trigger: "api" });
  expect((run.steps as { stdout: string }[])[0]!.stdout).toBe("n=2\n");
  expect(run).not.toHaveProperty("checkpoint");
});

it("keeps teams apart and applies the token member's role", async () => {
  const other = await db.team.create({ data: { slug: "other", name: "Other" } });
  const stranger = await db.user.create({ data: { email: "s@test.local", name: "S" } });
  await db.membership.create({ data: { teamId: other.id, userId: stranger.id, role: "owner" } });
  const strangerToken = (
    await createApiToken(db, { teamId: other.id, userId: stranger.id, name: "x" })
  ).token;
  const hello = (await db.workflow.findFirstOrThrow({ where: { teamId, name: "hello-world" } })).id;
  expect((await call("POST", `/workflows/${hello}/runs`, { token: strangerToken })).status).toBe(
    404,
  );
  expect((await call("GET", "/workflows", { token: strangerToken })).body.workflows).toEqual([]);

  const viewer = await db.user.create({ data: { email: "v@test.local", name: "V" } });
  await db.membership.create({ data: { teamId, userId: viewer.id, role: "viewer" } });
  const viewerToken = await createApiToken(db, { teamId, userId: viewer.id, name: "v" });
  expect(
    await call("POST", `/workflows/${hello}/runs`, { token: viewerToken.token }),
  ).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
  expect(await revokeApiToken(db, teamId, viewerToken.id)).toBe(true);
  expect((await call("GET", "/workflows", { token: viewerToken.token })).status).toBe(401);
});

it("answers unknown paths, wrong methods and bad bodies with clear errors", async () => {
  expect(await call("GET", "/nope")).toMatchObject({
    status: 404,
    body: { error: { code: "NOT_FOUND" } },
  });
  expect((await call("DELETE", "/workflows")).status).toBe(405);
  expect(await call("POST", "/workflows", { body: { files: "x" } })).toMatchObject({
    status: 400,
    body: { error: { code: "BAD_REQUEST" } },
  });
});

it("says who made each token; an admin revokes any member's, a member only their own", async () => {
  const member = async (email: string) => {
    const user = await db.user.create({ data: { email, name: email.split("@")[0]! } });
    await db.membership.create({ data: { teamId, userId: user.id, role: "member" } });
    return user.id;
  };
  const [aliceId, bobId] = [await member("alice@test.local"), await member("bob@test.local")];
  const dashboard = (userId: string) => dashboardCaller({ db, queue, redis, prefix }, userId);
  const alice = await dashboard(aliceId).tokens.create({ name: "alice-ci" });
  const bob = await dashboard(bobId).tokens.create({ name: "bob-ci" });

  const seenByAdmin = await dashboard(adminId).tokens.list();
  expect(seenByAdmin).toContainEqual(
    expect.objectContaining({
      id: alice.id,
      name: "alice-ci",
      createdBy: { id: aliceId, name: "alice", email: "alice@test.local" },
    }),
  );
  expect((await dashboard(bobId).tokens.list()).map((t) => t.name)).toEqual(["bob-ci"]);
  const listed = await call("GET", "/tokens");
  expect(listed.body.tokens).toContainEqual(
    expect.objectContaining({
      id: bob.id,
      createdBy: expect.objectContaining({ email: "bob@test.local" }) as unknown,
    }),
  );
  expect(JSON.stringify(listed.body)).not.toContain(bob.token);
  expect(() => listTokensResponse.parse(listed.body)).not.toThrow();

  // a member cannot revoke another's token, by either door
  await expect(dashboard(bobId).tokens.revoke({ id: alice.id })).rejects.toMatchObject({
    code: "FORBIDDEN",
  });
  expect(await call("DELETE", `/tokens/${alice.id}`, { token: bob.token })).toMatchObject({
    status: 403,
    body: { error: { code: "FORBIDDEN" } },
  });
  expect((await call("GET", "/workflows", { token: alice.token })).status).toBe(200);

  // an admin can, and the token stops working at once
  expect(await dashboard(adminId).tokens.revoke({ id: alice.id })).toEqual({ id: alice.id });
  expect((await call("GET", "/workflows", { token: alice.token })).status).toBe(401);
  expect(await call("DELETE", `/tokens/${bob.id}`)).toMatchObject({
    status: 200,
    body: { id: bob.id },
  });
  expect((await call("GET", "/workflows", { token: bob.token })).status).toBe(401);
  expect(
    await db.auditLog.findFirst({
      where: { teamId, action: "api_token.revoke", targetId: alice.id },
    }),
  ).toMatchObject({
    actorUserId: adminId,
    metadata: expect.objectContaining({ ownerId: aliceId }) as unknown,
  });

  // and a member still revokes their own
  const own = await dashboard(bobId).tokens.create({ name: "bob-again" });
  expect(await call("DELETE", `/tokens/${own.id}`, { token: own.token })).toMatchObject({
    status: 200,
  });
});

it("answers a retryable failure (the run queue unreachable) with 503 and Retry-After, by REST and tRPC", async () => {
  const { Queue: BullQueue } = await import("bullmq");
  const { Redis: IoRedis } = await import("ioredis");
  const { RUN_QUEUE } = await import("@switchyard/core/runs");
  // A closed port, with the offline queue off as the web app configures it: fails fast.
  const connection = new IoRedis({
    host: "127.0.0.1",
    port: 1,
    maxRetriesPerRequest: null,
    enableOfflineQueue: false,
    lazyConnect: true,
  });
  connection.on("error", () => undefined);
  const down = new BullQueue<RunJob>(RUN_QUEUE, { connection, prefix: "sy-unreachable" });
  down.on("error", () => undefined);
  try {
    const hello = (await db.workflow.findFirstOrThrow({ where: { teamId, name: "hello-world" } }))
      .id;
    const res = await handleRestRaw(
      { db, queue: down, redis, prefix },
      token,
      "POST",
      `/workflows/${hello}/runs`,
      {},
    );
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ error: { code: "SYSTEM.QUEUE_UNAVAILABLE" } });

    const viaTrpc = await dashboardCaller({ db, queue: down, redis, prefix }, adminId)
      .runs.start({ workflowId: hello })
      .catch((e: unknown) => e);
    expect(viaTrpc).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  } finally {
    await down.close().catch(() => undefined);
    connection.disconnect();
  }
});
