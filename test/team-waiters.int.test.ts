/**
 * The waiting runs of a limited team, against real Redis and BullMQ: when one of the team's
 * runs ends, the oldest waiting run whose job is still delayed is promoted at once (not at
 * the end of its backoff) and taken before the jobs queued meanwhile; runs that wait no
 * more, or whose jobs are gone or no longer delayed, are passed over; another team's waiting
 * runs are untouched.
 */
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { teamWaiters, type TeamWaiters } from "../apps/worker/src/team-waiters";
import { randomPrefix } from "./helpers/worker-process";

let redis: Redis;
let queue: Queue<RunJob>;
let waiters: TeamWaiters;

beforeAll(() => {
  const prefix = randomPrefix();
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = new Queue<RunJob>(RUN_QUEUE, { connection: redis, prefix });
  waiters = teamWaiters({ redis, queue, prefix });
});
afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
});

/** A run's job, delayed for an hour, as a limited run's is between its tries. */
const waitingRun = async (teamId: string, runId: string, since: number) => {
  await queue.add("run", { runId, teamId }, { jobId: runId, delay: 3_600_000 });
  await waiters.waiting(teamId, runId, since);
};

it("promotes the oldest waiting run of the team when one of its runs ends, one per end", async () => {
  await waitingRun("team-a", "run-a2", 2000);
  await waitingRun("team-a", "run-a1", 1000);
  await waitingRun("team-a", "run-a3", 3000);
  await waitingRun("team-b", "run-b1", 500);
  expect(await waiters.promoteNext("team-a")).toBe("run-a1");
  expect(await queue.getJobState("run-a1")).toBe("waiting");
  expect(await queue.getJobState("run-a2")).toBe("delayed");
  expect(await queue.getJobState("run-b1")).toBe("delayed");
  expect(await waiters.promoteNext("team-a")).toBe("run-a2");
  expect(await queue.getJobState("run-a3")).toBe("delayed");
});

it("passes over runs that wait no more, and jobs gone or no longer delayed", async () => {
  await waitingRun("team-c", "run-c1", 1000);
  await waitingRun("team-c", "run-c2", 2000);
  await waitingRun("team-c", "run-c3", 3000);
  await waitingRun("team-c", "run-c4", 4000);
  await waiters.done("team-c", "run-c1");
  await (await queue.getJob("run-c2"))!.remove();
  await (await queue.getJob("run-c3"))!.promote();
  expect(await waiters.promoteNext("team-c")).toBe("run-c4");
  expect(await waiters.promoteNext("team-c")).toBeUndefined();
  expect(await waiters.promoteNext("no-such-team")).toBeUndefined();
});

it("keeps a run's place when it waits again after a try", async () => {
  await waitingRun("team-d", "run-d1", 1000);
  await waitingRun("team-d", "run-d2", 2000);
  // run-d2 was tried and waits again: the time it first waited keeps its place.
  await waiters.waiting("team-d", "run-d2", 9999);
  await waitingRun("team-d", "run-d3", 1500);
  expect(await waiters.promoteNext("team-d")).toBe("run-d1");
  expect(await waiters.promoteNext("team-d")).toBe("run-d3");
  expect(await waiters.promoteNext("team-d")).toBe("run-d2");
});

it("puts the promoted run before the jobs that queued while it waited", async () => {
  await waitingRun("team-e", "run-e1", 1000);
  for (const id of ["later-1", "later-2", "later-3"])
    await queue.add("run", { runId: id, teamId: "team-f" }, { jobId: id });
  expect(await waiters.promoteNext("team-e")).toBe("run-e1");
  const taken: string[] = [];
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const worker = new Worker<RunJob>(RUN_QUEUE, async (job) => void taken.push(job.data.runId), {
    connection,
    prefix: queue.opts.prefix,
    concurrency: 1,
  });
  try {
    const deadline = Date.now() + 20_000;
    const mine = () => taken.filter((id) => id === "run-e1" || id.startsWith("later-"));
    while (mine().length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  } finally {
    await worker.close();
    connection.disconnect();
  }
  // Jobs promoted by the tests above run first too; run-e1 comes before the later ones.
  const order = taken.filter((id) => id === "run-e1" || id.startsWith("later-"));
  expect(order).toEqual(["run-e1", "later-1", "later-2", "later-3"]);
});
