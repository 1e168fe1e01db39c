/**
 * Throughput: no-op one-step runs per second drained from a backlog by 1 and by 2 real worker
 * processes (sandboxed, each as a separate host would run it: its own worker id, step-uid
 * range and workspaces folder), the queue wait at 80% of that rate, and the CPU each part
 * used while draining (workers with their steps, Postgres, Redis, this process), against a
 * bare BullMQ no-op worker on the same Redis. SWITCHYARD_BENCH_QUICK=1 shrinks it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { Queue, QueueEvents, Worker } from "bullmq";
import { Redis } from "ioredis";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { spawnServersOf } from "@switchyard/core/sandbox";
import { createDb, saveWorkflowVersion, startRun, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import { randomPrefix, startWorker, type WorkerHandle } from "../test/helpers/worker-process";
import type { Sample } from "./measure";

export type ThroughputOptions = { quick?: boolean };

const CONNECTORS_MAX = 8;
/** Uids a worker takes: WORKER_CONCURRENCY for steps, then SWITCHYARD_CONNECTORS_MAX for connectors. */
const UID_STRIDE = 64;
/** Far above the ranges test workers pick (100,000 + up to 800,000), so no bench worker shares a uid with one. */
const uidBase = () => 3_000_000 + Math.floor(Math.random() * 10_000) * 1024;

const connection = () => new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

// --- CPU accounting from /proc (clock ticks; 100 per second on Linux) -------------------
const TICK_MS = 10;
const ticksOf = (pid: number | string, withChildren: boolean) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    // fields 14..17 of stat: utime stime cutime cstime (here offset by the 2 fields before ")")
    return f[11]! + f[12]! + (withChildren ? f[13]! + f[14]! : 0);
  } catch {
    return 0;
  }
};
const processesNamed = (comm: string) =>
  readdirSync("/proc").filter((p) => {
    if (!/^\d+$/.test(p)) return false;
    try {
      return readFileSync(`/proc/${p}/comm`, "utf8").trim() === comm;
    } catch {
      return false;
    }
  });
const machineTicks = () => {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]!.split(/\s+/).slice(1).map(Number);
  const idle = cpu[3]! + cpu[4]!;
  return { total: cpu.reduce((a, b) => a + b, 0), idle };
};

type CpuSnapshot = {
  at: number;
  workers: number;
  steps: number;
  postgres: Map<string, number>;
  redis: number;
  self: NodeJS.CpuUsage;
  machine: { total: number; idle: number };
};
/**
 * Postgres processes that work for this bench: the backends of its database (their title names
 * it) and the server's own (WAL writer, checkpointer...), not other databases' backends.
 */
const postgresOf = (database: string) =>
  processesNamed("postgres").filter((p) => {
    try {
      const title = readFileSync(`/proc/${p}/cmdline`, "utf8");
      return !/^postgres: \S+ \S+ \d/.test(title) || title.includes(` ${database} `);
    } catch {
      return false;
    }
  });
/** A worker and the spawn server that starts its sandboxes (and reaps them). */
const workerProcesses = (w: WorkerHandle) => [w.child.pid!, ...spawnServersOf(w.child.pid!)];
const snapshot = (workers: WorkerHandle[], database: string): CpuSnapshot => ({
  at: performance.now(),
  workers: workers.flatMap(workerProcesses).reduce((sum, pid) => sum + ticksOf(pid, false), 0),
  // the step processes (setpriv, launcher, bwrap, the command) once they have been reaped
  steps: workers
    .flatMap(workerProcesses)
    .reduce((sum, pid) => sum + ticksOf(pid, true) - ticksOf(pid, false), 0),
  postgres: new Map(postgresOf(database).map((p) => [p, ticksOf(p, false)])),
  redis: processesNamed("redis-server").reduce((sum, p) => sum + ticksOf(p, false), 0),
  self: process.cpuUsage(),
  machine: machineTicks(),
});
/** Share of one core (100 = one core busy) each part used between two snapshots. */
const cpuBetween = (a: CpuSnapshot, b: CpuSnapshot) => {
  const wall = b.at - a.at;
  const pct = (ticks: number) => Math.round(((ticks * TICK_MS) / wall) * 100);
  let pg = 0;
  for (const [pid, t] of b.postgres) pg += t - (a.postgres.get(pid) ?? 0);
  const self = process.cpuUsage(a.self);
  const total = b.machine.total - a.machine.total;
  return {
    workers: pct(b.workers - a.workers),
    steps: pct(b.steps - a.steps),
    postgres: pct(pg),
    redis: pct(b.redis - a.redis),
    bench: Math.round(((self.user + self.system) / 1000 / wall) * 100),
    machineBusy: Math.round(
      ((total - (b.machine.idle - a.machine.idle)) / total) *
        100 *
        readdirSync("/sys/devices/system/cpu").filter((d) => /^cpu\d+$/.test(d)).length,
    ),
  };
};
type Cpu = ReturnType<typeof cpuBetween>;
const describeCpu = (c: Cpu) =>
  `cpu % of a core: workers ${c.workers}, their steps ${c.steps}, postgres ${c.postgres}, redis ${c.redis}, bench ${c.bench}; machine busy ${c.machineBusy}`;

