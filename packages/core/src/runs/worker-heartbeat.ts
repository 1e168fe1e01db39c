/**
 * Workers announce themselves in Redis with a short-lived key, so the dashboard can show
 * which workers are alive, at which sandbox level they run steps and which versions of
 * the agent CLIs they hold.
 */
import { z } from "zod";

/** How often a worker renews its heartbeat key. */
export const WORKER_HEARTBEAT_MS = 5_000;
/** How long a heartbeat key lives without renewal. */
export const WORKER_HEARTBEAT_TTL_S = 15;

/** The Redis key of a worker's heartbeat. */
export const workerHeartbeatKey = (prefix: string, workerId: string) =>
  `${prefix}:workers:${workerId}`;

/** An agent CLI of the worker's agents folder: its pin, what is installed, and whether that drifted from the pin. */
const workerAgentSchema = z.object({
  agent: z.string(),
  pinned: z.string(),
  installed: z.string().nullable(),
  latest: z.string().nullable(),
  drift: z.boolean(),
});

/** What a worker's heartbeat key holds. */
export const workerInfoSchema = z.object({
  workerId: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  sandboxLevel: z.enum(["strict", "namespaces", "none"]),
  concurrency: z.number().int(),
  startedAt: z.string(),
  seenAt: z.string(),
  /** The agent CLIs in its agents folder, read at each beat (absent from older workers). */
  agents: z.array(workerAgentSchema).optional(),
});

export type WorkerInfo = z.infer<typeof workerInfoSchema>;
