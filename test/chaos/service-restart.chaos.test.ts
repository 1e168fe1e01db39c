/**
 * Redis, then PostgreSQL, restarted under a real worker in the middle of its runs. Each test
 * starts a server of its own (test/helpers/private-services.ts: the suite's shared servers
 * are never touched), runs shell and agent workflows on it, and restarts it while steps and
 * tool calls are under way; Redis comes back empty, as it does without persistence. Every
 * run must end, succeeded or failed with a SYSTEM.* error that says what happened (none left
 * queued or running), and no tool-call record may be silently lost: each agent run holds one
 * for every result the scripted model got back.
 *
 * Redis: a restart empties the queue, so the worker's running runs lose their job locks and
 * stop ("taken over") and its queued ones lose their jobs. The worker's requeue sweep
 * (apps/worker/src/requeue-sweep.ts), run when its Redis connection is back and
 * periodically, adds their jobs again and the runs resume from their checkpoints; the
 * team's schedules, whose job schedulers Redis lost too, are made again.
 *
 * PostgreSQL: a restart cuts every connection. The worker's writes (a run's progress, an
 * agent step's tool calls and spans) wait for the server and are sent again once it is
 * back, each stored once (SWITCHYARD_DB_OUTAGE_MS bounds the wait); the runs go on.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { TRIGGER_QUEUE } from "@switchyard/core/triggers";
import { createDb, saveWorkflowVersion, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { conversationsOf, leftoverProcesses } from "../helpers/chaos-checks";
import { agentWorkflow, chaosMarker, shellWorkflow, tickRules } from "../helpers/chaos-workflows";
import { dashboardCaller } from "../helpers/dashboard-caller";
import {
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from "../helpers/private-services";
import {
  buildSwitchyardCli,
  randomPrefix,
  startWorker,
  waitFor,
  type WorkerHandle,
} from "../helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

const CALLS = 4;
const KEY = "sk-chaos-restart-key-3d81f0a7c2e9";
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);

let model: ScriptedModel;

beforeAll(async () => {
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: { turns: [], rules: tickRules(CALLS, 400, 600) },
  });
}, 240_000);
afterAll(async () => {
  await model?.close();
});

type Stack = {
  database: TestDatabase;
  db: Db;
  redisUrl: string;
  redis: Redis;
  queue: Queue<RunJob>;
  prefix: string;
  adminId: string;
  teamId: string;
  worker?: WorkerHandle;
  ownerId: string;
};

const openStack = async (databaseBase: string | undefined, redisUrl: string): Promise<Stack> => {
  const database = await freshDatabase(databaseBase);
  const db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  const prefix = randomPrefix();
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  redis.on("error", () => undefined);
  const queueConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  queueConnection.on("error", () => undefined);
  const queue = new Queue<RunJob>(RUN_QUEUE, { connection: queueConnection, prefix });
  queue.on("error", () => undefined);
  const ownerId = `restart-${Math.random().toString(36).slice(2, 8)}`;
  const stack: Stack = {
    database,
    db,
    redisUrl,
    redis,
    queue,
    prefix,
    adminId: seeded.admin.id,
    teamId: seeded.team.id,
    ownerId,
  };
  await caller(stack).variables.set({
    name: "MODEL_KEY",
    value: KEY,
    secret: true,
    lanes: ["default"],
  });
  stack.worker = await startWorker(
    {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      SWITCHYARD_QUEUE_PREFIX: prefix,
      SWITCHYARD_WORKER_ID: ownerId,
      SWITCHYARD_JOB_LOCK_MS: "3000",
      SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
      SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
      WORKER_CONCURRENCY: "3",
    },
    120_000,
  );
  return stack;
};

const closeStack = async (stack: Stack | undefined) => {
  if (!stack) return;
  await stack.worker?.stop();
  await stack.queue.obliterate({ force: true }).catch(() => undefined);
  await stack.queue.close().catch(() => undefined);
  stack.redis.disconnect();
  await stack.db.$disconnect();
  await stack.database.drop();
};

function caller(stack: Stack) {
  return dashboardCaller(
    { db: stack.db, queue: stack.queue, redis: stack.redis, prefix: stack.prefix, keyring },
    stack.adminId,
  );
}

/** Starts agent and shell runs (more than the worker takes at once, so some wait queued). */
const startRuns = async (stack: Stack, name: string) => {
  const agent = (
    await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: `${name}-agent`,
      files: { "workflow.yaml": agentWorkflow(`${name}-agent`, model.url) },
    })
  ).workflowId;
  const shell = (
    await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: `${name}-shell`,
      files: { "workflow.yaml": shellWorkflow(`${name}-shell`, 4, 1000) },
    })
  ).workflowId;
  const runs: { id: string; tag?: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const tag = `${name}${i}x${Math.random().toString(36).slice(2, 6)}`;
    runs.push({
      id: (await caller(stack).runs.start({ workflowId: agent, inputs: { tag } })).id,
      tag,
    });
    runs.push({ id: (await caller(stack).runs.start({ workflowId: shell })).id });
  }
  return runs;
};

