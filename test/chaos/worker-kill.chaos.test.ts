/**
 * Workers SIGKILLed mid-step, again and again: two real workers take runs of three kinds
 * (shell steps, an openai_compatible agent step that runs Bash through its sandboxed proxy,
 * and a step that fails until its retry policy gives up), and one of them is killed at a
 * random moment while it holds a running step, then started again, CHAOS_KILLS times (20).
 * Once the rest has finished, every run has ended as its workflow says (succeeded, or failed
 * by its own retry policy), no step attempt succeeded twice, no process of any sandbox
 * (by owner tag or step uid) and no run folder is left, and each agent run holds a tool-call
 * record for every result the scripted model got back and none it never asked for.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createDb, saveWorkflowVersion, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { agentWorkflow, chaosMarker, shellWorkflow, tickRules } from "../helpers/chaos-workflows";
import {
  attemptsSucceededTwice,
  conversationsOf,
  leftoverProcesses,
  runFoldersLeft,
  statesSucceededTwice,
} from "../helpers/chaos-checks";
import { dashboardCaller } from "../helpers/dashboard-caller";
import {
  buildSwitchyardCli,
  randomPrefix,
  startWorker,
  waitFor,
  type WorkerHandle,
} from "../helpers/worker-process";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";

const KILLS = Number(process.env.CHAOS_KILLS ?? 20);
const ACTIVE_RUNS = 5;
const CALLS = 3;
/** Results the model got this close before a kill are counted apart, to show the test reached them. */
const RECORD_GRACE_MS = 2000;
const KEY = "sk-chaos-model-key-7e2b9c41d05a";
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);

/** A worker's place: its owner id and uids stay, its process is replaced after each kill. */
type Slot = {
  ownerId: string;
  uidBase: number;
  worker?: WorkerHandle;
  booting?: Promise<void>;
  /** Why its last boot failed, to fail the test at once. */
  failed?: Error;
};

let database: TestDatabase;
let db: Db;
let redis: Redis;
let queue: Queue<RunJob>;
let prefix: string;
let model: ScriptedModel;
let workspaces: string;
let adminId: string;
let teamId: string;
// Three slots: while a killed worker boots again (seconds, on a loaded machine) the others go on.
const slots: Slot[] = [0, 1, 2].map((i) => ({
  ownerId: `chaos-${i}-${Math.random().toString(36).slice(2, 8)}`,
  uidBase: 100_000 + Math.floor(Math.random() * 50_000) * 16,
}));
const caller = () => dashboardCaller({ db, queue, redis, prefix, keyring }, adminId);

const bootSlot = async (slot: Slot) => {
  slot.worker = undefined;
  slot.worker = await startWorker(
    {
      DATABASE_URL: database.url,
      SWITCHYARD_QUEUE_PREFIX: prefix,
      SWITCHYARD_WORKER_ID: slot.ownerId,
      SWITCHYARD_STEP_UID_BASE: String(slot.uidBase),
      // Shared by both slots: a slot's new worker sweeps the run folders its killed one left.
      SWITCHYARD_WORKSPACES_DIR: workspaces,
      SWITCHYARD_JOB_LOCK_MS: "3000",
      SWITCHYARD_MODEL_ENDPOINTS: `${model.url}/v1`,
      SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
      WORKER_CONCURRENCY: "2",
    },
    120_000,
  );
};

// Fails every time: its retry policy (2 attempts) decides how the run ends.
const GIVES_UP = `name: chaos-gives-up
states:
  initial: warm
  warm: { type: step, command: "sleep 0.5", on_success: flaky }
  flaky:
    type: step
    command: "sleep 0.5; exit 3"
    retry:
      max_attempts: 2
      initial_delay: 500ms
      backoff: constant
    on_success: done
  done: { type: terminal }
`;

type Kind = "shell" | "agent" | "gives-up";
const started: { id: string; kind: Kind; tag: string }[] = [];
const kills: { at: number; slot: number; steps: string[] }[] = [];

