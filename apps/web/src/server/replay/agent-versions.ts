/**
 * The agent CLI versions the replay form lists: each CLI's pinned version (scripts/agents.json)
 * and the newest a live worker has installed with `--latest` (from the workers' heartbeats,
 * which read their agents folders: the web app has none of its own).
 */
import { listWorkers } from "@switchyard/core/runs";
import type { Redis } from "ioredis";
import pins from "../../../../../scripts/agents.json";

export const agentVersions = async (redis: Redis, prefix: string) => {
  const workers = await listWorkers(redis, prefix);
  const installed = workers.flatMap((w) => w.agents ?? []);
  return {
    agents: Object.entries(pins.agents).map(([agent, pin]) => ({
      agent,
      pinned: pin.version,
      latest: installed.find((a) => a.agent === agent && a.latest !== null)?.latest ?? null,
    })),
  };
};