// --- the bare baseline ---------------------------------------------------------------------
const bareThroughput = async (n: number, concurrency: number) => {
  const prefix = randomPrefix();
  const queue = new Queue("bare", { connection: connection(), prefix });
  await queue.addBulk(
    Array.from({ length: n }, (_, i) => ({
      name: "j",
      data: { i },
      opts: { removeOnComplete: { count: 1000 } },
    })),
  );
  let done = 0;
  let finished: () => void = () => undefined;
  const all = new Promise<void>((r) => (finished = r));
  const t0 = performance.now();
  const worker = new Worker("bare", async () => "ok", {
    connection: connection(),
    prefix,
    concurrency,
  });
  worker.on("completed", () => {
    if (++done === n) finished();
  });
  await all;
  const rate = n / ((performance.now() - t0) / 1000);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return rate;
};

// --- the subject -------------------------------------------------------------------------
export type Setup = {
  db: Db;
  queue: Queue<RunJob>;
  tracker: ReturnType<typeof completionTracker>;
  prefix: string;
  teamId: string;
  userId: string;
  workflowId: string;
  databaseUrl: string;
  databaseName: string;
};

export const startRuns = (s: Setup, n: number) =>
  Promise.all(
    Array.from({ length: n }, () =>
      startRun(
        { db: s.db, queue: s.queue },
        {
          teamId: s.teamId,
          userId: s.userId,
          role: "owner",
          workflowId: s.workflowId,
          trigger: "api",
        },
      ).then((r) => r.id),
    ),
  );

/**
 * Records every run job that ends from the moment it is made, so a run that finishes before
 * anyone waits for it is not missed; `until(ids)` resolves with the statuses the worker returned.
 */
const completionTracker = (events: QueueEvents) => {
  const ended = new Map<string, string>();
  let wake = () => undefined as void;
  const onEnd = ({ jobId, returnvalue }: { jobId: string; returnvalue?: unknown }) => {
    ended.set(jobId, String((returnvalue as { status?: string } | undefined)?.status ?? "failed"));
    wake();
  };
  events.on("completed", onEnd);
  events.on("failed", onEnd);
  return {
    until: async (ids: string[]) => {
      const deadline = Date.now() + 300_000;
      for (;;) {
        const left = ids.filter((id) => !ended.has(id)).length;
        if (left === 0) break;
        if (Date.now() > deadline)
          throw new Error(`${left} of ${ids.length} runs not finished in 5 min`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, 1000);
          wake = () => {
            clearTimeout(t);
            r();
          };
        });
      }
      const statuses: Record<string, number> = {};
      for (const id of ids) statuses[ended.get(id)!] = (statuses[ended.get(id)!] ?? 0) + 1;
      return statuses;
    },
  };
};

/** Queue waits (added → taken by a worker) and run times (taken → finished) of the runs' jobs, sorted. */
const jobTimes = async (s: Setup, ids: string[]) => {
  const jobs = await Promise.all(ids.map((id) => s.queue.getJob(id)));
  const waits: number[] = [];
  const service: number[] = [];
  for (const job of jobs) {
    if (!job?.processedOn || !job.finishedOn) continue;
    waits.push(job.processedOn - job.timestamp);
    service.push(job.finishedOn - job.processedOn);
  }
  return { waits: waits.sort((a, b) => a - b), service: service.sort((a, b) => a - b) };
};

