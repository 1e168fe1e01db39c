/**
 * A thousand runs queued at once across two real workers (each its own id, uid range and
 * workspaces, as separate hosts would run them), from three teams: one limited to 2 runs at
 * once, one to 5, one without a limit. Every run ends succeeded, each with exactly one
 * succeeded step; no team ever runs more than its limit (sampled from the database while the
 * queue drains); the limited teams' waiting runs hold no worker slot, so while both still
 * have runs waiting, more runs are running than their two limits allow (the unlimited team's
 * in the free slots); each worker's resident memory after
 * the drain stays within a bound of its memory once warm; nothing is left behind.
 */
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import {
  createDb,
  createRun,
  createTeamWithOwner,
  enqueueRunJob,
  saveWorkflowVersion,
  type Db,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { leftoverProcesses, runFoldersLeft } from "../helpers/chaos-checks";
import { randomPrefix, startWorker, waitFor, type WorkerHandle } from "../helpers/worker-process";

/** Runs of each team: limited to 2 (short naps), limited to 5, and unlimited (no-ops). */
const TEAMS = [
  { name: "two-at-once", limit: 2, runs: 150, command: "sleep 0.2" },
  { name: "five-at-once", limit: 5, runs: 150, command: "sleep 0.2" },
  { name: "no-limit", limit: null, runs: 700, command: "true" },
] as const;
/** Worker RSS after the drain may exceed its RSS once warm by at most this much. */
const RSS_GROWTH_BOUND_MB = 96;

let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let connection: Redis;
let prefix: string;
let workspaces: string;
const workers: WorkerHandle[] = [];
const slots = [0, 1].map((i) => ({
  ownerId: `load-${i}-${Math.random().toString(36).slice(2, 8)}`,
  uidBase: 100_000 + Math.floor(Math.random() * 50_000) * 16,
}));

const rssMb = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 8 });
  await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  prefix = randomPrefix();
  connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = new Queue<RunJob>(RUN_QUEUE, { connection, prefix });
  workspaces = await mkdtemp(path.join(tmpdir(), "sy-load-ws-"));
  // Step users must be able to enter every folder above a worker's workspaces.
  await chmod(workspaces, 0o711);
  for (const slot of slots) {
    workers.push(
      await startWorker(
        {
          DATABASE_URL: database.url,
          SWITCHYARD_QUEUE_PREFIX: prefix,
          SWITCHYARD_WORKER_ID: slot.ownerId,
          SWITCHYARD_STEP_UID_BASE: String(slot.uidBase),
          SWITCHYARD_WORKSPACES_DIR: path.join(workspaces, slot.ownerId),
          WORKER_CONCURRENCY: "6",
        },
        120_000,
      ),
    );
  }
}, 300_000);

afterAll(async () => {
  for (const w of workers) await w.stop();
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  connection?.disconnect();
  await db?.$disconnect();
  await database?.drop();
  await rm(workspaces, { recursive: true, force: true });
});