/** Every run ended, succeeded or failed with a SYSTEM.* error; tool-call records complete. */
const expectNothingLost = async (stack: Stack, runs: { id: string; tag?: string }[]) => {
  const ids = runs.map((r) => r.id);
  const read = () =>
    stack.db.run.findMany({
      where: { id: { in: ids } },
      select: { id: true, status: true, errorCode: true, errorMessage: true },
    });
  const ended = await waitFor(
    async () => {
      const rows = await read();
      return rows.every((r) => r.status !== "queued" && r.status !== "running") ? rows : undefined;
    },
    120_000,
    "every run to end",
  ).catch(async (e: Error) => {
    throw new Error(
      `${e.message}: ${JSON.stringify(await read())}\n${stack.worker?.logs().slice(-4000)}`,
    );
  });
  const why =
    JSON.stringify(ended) +
    stack
      .worker!.logs()
      .split("\n")
      .filter((l) => /"level":"(warn|error)"/.test(l))
      .slice(-30)
      .join("\n");
  console.log(
    `[chaos] ${JSON.stringify(ended.map((r) => [r.status, r.errorCode, r.errorMessage]))}`,
  );
  for (const run of ended) {
    if (run.status === "succeeded") continue;
    expect(run.status, why).toBe("failed");
    expect(run.errorCode, why).toMatch(/^SYSTEM\./);
    expect(run.errorMessage, why).toBeTruthy();
  }
  const records = await stack.db.toolCall.groupBy({
    by: ["runId"],
    where: { runId: { in: ids } },
    _count: { _all: true },
  });
  const recorded = new Map(records.map((r) => [r.runId, r._count._all]));
  for (const run of runs.filter((r) => r.tag)) {
    const talks = conversationsOf(model.requests, chaosMarker(run.tag!), CALLS);
    const seen = talks.reduce((n, c) => n + c.resultsSeen, 0);
    const issued = talks.reduce((n, c) => n + c.issued, 0);
    const count = recorded.get(run.id) ?? 0;
    expect(
      { run: run.id, seenAtMost: Math.min(seen, count), issuedAtLeast: Math.max(issued, count) },
      why,
    ).toEqual({ run: run.id, seenAtMost: seen, issuedAtLeast: issued });
  }
  expect(leftoverProcesses([stack.ownerId])).toEqual([]);
  return ended;
};

/** Waits until some agent has had a tool result back and a shell step is running. */
const midRun = (stack: Stack, runs: { id: string; tag?: string }[]) =>
  waitFor(
    async () => {
      const calls = await stack.db.toolCall.count({
        where: { runId: { in: runs.map((r) => r.id) } },
      });
      const running = await stack.db.stepRun.count({
        where: { runId: { in: runs.map((r) => r.id) }, status: "running" },
      });
      return calls > 0 && running > 0 ? true : undefined;
    },
    90_000,
    "tool calls recorded and a step running",
  );

describe("Redis restarted mid-run", () => {
  let redis: PrivateRedis | undefined;
  let stack: Stack | undefined;
  afterAll(async () => {
    await closeStack(stack);
    await redis?.stop();
  });

  it("ends every run, resumed or failed with a SYSTEM.* error, losing no tool-call record, and makes its schedules again", async () => {
    redis = await startPrivateRedis();
    stack = await openStack(undefined, redis.url);
    const s = stack;
    const hello = await saveWorkflowVersion(s.db, {
      teamId: s.teamId,
      name: "redis-tick",
      files: { "workflow.yaml": shellWorkflow("redis-tick", 1, 10) },
    });
    // Once a year: it must be there again after the restart, without its runs in the way.
    const { trigger } = await caller(s).triggers.create({
      workflowId: hello.workflowId,
      kind: "schedule",
      cron: "0 0 1 1 *",
      timezone: "UTC",
    });
    const triggerQueue = new Queue(TRIGGER_QUEUE, { connection: s.redis, prefix: s.prefix });
    triggerQueue.on("error", () => undefined);
    const schedulers = async () => (await triggerQueue.getJobSchedulers(0, -1)).map((j) => j.key);
    expect(await schedulers()).toHaveLength(1);
    const runs = await startRuns(s, "redis");
    await midRun(s, runs);
    await redis.restart(1000);
    const ended = await expectNothingLost(s, runs);
    expect(ended.length).toBe(runs.length);
    // Redis came back empty; the schedule's job scheduler is made again from Postgres.
    expect(
      await waitFor(
        async () => ((await schedulers()).length > 0 ? schedulers() : undefined),
        60_000,
        "the schedule to be made again",
      ),
    ).toHaveLength(1);
    await caller(s).triggers.pause({ id: trigger.id });
    await triggerQueue.close();
    // The worker is still of use: a run started now succeeds.
    const after = await startRuns(stack, "redis-after");
    const again = await expectNothingLost(stack, after);
    expect(again.map((r) => r.status)).toEqual(after.map(() => "succeeded"));
  });
});

describe("PostgreSQL restarted mid-run", () => {
  let postgres: PrivatePostgres | undefined;
  let stack: Stack | undefined;
  afterAll(async () => {
    await closeStack(stack);
    await postgres?.stop();
  });

  it("ends every run, resumed or failed with a SYSTEM.* error, losing no tool-call record", async () => {
    postgres = await startPrivatePostgres();
    stack = await openStack(postgres.url, process.env.REDIS_URL!);
    const runs = await startRuns(stack, "pg");
    await midRun(stack, runs);
    await postgres.restart(2000);
    await expectNothingLost(stack, runs);
    const after = await startRuns(stack, "pg-after");
    const again = await expectNothingLost(stack, after);
    expect(again.map((r) => r.status)).toEqual(after.map(() => "succeeded"));
  });
});