const killWorkersWithId = (id: string) => {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (
        readFileSync(`/proc/${pid}/environ`, "latin1")
          .split("\0")
          .includes(`SWITCHYARD_WORKER_ID=${id}`)
      )
        process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone already, or not ours to read
    }
  }
};

export const startWorkers = async (s: Setup, count: number, concurrency: number) => {
  if (concurrency + CONNECTORS_MAX > UID_STRIDE)
    throw new Error(`concurrency ${concurrency} needs more than ${UID_STRIDE} uids per worker`);
  const base = uidBase();
  const tag = Math.random().toString(36).slice(2, 8);
  // Each as a separate host would run it: its own id, uid range and workspaces (startWorker
  // makes the folder). One at a time, with two minutes each to boot, and once more after
  // that: on a loaded machine workers booting together are slow.
  const workers: WorkerHandle[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const env = {
        DATABASE_URL: s.databaseUrl,
        SWITCHYARD_QUEUE_PREFIX: s.prefix,
        SWITCHYARD_WORKER_ID: `bench-${tag}-${i}`,
        SWITCHYARD_STEP_UID_BASE: String(base + i * UID_STRIDE),
        WORKER_CONCURRENCY: String(concurrency),
        SWITCHYARD_CONNECTORS_MAX: String(CONNECTORS_MAX),
      };
      workers.push(
        await startWorker(env, 120_000).catch(() => {
          // startWorker leaves a worker that missed its time running: stop it before the retry.
          killWorkersWithId(env.SWITCHYARD_WORKER_ID);
          return startWorker(
            { ...env, SWITCHYARD_WORKER_ID: `${env.SWITCHYARD_WORKER_ID}-again` },
            120_000,
          );
        }),
      );
    }
    return workers;
  } catch (error) {
    await Promise.all(workers.map((w) => w.stop()));
    throw error;
  }
};

/**
 * Drains a backlog of `n` runs: enqueued with the queue paused, timed from its resume
 * (`onStart` runs just before) to the last completion.
 */
export const drain = async (s: Setup, n: number, onStart: () => void = () => undefined) => {
  await s.queue.pause();
  const ids = await startRuns(s, n);
  const done = s.tracker.until(ids);
  onStart();
  const t0 = performance.now();
  await s.queue.resume();
  const ended = await done;
  const rate = n / ((performance.now() - t0) / 1000);
  const { service } = await jobTimes(s, ids);
  const statuses = Object.entries(ended)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  return { rate, statuses, service };
};

type Measured = {
  rate: number;
  waitP50: number;
  waitP95: number;
  serviceP50: number;
  cpu: Cpu;
  level: string;
  statuses: string;
};

