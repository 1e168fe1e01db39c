/**
 * Throughput across hosts: no-op one-step runs drained by workers on other machines, against
 * one worker on this machine in the same run. Two cores cannot show workers scaling (one
 * worker already keeps them busy: docs/benchmarks.md, section 3); hosts with cores of their
 * own can. The bench makes a fresh database and a run queue on the PostgreSQL and Redis it
 * is given (SWITCHYARD_BENCH_DATABASE_URL and SWITCHYARD_BENCH_REDIS_URL, which the worker
 * hosts reach too), prints what each worker host is to run, waits for SWITCHYARD_BENCH_HOSTS
 * workers' heartbeats, and drains the same backlog once with the local worker (on a queue
 * of its own) and once with the hosts' workers. docs/deploy.md, "Benchmarks across hosts".
 */
import { Redis } from "ioredis";
import { listWorkers } from "@switchyard/core/runs";
import { randomPrefix } from "../test/helpers/worker-process";
import { drain, openSetup, startRuns, startWorkers } from "./bench-throughput";
import type { Sample } from "./measure";

const ROW = "no-op runs/s, worker hosts vs 1 local worker";
const HOSTS_WAIT_MS = 10 * 60_000;

/** The connection string with its password hidden, as the worker hosts are told it. */
const shown = (url: string) => {
  const u = new URL(url);
  if (u.password) u.password = "PASSWORD";
  return u.toString();
};

export const benchHosts = async (): Promise<Sample[]> => {
  const hosts = Number(process.env.SWITCHYARD_BENCH_HOSTS ?? "0");
  if (!Number.isInteger(hosts) || hosts < 1 || !process.env.SWITCHYARD_BENCH_DATABASE_URL)
    return [
      {
        name: ROW,
        unit: "/s",
        baseline: 0,
        subject: 0,
        skipped:
          "needs worker hosts: SWITCHYARD_BENCH_HOSTS, SWITCHYARD_BENCH_DATABASE_URL and SWITCHYARD_BENCH_REDIS_URL (docs/deploy.md)",
      },
    ];
  const n = process.env.SWITCHYARD_BENCH_QUICK === "1" ? 100 : 1000;
  const local = await openSetup();
  const remote = await openSetup(randomPrefix());
  const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  try {
    // The baseline: one worker here, on the local setup's queue, which no host takes from.
    const [worker] = await startWorkers(local, 1, 4);
    let baseline: Awaited<ReturnType<typeof drain>>;
    try {
      // A few runs first, so the worker has loaded its modules and made its pools.
      await local.tracker.until(await startRuns(local, 4));
      baseline = await drain(local, n);
    } finally {
      await worker!.stop();
    }

    console.error(
      [
        `[bench] hosts: start a worker on each of ${hosts} hosts with this environment, then the bench goes on:`,
        `  DATABASE_URL=${shown(remote.databaseUrl)}  (this bench's database; PASSWORD as in SWITCHYARD_BENCH_DATABASE_URL)`,
        `  REDIS_URL=${shown(process.env.REDIS_URL!)}  (PASSWORD as in SWITCHYARD_BENCH_REDIS_URL)`,
        `  SWITCHYARD_QUEUE_PREFIX=${remote.prefix}`,
        "  and its own SWITCHYARD_WORKER_ID, then: npm run worker",
      ].join("\n"),
    );
    const deadline = Date.now() + HOSTS_WAIT_MS;
    let seen = 0;
    while ((seen = (await listWorkers(redis, remote.prefix)).length) < hosts) {
      if (Date.now() > deadline)
        throw new Error(`${seen} of ${hosts} worker hosts came in ${HOSTS_WAIT_MS / 60_000} min`);
      await new Promise((r) => setTimeout(r, 2000));
    }
    await remote.tracker.until(await startRuns(remote, 4 * hosts));
    const subject = await drain(remote, n);
    console.log(
      `throughput across hosts: ${hosts} hosts ${subject.rate.toFixed(1)} runs/s (${subject.statuses}), 1 local worker ${baseline.rate.toFixed(1)} runs/s (${baseline.statuses})`,
    );
    return [
      {
        name: ROW,
        unit: "/s",
        baseline: baseline.rate,
        subject: subject.rate,
        note: `${hosts} hosts' workers (their WORKER_CONCURRENCY as set there); 1 worker x 4 on this machine; ${n} runs each`,
      },
    ];
  } finally {
    redis.disconnect();
    await remote.close();
    await local.close();
  }
};
