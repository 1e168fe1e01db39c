/**
 * One Redis subscription per web process for "run changed" notices from the workers,
 * fanned out in memory to every live view of that run.
 */
import { Redis } from "ioredis";
import { runUpdatesChannel } from "@switchyard/core/runs";
import { env } from "~/env";

class RunUpdates {
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(redisUrl: string, prefix: string) {
    const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
    // ioredis reconnects and re-subscribes by itself; say so once per distinct error, since
    // live views fall back to polling meanwhile.
    let last = "";
    subscriber.on("error", (e: Error) => {
      if (e.message !== last)
        console.warn("switchyard-web: run updates subscription error:", e.message);
      last = e.message;
    });
    subscriber.on("ready", () => {
      last = "";
    });
    subscriber.subscribe(runUpdatesChannel(prefix)).catch((e: unknown) => {
      console.error(
        "switchyard-web: could not subscribe to run updates:",
        e instanceof Error ? e.message : e,
      );
    });
    subscriber.on("message", (_channel: string, runId: string) => {
      for (const listener of this.listeners.get(runId) ?? []) listener();
    });
  }

  /** Calls `listener` whenever the run changes; returns the function that stops it. */
  listen(runId: string, listener: () => void): () => void {
    const set = this.listeners.get(runId) ?? new Set();
    set.add(listener);
    this.listeners.set(runId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(runId);
    };
  }
}

const globals = globalThis as unknown as { __syRunUpdates?: RunUpdates };

export const runUpdates = (): RunUpdates =>
  (globals.__syRunUpdates ??= new RunUpdates(env().REDIS_URL, env().SWITCHYARD_QUEUE_PREFIX));
