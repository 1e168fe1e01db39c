/**
 * Starting with an Idempotency-Key: a retry gets the first run and enqueues nothing more,
 * the key with another request is refused with USER.IDEMPOTENCY_KEY_REUSED, and concurrent
 * starts with one key make exactly one run. Re-run starts the same version with the same
 * inputs and names the run it re-ran. Real Postgres and a real BullMQ queue (no worker).
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createApiToken, createDb, saveWorkflowVersion, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller, type RestCall } from "./helpers/rest-caller";
import { randomPrefix } from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;
let redis: Redis;
let queue: Queue<RunJob>;
let adminId: string;
let teamId: string;
let workflowId: string;
let call: RestCall;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 6 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  adminId = seeded.admin.id;
  teamId = seeded.team.id;
  redis = new Redis(process.env.REDIS_URL!);
  const prefix = randomPrefix();
  queue = new Queue<RunJob>(RUN_QUEUE, {
    connection: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null }),
    prefix,
  });
  workflowId = (
    await saveWorkflowVersion(db, {
      teamId,
      name: "keyed",
      files: {
        "workflow.yaml":
          "name: keyed\ninputs:\n  - name: n\n    type: integer\n    default: 1\nstates:\n  initial: s\n  s: { type: step, command: 'true' }\n",
      },
    })
  ).workflowId;
  const token = (await createApiToken(db, { teamId, userId: adminId, name: "keys" })).token;
  call = restCaller({ db, queue, redis, prefix }, () => token);
});
afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await db?.$disconnect();
  await database?.drop();
});

const jobs = async () =>
  (await queue.getJobs(["waiting", "delayed", "active", "prioritized"])).length;

it("returns the first run for a retried key, refuses the key with another request, and makes one run under concurrency", async () => {
  const caller = dashboardCaller({ db, queue, redis }, adminId);
  const first = await caller.runs.start({ workflowId, inputs: { n: 2 }, idempotencyKey: "key-1" });
  const before = await jobs();
  const again = await caller.runs.start({ workflowId, inputs: { n: 2 }, idempotencyKey: "key-1" });
  expect(again.id).toBe(first.id);
  expect(await jobs()).toBe(before);

  const reused = await caller.runs
    .start({ workflowId, inputs: { n: 3 }, idempotencyKey: "key-1" })
    .catch((e: unknown) => e);
  expect(reused).toMatchObject({
    code: "BAD_REQUEST",
    message: expect.stringContaining("Idempotency-Key") as unknown,
  });

  const concurrent = await Promise.all(
    Array.from({ length: 6 }, () =>
      caller.runs.start({ workflowId, inputs: { n: 5 }, idempotencyKey: "key-race" }),
    ),
  );
  expect(new Set(concurrent.map((r) => r.id)).size).toBe(1);
  const listed = await caller.runs.list({ workflowId, limit: 200 });
  expect(listed.runs.filter((r) => r.id === concurrent[0]!.id)).toHaveLength(1);
  expect(listed.runs).toHaveLength(2);
  expect(await jobs()).toBe(before + 1);
});

it("over REST: 202 then 200 with the same run, 422 with a clear code for another request", async () => {
  const post = (key: string, body: unknown) =>
    call("POST", `/workflows/${workflowId}/runs`, { body, headers: { "idempotency-key": key } });
  const first = await post("rest-key", { inputs: { n: 7 } });
  expect(first.status).toBe(202);
  const again = await post("rest-key", { inputs: { n: 7 } });
  expect(again).toMatchObject({ status: 200, body: { id: first.body.id } });
  const other = await post("rest-key", { inputs: { n: 8 } });
  expect(other).toMatchObject({
    status: 422,
    body: { error: { code: "USER.IDEMPOTENCY_KEY_REUSED" } },
  });
});

it("re-runs a run: same version and inputs, rerunOfId set, the caller's surface as trigger", async () => {
  const caller = dashboardCaller({ db, queue, redis }, adminId);
  const original = await caller.runs.start({ workflowId, inputs: { n: 9 } });
  const rerun = await caller.runs.rerun({ id: original.id });
  const detail = await caller.runs.get({ id: rerun.id });
  const before = await caller.runs.get({ id: original.id });
  expect(detail).toMatchObject({
    rerunOfId: original.id,
    trigger: "dashboard",
    inputs: { n: 9 },
    startedBy: { id: adminId },
  });
  expect(detail.version).toEqual(before.version);
  const viaRest = await call("POST", `/runs/${original.id}/rerun`);
  expect(viaRest.status).toBe(202);
  expect((await caller.runs.get({ id: viaRest.body.id as string })).trigger).toBe("api");
  await expect(caller.runs.rerun({ id: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
});
