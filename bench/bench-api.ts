/**
 * The REST API at scale (issue 14, target 5): with 100,000 runs and 1,000,000 tool calls
 * seeded, autocannon sends each route a fixed request rate over loopback to the built app
 * (`next start`) and the latency of every answer is kept: p50, p95 and p99 per route. The
 * baseline is GET /api/v1/lanes at the same rate: the same token check and one small query,
 * so a ratio shows what the run routes cost beyond any authenticated request of this app.
 * Every answer must be a 200, or the bench fails. Beside the latencies, each row's note gives
 * the web process's CPU per request: its CPU time (and its descendants', from /proc) over the
 * load, divided by the answers. `NEXT_CPU_PROF=1` in the environment makes `next start` write
 * a CPU profile of its whole life to apps/web/.next-profiles/ when the stack closes.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  acquireScaleStack,
  QUICK,
  releaseScaleStack,
  SCALE,
  type ScaleStack,
} from "./fixtures/scale-stack";
import type { Sample } from "./measure";

type Instance = {
  on(
    event: "response",
    listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
  ): void;
  then: Promise<{
    non2xx: number;
    errors: number;
    timeouts: number;
    requests: { total: number };
  }>["then"];
};
type Autocannon = (options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  overallRate: number;
  duration: number;
}) => Instance;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const RATE = 50;
const SECONDS = QUICK ? 5 : 20;
const CONNECTIONS = 8;

type Latency = { p50: number; p95: number; p99: number; requests: number; cpuMs: number };

/** CPU ms (user + system) of `pid` and every process below it, now; 0 for one already gone. */
const treeCpuMs = (pid: number): number => {
  let stat: string[];
  let below: number[];
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    below = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .split(" ")
      .filter(Boolean)
      .map(Number);
  } catch {
    return 0;
  }
  // After "pid (comm) ": state is field 3, so utime (14) and stime (15) sit at 11 and 12;
  // USER_HZ is 100 on Linux: a tick is 10 ms.
  const own = (Number(stat[11]) + Number(stat[12])) * 10;
  return own + below.reduce((sum, child) => sum + treeCpuMs(child), 0);
};

const pick = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** `path` at RATE requests per second for SECONDS; the latency of each answer, as the client saw it. */
const load = async (stack: ScaleStack, path: string): Promise<Latency> => {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const cpuBefore = treeCpuMs(stack.webPid);
  const instance = autocannon({
    url: `${stack.baseUrl}${path}`,
    headers: { authorization: `Bearer ${stack.token}` },
    connections: CONNECTIONS,
    overallRate: RATE,
    duration: SECONDS,
  });
  instance.on("response", (_client, status, _bytes, ms) => {
    times.push(ms);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  });
  const result = await instance;
  const cpuMs = treeCpuMs(stack.webPid) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(
      `${path}: ${result.non2xx} answers not 2xx (${JSON.stringify(Object.fromEntries(statuses))}), ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  times.sort((a, b) => a - b);
  return {
    p50: pick(times, 0.5),
    p95: pick(times, 0.95),
    p99: pick(times, 0.99),
    requests: times.length,
    cpuMs: cpuMs / Math.max(1, times.length),
  };
};

const get = async (stack: ScaleStack, path: string) => {
  const res = await fetch(`${stack.baseUrl}/api/v1${path}`, {
    headers: { authorization: `Bearer ${stack.token}` },
  });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
};

export const benchApi = async (): Promise<Sample[]> => {
  const stack = await acquireScaleStack();
  try {
    const { bigRunId, someRunId, workflowIds } = stack.seed;
    // A cursor a few pages in, as a client paging through the list holds it.
    let cursor = "";
    for (let page = 0; page < 3; page++) {
      const body = await get(stack, `/runs?limit=50${cursor ? `&cursor=${cursor}` : ""}`);
      cursor = encodeURIComponent(String(body.nextCursor));
    }
    const routes: [string, string][] = [
      ["GET /runs (first page)", "/runs?limit=50"],
      [
        "GET /runs?status=failed&workflowId=…",
        `/runs?limit=50&status=failed&workflowId=${workflowIds[0]}`,
      ],
      ["GET /runs?cursor=… (4th page)", `/runs?limit=50&cursor=${cursor}`],
      ["GET /runs/{id} (2 steps)", `/runs/${someRunId}`],
      ["GET /runs/{id} (10,000 tool calls)", `/runs/${bigRunId}`],
      ["GET /runs/{id}/tool-calls (first 100 of 10,000)", `/runs/${bigRunId}/tool-calls?limit=100`],
    ];
    // Warm the app (route compilation caches, the pool, Postgres' buffers) before measuring.
    for (const [, path] of [["", "/lanes"], ...routes])
      for (let i = 0; i < 5; i++) await get(stack, path!);
    const scale = `${SCALE.runs.toLocaleString("en")} runs, ${SCALE.toolCalls.toLocaleString("en")} calls`;
    console.error(`[bench] api: seeded ${scale} in ${(stack.seedMs / 1000).toFixed(1)} s`);
    const baseline = await load(stack, "/api/v1/lanes");
    const ms = (l: Latency) =>
      `p50 ${l.p50.toFixed(1)}, p99 ${l.p99.toFixed(1)}, web CPU ${l.cpuMs.toFixed(2)} ms/request`;
    const samples: Sample[] = [];
    for (const [name, path] of routes) {
      const subject = await load(stack, `/api/v1${path}`);
      samples.push({
        name: `API ${name} p95`,
        unit: "ms",
        baseline: baseline.p95,
        subject: subject.p95,
        note: `GET /lanes; ${RATE} req/s, ${SECONDS} s, ${scale}; ${ms(subject)} (baseline ${ms(baseline)}); target p95 <= 50 ms`,
      });
    }
    return samples;
  } finally {
    await releaseScaleStack("api");
  }
};
