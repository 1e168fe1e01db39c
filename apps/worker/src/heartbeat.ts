/**
 * Keeps this worker's heartbeat key alive in Redis while it runs, and removes it on stop.
 */
import { hostname } from "node:os";
import type { Redis } from "ioredis";
import { WORKER_HEARTBEAT_MS, WORKER_HEARTBEAT_TTL_S, workerHeartbeatKey, type WorkerInfo } from "@switchyard/core/runs";

export const startHeartbeat = (
  redis: Redis,
  prefix: string,
  info: Pick<WorkerInfo, "workerId" | "sandboxLevel" | "concurrency">,
) => {
  const key = workerHeartbeatKey(prefix, info.workerId);
  const startedAt = new Date().toISOString();
  const beat = () => {
    const value: WorkerInfo = { ...info, hostname: hostname(), pid: process.pid, startedAt, seenAt: new Date().toISOString() };
    return redis.set(key, JSON.stringify(value), "EX", WORKER_HEARTBEAT_TTL_S).catch(() => undefined);
  };
  const timer = setInterval(() => void beat(), WORKER_HEARTBEAT_MS);
  timer.unref();
  return {
    first: beat(),
    stop: async () => {
      clearInterval(timer);
      await redis.del(key).catch(() => undefined);
    },
  };
};