it("drains 1,000 runs queued at once across 2 workers, each team within its limit, losing none", async () => {
  const admin = await db.user.findFirstOrThrow({ where: { email: "admin@test.local" } });
  const teams: ((typeof TEAMS)[number] & { id: string; ids: string[] })[] = [];
  for (const t of TEAMS) {
    const team = await createTeamWithOwner(db, { name: t.name, ownerId: admin.id });
    await db.team.update({ where: { id: team.id }, data: { maxConcurrentRuns: t.limit } });
    const yaml = `name: load\nstates:\n  initial: s\n  s:\n    type: step\n    command: ${t.command}\n    on_success: done\n  done:\n    type: terminal\n`;
    const version = await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "load",
      files: { "workflow.yaml": yaml },
    });
    const ids: string[] = [];
    for (let i = 0; i < t.runs; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, t.runs - i) }, () =>
          createRun(db, {
            teamId: team.id,
            workflowId: version.workflowId,
            workflowVersionId: version.id,
            lane: "default",
            trigger: "api",
            inputs: {},
            startedById: admin.id,
          }),
        ),
      );
      ids.push(...batch.map((r) => r.id));
    }
    teams.push({ ...t, id: team.id, ids });
  }
  const all = teams.flatMap((t) => t.ids.map((runId) => ({ runId, teamId: t.id })));
  expect(all).toHaveLength(1000);

  // Every job at once, the limited teams' first: were a waiting run to hold a slot, they
  // would fill every slot and the unlimited team would wait behind them.
  const started = Date.now();
  await Promise.all(all.map((job) => enqueueRunJob(queue, job)));

  const maxRunning = new Map<string, number>(teams.map((t) => [t.id, 0]));
  const doneAt = new Map<string, number>();
  let warmRss: number[] | undefined;
  /** The most runs running at once while both limited teams still had runs waiting. */
  let busiest = 0;
  await waitFor(
    async () => {
      const rows = await db.run.groupBy({
        by: ["teamId", "status"],
        where: { id: { in: all.map((j) => j.runId) } },
        _count: { _all: true },
      });
      const count = (teamId: string, status: string) =>
        rows.find((r) => r.teamId === teamId && r.status === status)?._count._all ?? 0;
      let running = 0;
      const limitedWait = teams.every((t) => t.limit === null || count(t.id, "queued") > 0);
      for (const t of teams) {
        maxRunning.set(t.id, Math.max(maxRunning.get(t.id)!, count(t.id, "running")));
        running += count(t.id, "running");
        if (!doneAt.has(t.id) && count(t.id, "queued") + count(t.id, "running") === 0)
          doneAt.set(t.id, Date.now() - started);
      }
      if (limitedWait) busiest = Math.max(busiest, running);
      const finished = rows
        .filter((r) => r.status !== "queued" && r.status !== "running")
        .reduce((n, r) => n + r._count._all, 0);
      // Warm: past the first hundred runs, each worker has run steps of every kind.
      if (!warmRss && finished >= 100) warmRss = workers.map((w) => rssMb(w.child.pid!));
      return doneAt.size === teams.length ? true : undefined;
    },
    600_000,
    "every run to end",
  );
  const endRss = workers.map((w) => rssMb(w.child.pid!));
  console.log(
    `[chaos] 1,000 runs drained in ${((Date.now() - started) / 1000).toFixed(1)} s; teams done at ${teams.map((t) => `${t.name} ${((doneAt.get(t.id) ?? 0) / 1000).toFixed(1)} s (max running ${maxRunning.get(t.id)})`).join(", ")}; most running at once while the limited teams waited ${busiest}; worker RSS warm ${warmRss?.map((m) => m.toFixed(0)).join("/")} MB, after ${endRss.map((m) => m.toFixed(0)).join("/")} MB`,
  );

  // None lost: every run succeeded, with exactly one succeeded step attempt and no other.
  const runs = await db.run.groupBy({
    by: ["status"],
    where: { id: { in: all.map((j) => j.runId) } },
    _count: { _all: true },
  });
  expect(runs.map((r) => [r.status, r._count._all])).toEqual([["succeeded", 1000]]);
  const steps = await db.stepRun.groupBy({
    by: ["runId", "status"],
    where: { runId: { in: all.map((j) => j.runId) } },
    _count: { _all: true },
  });
  expect(steps.filter((s) => s.status !== "succeeded" || s._count._all !== 1)).toEqual([]);
  expect(steps).toHaveLength(1000);

  // Each team within its limit, and a limited team's waiting runs held no worker slot: had
  // they, their 300 jobs (queued first) would have filled the 12 slots with at most 2 + 5
  // runs running.
  for (const t of teams)
    if (t.limit !== null) expect(maxRunning.get(t.id), t.name).toBeLessThanOrEqual(t.limit);
  expect(busiest).toBeGreaterThan(2 + 5);

  // Memory flat: no growth past the bound between warm and drained.
  for (let i = 0; i < workers.length; i++)
    expect(endRss[i]! - warmRss![i]!, `worker ${i} RSS`).toBeLessThan(RSS_GROWTH_BOUND_MB);

  // Nothing left: no sandbox process, no run folder, no job but the finished ones.
  expect(
    leftoverProcesses(
      slots.map((s) => s.ownerId),
      slots.map((s) => ({ base: s.uidBase, count: 16 })),
    ),
  ).toEqual([]);
  expect(
    await runFoldersLeft(
      workspaces,
      all.map((j) => j.runId),
    ),
  ).toEqual([]);
  const counts = await queue.getJobCounts("waiting", "active", "delayed");
  expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0 });
});
