"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";

/** How many workers are alive and the sandbox level they run steps at. */
export function WorkerStatus() {
  const trpc = useTRPC();
  const workers = useQuery({ ...trpc.system.workers.queryOptions(), refetchInterval: 5000 });
  if (!workers.data) return null;
  const n = workers.data.length;
  const levels = [...new Set(workers.data.map((w) => w.sandboxLevel))];
  return (
    <span
      className={`muted small ${n === 0 || levels.includes("none") ? "warn" : ""}`}
      data-testid="worker-status"
    >
      {n === 0
        ? "no worker running"
        : `${n} worker${n > 1 ? "s" : ""} · sandbox ${levels.join(", ")}`}
    </span>
  );
}
