/**
 * A team's limit on runs running at once (Team.maxConcurrentRuns), against real Postgres,
 * Redis and worker processes: the claim is race-safe (many claims at once never start more
 * than the limit), a run over the limit stays queued with one `run.waiting` event saying
 * why, a run already running is resumed whatever the limit, and across two real workers a
 * team limited to 1 never has two runs running while another team's runs go on in the
 * free slots (a waiting run holds no worker slot).
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunJob } from "@switchyard/core/runs";
import {
  claimQueuedRun,
  claimRun,
  createRun,
  createTeamWithOwner,
  enqueueRunJob,
  listRunEvents,
  saveWorkflowVersion,
  type Db,
} from "@switchyard/db";
import type { TestDatabase } from "@switchyard/testing/db";
import { closeRunStack, openRunStack } from "./helpers/run-stack";
import { startWorker, waitFor, type WorkerHandle } from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let redis: Redis;
let prefix: string;
let worker: WorkerHandle;
let second: WorkerHandle | undefined;
let adminId: string;
let teamId: string;

beforeAll(async () => {
  ({ database, db, queue, redis, prefix, adminId, teamId, worker } = await openRunStack({
    WORKER_CONCURRENCY: "2",
  }));
}, 120_000);
afterAll(async () => {
  await second?.stop();
  await closeRunStack({ database, db, queue, redis, worker });
});

const sleeper = (name: string, seconds: number) =>
  `name: ${name}\nstates:\n  initial: nap\n  nap:\n    type: step\n    command: sleep ${seconds}\n    on_success: done\n  done:\n    type: terminal\n`;

const newTeam = async (name: string, maxConcurrentRuns: number | null) => {
  const team = await createTeamWithOwner(db, { name, ownerId: adminId });
  await db.team.update({ where: { id: team.id }, data: { maxConcurrentRuns } });
  return team.id;
};

const queuedRuns = async (team: string, workflow: string, seconds: number, count: number) => {
  const saved = await saveWorkflowVersion(db, {
    teamId: team,
    name: workflow,
    files: { "workflow.yaml": sleeper(workflow, seconds) },
  });
  const runs = [];
  for (let i = 0; i < count; i++) {
    runs.push(
      await createRun(db, {
        teamId: team,
        workflowId: saved.workflowId,
        workflowVersionId: saved.id,
        lane: "default",
        trigger: "api",
        inputs: {},
        startedById: adminId,
      }),
    );
  }
  return runs.map((r) => r.id);
};

it("claims at most the team's limit when many workers claim at once, and says once why a run waits", async () => {
  const team = await newTeam("claim race", 2);
  const ids = await queuedRuns(team, "raced", 1, 12);
  const claims = await Promise.all(
    ids.map((id, i) => claimQueuedRun(db, team, id, `worker-${i % 4}`)),
  );
  expect(claims.filter((c) => typeof c === "object")).toHaveLength(2);
  expect(claims.filter((c) => c === "limited")).toHaveLength(10);
  expect(await db.run.count({ where: { teamId: team, status: "running" } })).toBe(2);

  // Claimed again (another delay over): still waiting, and the reason is recorded once.
  const waiting = ids.filter((_, i) => claims[i] === "limited");
  expect(await claimQueuedRun(db, team, waiting[0]!, "worker-0")).toBe("limited");
  const events = await listRunEvents(db, team, waiting[0]!);
  expect(events.filter((e) => e.type === "run.waiting")).toHaveLength(1);
  expect(events.find((e) => e.type === "run.waiting")?.payload).toMatchObject({
    reason: "team_limit",
    limit: 2,
  });
  expect((await db.run.findUniqueOrThrow({ where: { id: waiting[0]! } })).status).toBe("queued");

  // A run already running (its worker died) is taken over whatever the limit.
  const running = ids[claims.findIndex((c) => typeof c === "object")]!;
  expect(
    await claimRun(db, team, running, "worker-9", {
      status: "running",
      workerId: (await db.run.findUniqueOrThrow({ where: { id: running } })).workerId,
    }),
  ).toBe(true);

  // A run that is not queued any more is not "limited": it is simply not claimed.
  expect(await claimQueuedRun(db, team, running, "worker-0")).toBeUndefined();

  // Raising the limit lets the next claim through; no limit claims in one statement.
  await db.team.update({ where: { id: team }, data: { maxConcurrentRuns: 3 } });
  expect(typeof (await claimQueuedRun(db, team, waiting[1]!, "worker-0"))).toBe("object");
  expect(await claimQueuedRun(db, team, waiting[2]!, "worker-0")).toBe("limited");
  await db.team.update({ where: { id: team }, data: { maxConcurrentRuns: null } });
  expect(typeof (await claimQueuedRun(db, team, waiting[2]!, "worker-0"))).toBe("object");
});

it("keeps a team limited to 1 at one running run across two workers while another team's runs use the free slots", async () => {
  second = await startWorker(
    { DATABASE_URL: database.url, SWITCHYARD_QUEUE_PREFIX: prefix, WORKER_CONCURRENCY: "2" },
    90_000,
  );
  const limited = await newTeam("limited to one", 1);
  const slow = await queuedRuns(limited, "slow", 2, 6);
  const quick = await queuedRuns(teamId, "quick", 0.3, 6);
  // The limited team's runs are queued first: were a waiting run to hold a slot, they would
  // fill all four slots and the other team would wait for them.
  for (const id of slow) await enqueueRunJob(queue, { runId: id, teamId: limited });
  for (const id of quick) await enqueueRunJob(queue, { runId: id, teamId });

  let most = 0;
  const sampler = setInterval(() => {
    void db.run
      .count({ where: { teamId: limited, status: "running" } })
      .then((n) => (most = Math.max(most, n)));
  }, 50);
  try {
    await waitFor(
      async () =>
        (await db.run.count({
          where: { id: { in: [...slow, ...quick] }, status: { in: ["queued", "running"] } },
        })) === 0
          ? true
          : undefined,
      90_000,
      "every run to end",
    );
  } finally {
    clearInterval(sampler);
  }
  const runs = await db.run.findMany({
    where: { id: { in: [...slow, ...quick] } },
    orderBy: { startedAt: "asc" },
  });
  expect(runs.map((r) => r.status)).toEqual(runs.map(() => "succeeded"));
  expect(most).toBe(1);

  const slowRuns = runs.filter((r) => r.teamId === limited);
  // Never two of the limited team's runs at once: each starts after the one before ended.
  for (let i = 1; i < slowRuns.length; i++)
    expect(slowRuns[i]!.startedAt!.getTime()).toBeGreaterThanOrEqual(
      slowRuns[i - 1]!.finishedAt!.getTime(),
    );
  // The other team did not wait for them: all its runs ended before the limited team's fourth began.
  const quickEnd = Math.max(
    ...runs.filter((r) => r.teamId === teamId).map((r) => r.finishedAt!.getTime()),
  );
  expect(quickEnd).toBeLessThan(slowRuns[3]!.startedAt!.getTime());
  // A run that waited says so in its events.
  const waited = await Promise.all(
    slow.map(async (id) =>
      (await listRunEvents(db, limited, id)).some((e) => e.type === "run.waiting"),
    ),
  );
  expect(waited.filter(Boolean).length).toBeGreaterThan(0);
}, 150_000);
