/**
 * Workers announce themselves in Redis with a short-lived key, so the dashboard can show
 * which workers are alive and at which sandbox level they run steps.
 */
import { z } from "zod";

/** How often a worker renews its heartbeat key. */
export const WORKER_HEARTBEAT_MS = 5_000;
/** How long a heartbeat key lives without renewal. */
export const WORKER_HEARTBEAT_TTL_S = 15;

/** The Redis key of a worker's heartbeat. */
export const workerHeartbeatKey = (prefix: string, workerId: string) =>
  `${prefix}:workers:${workerId}`;

/** What a worker's heartbeat key holds. */
export const workerInfoSchema = z.object({
  workerId: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  sandboxLevel: z.enum(["strict", "namespaces", "none"]),
  concurrency: z.number().int(),
  startedAt: z.string(),
  seenAt: z.string(),
});

export type WorkerInfo = z.infer<typeof workerInfoSchema>;
