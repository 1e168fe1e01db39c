/**
 * Schedules fire through BullMQ job schedulers: with two real worker processes sharing one
 * queue prefix and a per-second cron, every fire starts exactly one run, and a paused
 * schedule starts none. A worker re-creates a scheduler Redis lost when it boots.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { TRIGGER_QUEUE, triggerSchedulerId, type TriggerJob } from "@switchyard/core/triggers";
import { triggerRunTimes, getRun } from "@switchyard/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, type RunStack } from "./helpers/run-stack";
import { startWorker, waitFor, type WorkerHandle } from "./helpers/worker-process";

let stack: RunStack;
let second: WorkerHandle | undefined;
let connection: Redis;
let triggerQueue: Queue<TriggerJob>;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const caller = () =>
  dashboardCaller(
    { db: stack.db, queue: stack.queue, redis: connection, prefix: stack.prefix, keyring },
    stack.adminId,
  );

beforeAll(async () => {
  stack = await openRunStack();
  second = await startWorker({
    DATABASE_URL: stack.database.url,
    SWITCHYARD_QUEUE_PREFIX: stack.prefix,
  });
  connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  triggerQueue = new Queue<TriggerJob>(TRIGGER_QUEUE, { connection, prefix: stack.prefix });
}, 90_000);
afterAll(async () => {
  await second?.stop();
  await triggerQueue?.obliterate({ force: true }).catch(() => undefined);
  await triggerQueue?.close();
  await closeRunStack(stack);
  connection?.disconnect();
}, 90_000);

/** The fire time a scheduler's job stands for: its id ends with it. */
const fireTimeOf = (jobId: string | undefined) => Number(/:(\d+)$/.exec(jobId ?? "")?.[1]);

describe("schedule triggers", () => {
  it("refuses a bad cron naming the field, and shows the next three fire times of a good one", async () => {
    const hello = (await caller().workflows.list()).find((w) => w.name === "hello-world")!;
    await expect(
      caller().triggers.create({
        workflowId: hello.id,
        kind: "schedule",
        cron: "0 25 * * *",
        timezone: "UTC",
      }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/^hour field "25"/) as unknown,
      cause: { code: "USER.TRIGGER.INVALID_SCHEDULE", location: { path: "cron" } },
    });
    await expect(
      caller().triggers.create({
        workflowId: hello.id,
        kind: "schedule",
        cron: "0 9 * * *",
        timezone: "Nowhere/City",
      }),
    ).rejects.toMatchObject({
      cause: { location: { path: "timezone" } },
    });
    const { trigger, secret } = await caller().triggers.create({
      workflowId: hello.id,
      kind: "schedule",
      cron: "0 9 * * 1",
      timezone: "Europe/Paris",
      paused: true,
    });
    expect(secret).toBeNull();
    expect(trigger.nextFires).toEqual([]);
    const resumed = await caller().triggers.resume({ id: trigger.id });
    expect(resumed.nextFires).toHaveLength(3);
    for (const t of resumed.nextFires) expect(new Date(t).getUTCDay()).toBe(1);
    expect(await triggerQueue.getJobScheduler(triggerSchedulerId(trigger.id))).toMatchObject({
      pattern: "0 9 * * 1",
      tz: "Europe/Paris",
    });
    await caller().triggers.delete({ id: trigger.id });
    expect(await triggerQueue.getJobScheduler(triggerSchedulerId(trigger.id))).toBeFalsy();
  });

  it("with two workers, each per-second fire starts exactly one run; paused, none", async () => {
    const hello = (await caller().workflows.list()).find((w) => w.name === "hello-world")!;
    const { trigger } = await caller().triggers.create({
      workflowId: hello.id,
      kind: "schedule",
      cron: "*/1 * * * * *",
      timezone: "UTC",
    });
    await sleep(3_500);
    await caller().triggers.pause({ id: trigger.id });
    // Let a fire already taken by a worker finish starting its run.
    await sleep(1_500);
    const runs = await triggerRunTimes(stack.db, stack.teamId, trigger.id);
    const fired = (await triggerQueue.getJobs(["completed"], 0, -1)).filter(
      (j) => j.data.triggerId === trigger.id && (j.returnvalue as { runId?: string } | null)?.runId,
    );
    const fireTimes = new Set(fired.map((j) => fireTimeOf(j.id)));
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(fireTimes.size).toBe(fired.length);
    expect(runs.length).toBe(fireTimes.size);
    expect(new Set(fired.map((j) => (j.returnvalue as { runId: string }).runId))).toEqual(
      new Set(runs.map((r) => r.id)),
    );

    const run = await getRun(stack.db, stack.teamId, runs[0]!.id);
    expect(run).toMatchObject({
      trigger: "schedule",
      triggerId: trigger.id,
      startedById: stack.adminId,
    });
    const read = await caller().triggers.get({ id: trigger.id });
    expect(runs.map((r) => r.id)).toContain(read.lastRunId);
    expect(read.lastError).toBeNull();

    await sleep(2_000);
    expect((await triggerRunTimes(stack.db, stack.teamId, trigger.id)).length).toBe(runs.length);
    await caller().triggers.delete({ id: trigger.id });
  }, 60_000);

  it("a worker booting re-creates the scheduler of an active schedule that Redis lost, and drops one with no trigger", async () => {
    const hello = (await caller().workflows.list()).find((w) => w.name === "hello-world")!;
    const { trigger } = await caller().triggers.create({
      workflowId: hello.id,
      kind: "schedule",
      cron: "0 0 1 1 *",
      timezone: "UTC",
    });
    await triggerQueue.removeJobScheduler(triggerSchedulerId(trigger.id));
    await triggerQueue.upsertJobScheduler(
      triggerSchedulerId("gone"),
      { pattern: "0 0 1 1 *" },
      { name: "fire", data: { triggerId: "gone", teamId: stack.teamId } },
    );
    await second?.stop();
    second = await startWorker({
      DATABASE_URL: stack.database.url,
      SWITCHYARD_QUEUE_PREFIX: stack.prefix,
    });
    const restored = await waitFor(
      async () => (await triggerQueue.getJobScheduler(triggerSchedulerId(trigger.id))) ?? undefined,
      10_000,
      "the scheduler to be restored",
    );
    expect(restored).toMatchObject({ pattern: "0 0 1 1 *" });
    expect(await triggerQueue.getJobScheduler(triggerSchedulerId("gone"))).toBeFalsy();
  }, 60_000);
});
