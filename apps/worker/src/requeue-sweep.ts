/**
 * The requeue sweep: finds open runs (queued or running) whose BullMQ job is gone, as after
 * Redis restarts without persistence, or finished while the run is still open, and enqueues
 * them again with the job id and data a start gives them. The worker that takes such a job
 * claims a queued run, or resumes a running one from its checkpoint. A `waiting` run whose
 * parked waits are all closed (answered or expired) but whose resume never reached the queue
 * (a crash between the answer and the enqueue) is taken up the same way: its finished job is
 * retried, or a missing one added.
 *
 * What it leaves alone, so that it never races whoever else is at work on a run:
 * - runs younger than `minAgeMs` (their starter may not have added the job yet) and jobs
 *   that finished less than `minAgeMs` ago (their run may be about to be closed);
 * - a run whose job exists and is waiting, delayed or active: someone has it;
 * - a running run held by another live worker (its heartbeat key is there): that worker's
 *   own sweep stops its execution first, then adds the job, so a worker never executes one
 *   job id twice at once (BullMQ keeps one lock per job id in a worker);
 * - a running run this worker is still stopping.
 * Every run is read again just before its job is added; adding an existing job id does
 * nothing, so several workers may sweep at once.
 *
 * It runs every `intervalMs` and when the Redis connection is ready again after being lost,
 * once the workers' heartbeats (which Redis lost with the rest) have had time to come back;
 * `onBack` runs at once then (the schedules are made again, say).
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { WORKER_HEARTBEAT_MS, workerHeartbeatKey, type RunJob } from "@switchyard/core/runs";
import {
  enqueueRunJob,
  listOpenRuns,
  unchangedOpenRuns,
  type Db,
  type OpenRun,
} from "@switchyard/db";
import type { Logger } from "./logger";

type SweepDeps = {
  db: Db;
  queue: Queue<RunJob>;
  /** where the workers' heartbeats are */
  redis: Redis;
  prefix: string;
  /** this worker's id, as it writes it on the runs it holds */
  workerId: string;
  /**
   * Stops this worker's execution of a run whose job is gone (its lock went with it), if it
   * has one; true while that execution has not ended yet.
   */
  stopHere: (runId: string) => boolean;
  log: Logger;
  /** Runs created, and jobs finished, less than this long ago are left alone. */
  minAgeMs: number;
};

type Lost = { run: OpenRun; job: "missing" | "completed" | "failed" };

/** Whether a run's job is lost, and how: gone, or finished (for a while) while the run is open. */
const lostJob = async (deps: SweepDeps, run: OpenRun): Promise<Lost | undefined> => {
  const state = await deps.queue.getJobState(run.id);
  if (state === "unknown") return { run, job: "missing" };
  if (state !== "completed" && state !== "failed") return undefined;
  const job = await deps.queue.getJob(run.id);
  if (!job?.finishedOn || Date.now() - job.finishedOn < deps.minAgeMs) return undefined;
  return { run, job: state };
};

/** One sweep: the runs whose job it added again, and this worker's runs still stopping. */
export const sweepLostRuns = async (deps: SweepDeps) => {
  const { db, queue, log } = deps;
  const open = await listOpenRuns(db, new Date(Date.now() - deps.minAgeMs));
  const { redis } = deps;
  const holders = new Map<string, Promise<boolean>>();
  const liveHolder = (workerId: string) => {
    let live = holders.get(workerId);
    if (!live)
      holders.set(
        workerId,
        (live = redis.exists(workerHeartbeatKey(deps.prefix, workerId)).then((n: number) => n > 0)),
      );
    return live;
  };
  const stopping: string[] = [];
  const lost: Lost[] = [];
  await Promise.all(
    open.map(async (run) => {
      const found = await lostJob(deps, run);
      if (!found) return;
      if (run.status === "running" && run.workerId) {
        if (run.workerId === deps.workerId) {
          if (deps.stopHere(run.id)) return void stopping.push(run.id);
        } else if (await liveHolder(run.workerId)) return;
      }
      lost.push(found);
    }),
  );
  const still = new Set(
    (
      await unchangedOpenRuns(
        db,
        lost.map((l) => l.run),
      )
    ).map((r) => r.id),
  );
  const requeued: string[] = [];
  for (const { run, job } of lost) {
    if (!still.has(run.id)) continue;
    try {
      if (job === "missing") await enqueueRunJob(queue, { runId: run.id, teamId: run.teamId });
      else
        await (
          await queue.getJob(run.id)
        )?.retry(job, { resetAttemptsMade: true, resetAttemptsStarted: true });
      requeued.push(run.id);
      log.warn("enqueued a run again whose job was lost", {
        runId: run.id,
        status: run.status,
        job,
      });
    } catch (e) {
      // Another sweep took it up first (the job is no longer finished), or Redis went again.
      log.info("could not enqueue a run again; the next sweep will look again", {
        runId: run.id,
        error: (e as Error).message,
      });
    }
  }
  return { requeued, stopping };
};

/** While this worker's own runs are still stopping, the sweep comes back after this long. */
const STOPPING_RETRY_MS = 1000;

/**
 * Sweeps `queue` (on `connection`) every `intervalMs`, and when the connection is ready
 * again after an error or a close (then after `settleMs`, by which time every live worker
 * has written its heartbeat again).
 */
export const startRequeueSweep = (
  options: Omit<SweepDeps, "redis"> & {
    connection: Redis;
    intervalMs: number;
    /**
     * How long the sweep waits after a reconnect, so live workers have written their heartbeats again.
     * @default 2 * WORKER_HEARTBEAT_MS
     */
    settleMs?: number;
    onBack?: () => Promise<unknown>;
  },
) => {
  const deps = { ...options, redis: options.connection };
  const settleMs = options.settleMs ?? 2 * WORKER_HEARTBEAT_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  /** Whether the connection was lost since it was last ready. */
  let lost = false;
  /** When the connection came back: sweeps wait until settleMs after it. */
  let backAt = 0;
  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, ms);
    timer.unref();
  };
  function run() {
    if (stopped || running) return;
    const settling = backAt + settleMs - Date.now();
    if (settling > 0) return schedule(settling);
    running = sweepLostRuns(deps)
      .then(({ stopping }) => schedule(stopping.length > 0 ? STOPPING_RETRY_MS : deps.intervalMs))
      .catch((e: Error) => {
        deps.log.warn("requeue sweep failed; it will run again", { error: e.message });
        schedule(deps.intervalMs);
      })
      .finally(() => (running = undefined));
  }
  const onLost = () => {
    lost = true;
  };
  const onReady = () => {
    if (!lost) return;
    lost = false;
    backAt = Date.now();
    schedule(settleMs);
    options.onBack?.().catch((e: Error) =>
      deps.log.warn("could not restore what Redis lost; the next boot does", {
        error: e.message,
      }),
    );
  };
  deps.connection.on("error", onLost);
  deps.connection.on("close", onLost);
  deps.connection.on("ready", onReady);
  schedule(deps.intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      deps.connection.off("error", onLost);
      deps.connection.off("close", onLost);
      deps.connection.off("ready", onReady);
      await running;
    },
  };
};
