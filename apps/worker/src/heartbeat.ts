/**
 * Keeps this worker's heartbeat key alive in Redis while it runs, and removes it on stop.
 * Each beat reads the agents folder again, so a CLI installed or bumped meanwhile shows.
 */
import { hostname } from "node:os";
import type { Redis } from "ioredis";
import { installedAgentVersions } from "@switchyard/core/providers";
import {
  WORKER_HEARTBEAT_MS,
  WORKER_HEARTBEAT_TTL_S,
  listWorkers,
  workerHeartbeatKey,
  type WorkerInfo,
} from "@switchyard/core/runs";

export const startHeartbeat = (
  redis: Redis,
  prefix: string,
  info: Pick<WorkerInfo, "workerId" | "sandboxLevel" | "concurrency">,
  agentsDir: string,
) => {
  const key = workerHeartbeatKey(prefix, info.workerId);
  const startedAt = new Date().toISOString();
  const beat = () => {
    const value: WorkerInfo = {
      ...info,
      hostname: hostname(),
      pid: process.pid,
      startedAt,
      seenAt: new Date().toISOString(),
      agents: installedAgentVersions(agentsDir).map(({ package: _package, ...agent }) => agent),
    };
    return redis
      .set(key, JSON.stringify(value), "EX", WORKER_HEARTBEAT_TTL_S)
      .catch(() => undefined);
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

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Another live worker on this host with the same owner id would have its steps killed by
 * this worker's boot sweep; returns that worker's description if there is one.
 */
export const liveTwin = async (
  redis: Redis,
  prefix: string,
  ownerId: string,
): Promise<string | undefined> => {
  const twin = (await listWorkers(redis, prefix, ownerId)).find(
    (w) => w.hostname === hostname() && w.pid !== process.pid && alive(w.pid),
  );
  return twin && `${twin.workerId} (pid ${twin.pid})`;
};
