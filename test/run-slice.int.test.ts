/**
 * The thin vertical slice: a run started through the dashboard's own tRPC procedure is
 * written, enqueued, executed by a real worker process and recorded step by step.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunJob } from "@switchyard/core/runs";
import { saveWorkflowVersion, type Db } from "@switchyard/db";
import type { TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded } from "./helpers/run-stack";
import { startWorker, waitFor, type WorkerHandle } from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let worker: WorkerHandle;
let adminId: string;
let teamId: string;
let prefix: string;
let publisher: Redis;

const caller = (userId: string) => dashboardCaller({ db, queue, redis: publisher, prefix }, userId);

const finished = (userId: string, runId: string) =>
  runEnded(() => caller(userId).runs.get({ id: runId }), `run ${runId} to finish`);

beforeAll(async () => {
  ({
    database,
    db,
    queue,
    redis: publisher,
    prefix,
    adminId,
    teamId,
    worker,
  } = await openRunStack());
});
afterAll(() => closeRunStack({ database, db, queue, redis: publisher, worker }));

describe("a run started from the dashboard", () => {
  it("runs every shell step in a real worker and ends succeeded with each step's output", async () => {
    const workflows = await caller(adminId).workflows.list();
    const hello = workflows.find((w) => w.name === "hello-world");
    expect(hello).toBeDefined();

    const started = await caller(adminId).runs.start({ workflowId: hello!.id });
    expect(started.status).toBe("queued");
    const run = await finished(adminId, started.id);

    expect(run.status).toBe("succeeded");
    expect(run.trigger).toBe("dashboard");
    expect(run.startedById).toBe(adminId);
    expect(run.startedAt).toBeInstanceOf(Date);
    expect(run.finishedAt!.getTime()).toBeGreaterThanOrEqual(run.startedAt!.getTime());
    expect(run.steps.map((s) => [s.stateName, s.status, s.exitCode])).toEqual([
      ["greet", "succeeded", 0],
      ["inspect", "succeeded", 0],
    ]);
    expect(run.steps[0]!.stdout).toContain("hello from workspace");
    expect(run.steps[1]!.stdout).toMatch(/v\d+\.\d+\.\d+/);
    expect(
      (await caller(adminId).workflows.list()).find((w) => w.id === hello!.id)?.lastRun?.id,
    ).toBe(started.id);
  });

  it("marks the run failed when a shell step fails, keeping its exit code and stderr", async () => {
    const flaky = (await caller(adminId).workflows.list()).find((w) => w.name === "flaky-build")!;
    const run = await finished(
      adminId,
      (await caller(adminId).runs.start({ workflowId: flaky.id })).id,
    );

    expect(run.status).toBe("failed");
    expect(run.errorMessage).toBe("the build failed");
    const test = run.steps.find((s) => s.stateName === "test")!;
    expect(test.status).toBe("failed");
    expect(test.exitCode).toBe(3);
    expect(test.stderr).toContain("1 of 3 tests failed");
    expect(run.steps.find((s) => s.stateName === "build")?.status).toBe("succeeded");
  });

  it("fails the run with the exit code when a failing step has nowhere to go", async () => {
    const version = await saveWorkflowVersion(db, {
      teamId,
      name: "exits-seven",
      files: {
        "workflow.yaml":
          "name: exits-seven\nstates:\n  initial: boom\n  boom:\n    type: step\n    command: echo partial; exit 7\n",
      },
    });
    const run = await finished(
      adminId,
      (await caller(adminId).runs.start({ workflowId: version.workflowId })).id,
    );
    expect(run.status).toBe("failed");
    expect(run.errorCode).toBe("EXECUTION.COMMAND_FAILED");
    expect(run.errorMessage).toContain("exited with code 7");
    expect(run.steps[0]).toMatchObject({
      stateName: "boom",
      status: "failed",
      exitCode: 7,
      stdout: "partial\n",
    });
  });

  it("keeps teams apart: another team's member can neither read nor start this team's runs", async () => {
    const hello = (await caller(adminId).workflows.list()).find((w) => w.name === "hello-world")!;
    const run = await caller(adminId).runs.start({ workflowId: hello.id });
    const other = await db.team.create({ data: { slug: "other", name: "Other" } });
    const outsider = await db.user.create({
      data: { email: "outsider@test.local", name: "Outsider" },
    });
    await db.membership.create({ data: { teamId: other.id, userId: outsider.id, role: "owner" } });

    await expect(caller(outsider.id).runs.get({ id: run.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(caller(outsider.id).runs.start({ workflowId: hello.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await caller(outsider.id).workflows.list()).toEqual([]);
    await finished(adminId, run.id);
  });

  it("refuses a viewer, and leaves no run row behind", async () => {
    const hello = (await caller(adminId).workflows.list()).find((w) => w.name === "hello-world")!;
    const viewer = await db.user.create({ data: { email: "viewer@test.local", name: "Viewer" } });
    await db.membership.create({ data: { teamId, userId: viewer.id, role: "viewer" } });
    const before = await db.run.count();
    await expect(caller(viewer.id).runs.start({ workflowId: hello.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await db.run.count()).toBe(before);
  });
});

const processesWithArg = (needle: string) =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(needle);
      } catch {
        return false;
      }
    });

describe("workers", () => {
  it("announce themselves with their sandbox level, and vanish when they stop", async () => {
    const workers = await caller(adminId).system.workers();
    expect(workers).toHaveLength(1);
    expect(workers[0]).toMatchObject({ pid: worker.child.pid, concurrency: 4 });
    expect(workers[0]!.sandboxLevel).toBe(process.getuid?.() === 0 ? "strict" : "namespaces");
  });
});

describe("cancelling a run", () => {
  it("stops a running step's processes and records the run and step as cancelled", async () => {
    const version = await saveWorkflowVersion(db, {
      teamId,
      name: "sleeps",
      files: {
        "workflow.yaml":
          "name: sleeps\nstates:\n  initial: nap\n  nap:\n    type: step\n    command: echo napping; sleep 4242\n",
      },
    });
    const { id } = await caller(adminId).runs.start({ workflowId: version.workflowId });
    await waitFor(async () =>
      (await caller(adminId).runs.get({ id })).steps[0]?.status === "running" ? true : undefined,
    );
    await waitFor(
      async () => (processesWithArg("4242").length > 0 ? true : undefined),
      10_000,
      "sleep to start",
    );

    expect(await caller(adminId).runs.cancel({ id })).toEqual({ status: "cancelling" });
    const run = await finished(adminId, id);
    expect(run.status).toBe("cancelled");
    expect(run.steps[0]).toMatchObject({ stateName: "nap", status: "cancelled" });
    expect(processesWithArg("4242")).toEqual([]);
    await expect(caller(adminId).runs.cancel({ id })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("cancels a queued run before any worker takes it", async () => {
    const hello = (await caller(adminId).workflows.list()).find((w) => w.name === "hello-world")!;
    await worker.stop();
    try {
      expect(await caller(adminId).system.workers()).toEqual([]);
      const { id } = await caller(adminId).runs.start({ workflowId: hello.id });
      expect(await caller(adminId).runs.cancel({ id })).toEqual({ status: "cancelled" });
      expect(await queue.getJob(id)).toBeUndefined();
      const run = await caller(adminId).runs.get({ id });
      expect(run).toMatchObject({ status: "cancelled", errorCode: "EXECUTION.CANCELLED" });
      expect(run.steps).toEqual([]);
    } finally {
      worker = await startWorker({ DATABASE_URL: database.url, SWITCHYARD_QUEUE_PREFIX: prefix });
    }
  });
});
