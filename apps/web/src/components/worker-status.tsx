"use client";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";

/**
 * How many workers are alive and the sandbox level they run steps at, and whether one holds
 * an agent CLI at another version than its pin; a link to the Workers page.
 */
export function WorkerStatus() {
  const trpc = useTRPC();
  const workers = useQuery({ ...trpc.system.workers.queryOptions(), refetchInterval: 5000 });
  if (!workers.data) return null;
  const n = workers.data.length;
  const levels = [...new Set(workers.data.map((w) => w.sandboxLevel))];
  const drift = workers.data.some((w) => w.agents?.some((a) => a.drift));
  return (
    <Link
      href="/workers"
      className={`muted small ${n === 0 || levels.includes("none") || drift ? "warn" : ""}`}
      data-testid="worker-status"
    >
      {n === 0
        ? "no worker running"
        : `${n} worker${n > 1 ? "s" : ""} · sandbox ${levels.join(", ")}${drift ? " · ⚠ CLI version" : ""}`}
    </Link>
  );
}