beforeAll(async () => {
  buildSwitchyardCli();
  model = await startScriptedModel({
    host: "127.0.0.1",
    script: { turns: [], rules: tickRules(CALLS) },
  });
  database = await freshDatabase();
  db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  adminId = seeded.admin.id;
  teamId = seeded.team.id;
  prefix = randomPrefix();
  redis = new Redis(process.env.REDIS_URL!);
  queue = new Queue<RunJob>(RUN_QUEUE, {
    connection: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null }),
    prefix,
  });
  workspaces = await mkdtemp(path.join(tmpdir(), "sy-chaos-ws-"));
  await caller().variables.set({ name: "MODEL_KEY", value: KEY, secret: true, lanes: ["default"] });
  await Promise.all(slots.map(bootSlot));
}, 180_000);

afterAll(async () => {
  for (const slot of slots) await slot.worker?.stop();
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await db?.$disconnect();
  await database?.drop();
  await model?.close();
  await rm(workspaces, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it(
  `ends every run as its workflow says, leaving nothing behind, across ${KILLS} worker SIGKILLs mid-step`,
  { timeout: 420_000 },
  async () => {
    const workflows: Record<Kind, string> = {
      shell: (
        await saveWorkflowVersion(db, {
          teamId,
          name: "chaos-shell",
          files: { "workflow.yaml": shellWorkflow("chaos-shell") },
        })
      ).workflowId,
      agent: (
        await saveWorkflowVersion(db, {
          teamId,
          name: "chaos-agent",
          files: { "workflow.yaml": agentWorkflow("chaos-agent", model.url) },
        })
      ).workflowId,
      "gives-up": (
        await saveWorkflowVersion(db, {
          teamId,
          name: "chaos-gives-up",
          files: { "workflow.yaml": GIVES_UP },
        })
      ).workflowId,
    };
    const kinds: Kind[] = ["agent", "shell", "agent", "gives-up", "shell"];
    const t0 = Date.now();
    const topUp = async () => {
      const active = await db.run.count({
        where: { teamId, status: { in: ["queued", "running"] } },
      });
      for (let i = active; i < ACTIVE_RUNS; i++) {
        const kind = kinds[started.length % kinds.length]!;
        const tag = `r${started.length}x${Math.random().toString(36).slice(2, 6)}`;
        const { id } = await caller().runs.start({
          workflowId: workflows[kind],
          ...(kind === "agent" ? { inputs: { tag } } : {}),
        });
        started.push({ id, kind, tag });
      }
    };

    /** What the runs still going are doing, and their jobs, for a failure message. */
    const stuck = async () => {
      const open = await db.run.findMany({
        where: { teamId, status: { in: ["queued", "running"] } },
        select: {
          id: true,
          status: true,
          workerId: true,
          steps: { select: { stateName: true, attempt: true, status: true } },
        },
      });
      const jobs = await Promise.all(
        open.map(async (r) => {
          const job = await queue.getJob(r.id);
          return job ? `${await job.getState()} ${job.failedReason ?? ""}` : "no job";
        }),
      );
      return JSON.stringify(
        open.map((r, i) => ({ ...r, job: jobs[i] })),
        null,
        1,
      );
    };
    while (kills.length < KILLS) {
      await topUp();
      // A live worker holding a step that is running right now.
      const victim = await waitFor(
        async () => {
          const broken = slots.find((x) => x.failed);
          if (broken) throw broken.failed!;
          // Runs keep coming while the workers are busy finishing the last ones.
          await topUp();
          const running = await db.stepRun.findMany({
            where: { teamId, status: "running", run: { status: "running" } },
            select: { stateName: true, stepType: true, run: { select: { workerId: true } } },
          });
          const held = slots
            .map((s, i) => ({
              i,
              pid: s.worker?.child.pid,
              steps: running.filter(
                (r) => s.worker && r.run.workerId === `${s.ownerId}:${s.worker.child.pid}`,
              ),
            }))
            .filter((h) => h.steps.length > 0);
          // Never the last live worker: the runs it holds would wait for a whole boot.
          const live = slots.filter((s) => s.worker).length;
          return held.length > 0 && live >= 2
            ? held[Math.floor(Math.random() * held.length)]
            : undefined;
        },
        90_000,
        "a worker holding a running step",
      ).catch(async (e: Error) => {
        throw new Error(`${e.message} after ${kills.length} kills: ${await stuck()}`);
      });
      // A random moment inside the step (or just after it, into the next).
      await sleep(Math.floor(Math.random() * 900));
      const slot = slots[victim.i]!;
      const child = slot.worker?.child;
      if (!child || child.pid !== victim.pid) continue;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
      kills.push({
        at: Date.now(),
        slot: victim.i,
        steps: victim.steps.map((s) => `${s.stepType}:${s.stateName}`),
      });
      console.log(
        `[chaos] kill ${kills.length} at ${Math.round((Date.now() - t0) / 1000)} s: slot ${victim.i} in ${kills.at(-1)!.steps.join(", ")}`,
      );
      // Booted again in the background, with the same owner id: its boot sweep finds what the killed one left.
      slot.booting = bootSlot(slot);
      slot.booting.catch((e: Error) => (slot.failed = e)); // awaited below
    }
    for (const s of slots) await s.booting;

    // The survivors finish everything.
    const ids = started.map((s) => s.id);
    await waitFor(
      async () =>
        (await db.run.count({
          where: { id: { in: ids }, status: { in: ["queued", "running"] } },
        })) === 0
          ? true
          : undefined,
      180_000,
      "every run to end",
    );
    const runs = await db.run.findMany({
      where: { id: { in: ids } },
      select: { id: true, status: true, errorCode: true, errorMessage: true },
    });
    const byId = new Map(runs.map((r) => [r.id, r]));
    const steps = await db.stepRun.findMany({
      where: { runId: { in: ids } },
      orderBy: { createdAt: "asc" },
      select: {
        runId: true,
        stateName: true,
        attempt: true,
        status: true,
        exitCode: true,
        errorCode: true,
      },
    });
    const stepsOf = (id: string) =>
      steps
        .filter((s) => s.runId === id)
        .map(
          (s) => `${s.stateName}#${s.attempt}:${s.status}${s.errorCode ? `(${s.errorCode})` : ""}`,
        );
    const summary = started.map((s) => ({
      kind: s.kind,
      status: byId.get(s.id)?.status,
      error: byId.get(s.id)?.errorCode,
      steps: stepsOf(s.id),
    }));
    const why = JSON.stringify({ kills, summary }, null, 1);
    console.log(
      `[chaos] ${kills.length} kills over ${started.length} runs in ${Math.round((Date.now() - t0) / 1000)} s:\n${why}`,
    );

    let rerunPastPolicy = 0;
    for (const s of started) {
      const run = byId.get(s.id)!;
      if (s.kind === "gives-up") {
        // Failed by its own policy: the step's exit, never an attempt past its max_attempts (2),
        // and each attempt's failure recorded once (one the kill cut short runs again).
        expect([run.status, run.errorCode], why).toEqual(["failed", "EXECUTION.COMMAND_FAILED"]);
        const ran = steps.filter((x) => x.runId === s.id && x.stateName === "flaky");
        expect(Math.max(...ran.map((x) => x.attempt)), why).toBe(2);
        rerunPastPolicy += ran.filter((x) => x.exitCode === 3).length === 2 ? 0 : 1;
      } else {
        expect([s.kind, run.status, run.errorCode, run.errorMessage], why).toEqual([
          s.kind,
          "succeeded",
          null,
          null,
        ]);
      }
    }
    console.log(
      `[chaos] runs whose failing step did not fail exactly twice by its own exit: ${rerunPastPolicy}`,
    );
    expect(rerunPastPolicy, why).toBe(0);
    // A kill after a step's end is stored and before the checkpoint past it leaves the run
    // at that state; the resumed run takes the stored end instead of running the step again.
    const twiceByAttempt = await attemptsSucceededTwice(db, ids);
    const twiceByState = await statesSucceededTwice(db, ids);
    console.log(
      `[chaos] attempts that succeeded twice after a kill: ${JSON.stringify(twiceByAttempt)}; states: ${JSON.stringify(twiceByState)}`,
    );
    expect(twiceByAttempt, why).toEqual([]);
    expect(twiceByState, why).toEqual([]);

    // Tool-call records: none beyond the calls the model asked for, and one for every result
    // it got back, however close to a kill: the proxy answers a call only once the worker
    // has stored its record.
    const records = await db.toolCall.groupBy({
      by: ["runId"],
      where: { runId: { in: ids } },
      _count: { _all: true },
    });
    const recorded = new Map(records.map((r) => [r.runId, r._count._all]));
    const nearKill = (t: number) => kills.some((k) => k.at >= t && k.at - t <= RECORD_GRACE_MS);
    let inGrace = 0;
    let missing = 0;
    for (const s of started.filter((x) => x.kind === "agent")) {
      const talks = conversationsOf(model.requests, chaosMarker(s.tag), CALLS);
      const seen = talks.reduce((n, c) => n + c.resultsSeen, 0);
      const seenSafely = talks.reduce(
        (n, c) => n + c.resultTimes.filter((t) => !nearKill(t)).length,
        0,
      );
      const issued = talks.reduce((n, c) => n + c.issued, 0);
      const count = recorded.get(s.id) ?? 0;
      inGrace += seen - seenSafely;
      missing += Math.max(0, seen - count);
      expect(
        {
          tag: s.tag,
          seenAtMost: Math.min(seen, count),
          issuedAtLeast: Math.max(issued, count),
        },
        why,
      ).toEqual({ tag: s.tag, seenAtMost: seen, issuedAtLeast: issued });
    }
    console.log(
      `[chaos] tool results the model got within ${RECORD_GRACE_MS} ms before a kill: ${inGrace}; of all results, without a record: ${missing}`,
    );
    expect(model.failures).toEqual([]);

    // Nothing left: no process of any sandbox of either slot, no run folder.
    const owners = slots.map((s) => s.ownerId);
    const uids = slots.map((s) => ({ base: s.uidBase, count: 16 }));
    expect(
      await waitFor(
        async () => (leftoverProcesses(owners, uids).length === 0 ? true : undefined),
        15_000,
        "no process left",
      ).catch(() => leftoverProcesses(owners, uids)),
    ).toBe(true);
    expect(await runFoldersLeft(workspaces, ids)).toEqual([]);
  },
);

it("ends a run whose job BullMQ gave up (stalled past the limit) as failed with SYSTEM.WORKER_LOST, instead of leaving it running", async () => {
  const { workflowId } = await saveWorkflowVersion(db, {
    teamId,
    name: "chaos-given-up",
    files: { "workflow.yaml": shellWorkflow("chaos-given-up", 1, 6000) },
  });
  const { id } = await caller().runs.start({ workflowId });
  const held = await waitFor(
    async () => {
      const run = await db.run.findUniqueOrThrow({ where: { id }, select: { status: true } });
      return run.status === "running" ? true : run.status === "queued" ? undefined : run.status;
    },
    60_000,
    "the run to start",
  );
  expect(held).toBe(true);
  // What BullMQ does to a job found stalled once too often: mark it to fail, and put it back
  // in the queue (its worker dies here, so the next one takes it up).
  const run = await db.run.findUniqueOrThrow({ where: { id }, select: { workerId: true } });
  const slot = slots.find(
    (s) => s.worker && run.workerId === `${s.ownerId}:${s.worker.child.pid}`,
  )!;
  await redis.hset(`${prefix}:${RUN_QUEUE}:${id}`, "defa", "job stalled more than allowable limit");
  const child = slot.worker!.child;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
  const ended = await waitFor(
    async () => {
      const row = await db.run.findUniqueOrThrow({
        where: { id },
        select: { status: true, errorCode: true, errorMessage: true },
      });
      return row.status === "running" ? undefined : row;
    },
    60_000,
    "the run to end",
  );
  expect(ended).toMatchObject({
    status: "failed",
    errorCode: "SYSTEM.WORKER_LOST",
    errorMessage: expect.stringContaining("stopped more than") as string,
  });
  expect(await db.stepRun.count({ where: { runId: id, status: "running" } })).toBe(0);
  slot.booting = bootSlot(slot);
  await slot.booting;
});