const measure = async (
  s: Setup,
  workerCount: number,
  concurrency: number,
  n: number,
): Promise<Measured> => {
  const workers = await startWorkers(s, workerCount, concurrency);
  try {
    const level = /"sandboxLevel":"(\w+)"/.exec(workers[0]!.logs())?.[1] ?? "unknown";
    // Warm up every worker (module loading, pools, the first sandbox) before timing.
    const warm = await startRuns(s, 4 * workerCount);
    await s.tracker.until(warm);

    // 1. Drain a backlog, with the CPU each part used meanwhile.
    let before: CpuSnapshot | undefined;
    const drained = await drain(s, n, () => (before = snapshot(workers, s.databaseName)));
    const after = snapshot(workers, s.databaseName);
    const { rate, statuses, service } = drained;

    // 2. Open-loop arrivals at 80% of that rate: how long a run waits in the queue.
    const arrivals = Math.max(20, Math.round(n / 2));
    const gap = 1000 / (0.8 * rate);
    const t0 = performance.now();
    const started: Promise<string[]>[] = [];
    for (let i = 0; i < arrivals; i++) {
      const due = t0 + i * gap - performance.now();
      if (due > 0) await sleep(due);
      started.push(startRuns(s, 1));
    }
    const paced = (await Promise.all(started)).flat();
    await s.tracker.until(paced);
    const { waits } = await jobTimes(s, paced);
    return {
      rate,
      waitP50: pick(waits, 0.5),
      waitP95: pick(waits, 0.95),
      serviceP50: pick(service, 0.5),
      cpu: cpuBetween(before!, after),
      level,
      statuses,
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
};

/**
 * A fresh database with the demo seed and a one-step no-op workflow, and a run queue on a
 * prefix of its own; `close` removes them.
 */
export const openSetup = async (
  prefix = randomPrefix(),
): Promise<Setup & { close: () => Promise<void> }> => {
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 8 });
  const queue = new Queue<RunJob>(RUN_QUEUE, { connection: connection(), prefix });
  queue.setMaxListeners(0); // many starts at once each wait on the queue's connection
  const events = new QueueEvents(RUN_QUEUE, { connection: connection(), prefix });
  const close = async () => {
    await events.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await db.$disconnect();
    await database.drop();
  };
  try {
    await events.waitUntilReady();
    const { team, admin } = await seed(db, {
      adminEmail: "bench@local",
      adminPassword: "bench-password",
    });
    const version = await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "bench-throughput",
      files: {
        "workflow.yaml":
          "name: bench-throughput\nstates:\n  initial: s\n  s:\n    type: step\n    command: 'true'\n",
      },
    });
    return {
      db,
      queue,
      tracker: completionTracker(events),
      prefix,
      teamId: team.id,
      userId: admin.id,
      workflowId: version.workflowId,
      databaseUrl: database.url,
      databaseName: new URL(database.url).pathname.slice(1),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
};

export const benchThroughput = async (options: ThroughputOptions = {}): Promise<Sample[]> => {
  const quick = options.quick ?? process.env.SWITCHYARD_BENCH_QUICK === "1";
  const n = quick ? 50 : 200;
  const bare = await bareThroughput(quick ? 500 : 2000, 4);

  const s = await openSetup();
  try {
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    const one = await measure(s, 1, 4, n);
    const two = await measure(s, 2, 4, n);
    // WORKER_CONCURRENCY's effect on one worker (the full run only).
    const concurrencies = quick ? [] : [1, 8];
    const others: [number, Measured][] = [];
    for (const c of concurrencies) others.push([c, await measure(s, 1, c, n)]);

    for (const [label, m] of [
      ["1 worker x 4", one],
      ["2 workers x 4", two],
      ...others.map(([c, m]) => [`1 worker x ${c}`, m] as const),
    ] as const) {
      console.log(
        `throughput ${label} (${m.level} sandbox): ${m.rate.toFixed(1)} runs/s, run p50 ${m.serviceP50} ms, queue wait at 80% p50 ${m.waitP50} ms p95 ${m.waitP95} ms; ${m.statuses}; ${describeCpu(m.cpu)}; load ${load}`,
      );
    }
    return [
      {
        name: `no-op runs/s, 1 worker x 4 (${one.level})`,
        unit: "/s",
        baseline: bare,
        subject: one.rate,
        note: `bare BullMQ no-op jobs/s (x 4); ${describeCpu(one.cpu)}`,
      },
      {
        name: `no-op runs/s, 2 workers x 4 vs 1 (${two.level})`,
        unit: "/s",
        baseline: one.rate,
        subject: two.rate,
        note: `1 worker x 4 (target 1.7x); ${describeCpu(two.cpu)}`,
      },
      {
        name: "queue wait p95 at 80% of rate, 1 worker",
        unit: "ms",
        baseline: one.serviceP50,
        subject: one.waitP95,
        note: "a run's own time in the worker (p50)",
      },
      {
        name: "queue wait p95 at 80% of rate, 2 workers",
        unit: "ms",
        baseline: two.serviceP50,
        subject: two.waitP95,
        note: "a run's own time in the worker (p50)",
      },
      ...others.map(([c, m]): Sample => ({
        name: `no-op runs/s, 1 worker x ${c} vs x 4`,
        unit: "/s",
        baseline: one.rate,
        subject: m.rate,
        note: `WORKER_CONCURRENCY 4; ${describeCpu(m.cpu)}`,
      })),
    ];
  } finally {
    await s.close();
  }
};
