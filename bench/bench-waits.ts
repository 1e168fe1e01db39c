/**
 * What waiting for a person costs (docs/governance.md, waits).
 *
 * Runs that wait: a real worker fires a schedule whose workflow needs inputs the schedule does
 * not give, 1,000 times, so 1,000 runs wait on `input` waits as a team's would. The worker's
 * RSS (after a full collection) and its CPU time over 10 s, against the same worker idle
 * after boot, before any run. The worker's sweeps run every 5 s here (the requeue sweep's
 * default is 30 s, and it reads runs older than 1 s instead of 10 s), so each window sees two
 * of each; what Redis and Postgres hold for the waiting runs is counted and put in the notes.
 *
 * A held call approved at once: a Read through the step's sandboxed proxy and channel that a
 * lane rule holds (the worker's own governance, a real Wait row, woken over Redis as the
 * worker is) and that is approved as soon as its wait is written, through the function the API
 * answers with, against the same Read with no rule.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { RUN_QUEUE, waitAnsweredChannel, type RunJob } from "@switchyard/core/runs";
import { Scrubber } from "@switchyard/core/secrets";
import { TRIGGER_QUEUE, type TriggerJob } from "@switchyard/core/triggers";
import {
  createDb,
  createTrigger,
  listOpenRuns,
  saveWorkflowVersion,
  type Db,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import { deployInputsWorkflow } from "@switchyard/testing/workflow";
import { answerTeamWait } from "../apps/web/src/server/waits/answer-wait";
import { createGovernance, WAIT_POLL_MS } from "../apps/worker/src/attempt-governance";
import { createLogger } from "../apps/worker/src/logger";
import { createWaitWakers } from "../apps/worker/src/wait-wakers";
import { randomPrefix, REPO_ROOT, startWorker } from "../test/helpers/worker-process";
import { attemptRequest, openAttemptRow } from "./attempt-row";
import { settled, show, type Reading } from "./bench-memory";
import { openStepProxySession } from "./step-kit";

const READ_CALL = { name: "Read", arguments: { path: "a.txt" } };
import { timeIt, timeInTurns, type Sample } from "./measure";
import { openStepKit } from "./step-kit";

const MB = 1024 * 1024;
const WINDOW_MS = 10_000;
const SWEEP_MS = 5000;
/** The requeue sweep's minimum age of a run (default 10 s), so it reads the waiting runs soon. */
const MIN_AGE_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const connection = () => new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
const clockTicks = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** CPU time (user + system) the process has used, in ms. */
const cpuMs = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
};

/** The worker's CPU over the window, then its settled memory. */
const observe = async (pid: number, read: () => Promise<Reading>) => {
  const before = cpuMs(pid);
  await sleep(WINDOW_MS);
  const cpu = cpuMs(pid) - before;
  return { cpu, memory: await read() };
};

/** Keys under the queue prefix. */
const redisKeys = async (redis: Redis, prefix: string) => {
  let cursor = "0";
  let n = 0;
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    n += keys.length;
  } while (cursor !== "0");
  return n;
};

/** Rows and their bytes (as stored in the row, TOAST included) of the team's waiting runs. */
const waitingRows = async (db: Db, teamId: string) => {
  const [row] = await db.$queryRawUnsafe<
    { runs: bigint; waits: bigint; audits: bigint; runBytes: bigint; waitBytes: bigint }[]
  >(
    `SELECT
       (SELECT count(*) FROM "Run" WHERE "teamId" = $1 AND status = 'waiting') AS runs,
       (SELECT count(*) FROM "Wait" WHERE "teamId" = $1 AND status = 'open') AS waits,
       (SELECT count(*) FROM "AuditLog" WHERE "teamId" = $1 AND "targetType" = 'wait') AS audits,
       (SELECT coalesce(sum(pg_column_size(r.*)), 0) FROM "Run" r WHERE "teamId" = $1 AND status = 'waiting') AS "runBytes",
       (SELECT coalesce(sum(pg_column_size(w.*)), 0) FROM "Wait" w WHERE "teamId" = $1 AND status = 'open') AS "waitBytes"`,
    teamId,
  );
  return {
    runs: Number(row!.runs),
    waits: Number(row!.waits),
    audits: Number(row!.audits),
    runBytes: Number(row!.runBytes),
    waitBytes: Number(row!.waitBytes),
  };
};

const waitingRuns = async (total: number): Promise<Sample[]> => {
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 4 });
  const prefix = randomPrefix();
  const redis = connection();
  const runQueue = new Queue<RunJob>(RUN_QUEUE, { connection: redis, prefix });
  const triggerQueue = new Queue<TriggerJob>(TRIGGER_QUEUE, { connection: redis, prefix });
  const worker = await startWorker(
    {
      DATABASE_URL: database.url,
      SWITCHYARD_QUEUE_PREFIX: prefix,
      SWITCHYARD_REQUEUE_SWEEP_MS: String(SWEEP_MS),
      SWITCHYARD_REQUEUE_MIN_AGE_MS: String(MIN_AGE_MS),
      NODE_OPTIONS: `--expose-gc --require ${path.join(REPO_ROOT, "bench/fixtures/gc-on-signal.cjs")}`,
    },
    120_000,
  );
  const pid = worker.child.pid!;
  try {
    const { team, admin } = await seed(db, {
      adminEmail: "bench@local",
      adminPassword: "bench-password",
    });
    const { workflowId } = await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "bench-waits",
      files: { "workflow.yaml": deployInputsWorkflow("bench-waits") },
    });
    // A schedule that gives no inputs; its fires are added by hand below, as its scheduler would.
    const trigger = await createTrigger(db, {
      id: `bench-${prefix}`,
      teamId: team.id,
      workflowId,
      kind: "schedule",
      cron: "0 0 1 1 *",
      timezone: "UTC",
      runAsUserId: admin.id,
    });
    const sweepQuery = () => listOpenRuns(db, new Date(Date.now() - MIN_AGE_MS));

    await sleep(5000);
    const idle = await observe(pid, () => settled(worker));
    const idleKeys = await redisKeys(redis, prefix);
    const idleQuery = await timeIt(20, sweepQuery);

    await triggerQueue.addBulk(
      Array.from({ length: total }, () => ({
        name: "fire",
        data: { triggerId: trigger.id, teamId: team.id },
        // As a schedule's job scheduler makes them (sync-schedules.ts).
        opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
      })),
    );
    const t0 = performance.now();
    for (;;) {
      const rows = await waitingRows(db, team.id);
      if (rows.runs >= total) break;
      const counts = await triggerQueue.getJobCounts("failed");
      if ((counts.failed ?? 0) > 0)
        throw new Error(`a fire failed: ${(await triggerQueue.getFailed(0, 0))[0]?.failedReason}`);
      if (performance.now() - t0 > 300_000)
        throw new Error(`only ${rows.runs} of ${total} runs waiting after 300 s`);
      await sleep(1000);
    }
    const parkedIn = (performance.now() - t0) / 1000;
    // Past the requeue sweep's minimum age, so its query reads every waiting run.
    await sleep(2 * MIN_AGE_MS);
    const waiting = await observe(pid, () => settled(worker));
    const rows = await waitingRows(db, team.id);
    const waitingKeys = await redisKeys(redis, prefix);
    const runJobs = Object.values(await runQueue.getJobCounts()).reduce((a, b) => a + b, 0);
    const waitingQuery = await timeIt(20, sweepQuery);
    console.log(
      `waits: ${total} runs waiting in ${parkedIn.toFixed(1)} s; idle ${show(idle.memory)}, cpu ${idle.cpu.toFixed(0)} ms/${WINDOW_MS / 1000} s; waiting ${show(waiting.memory)}, cpu ${waiting.cpu.toFixed(0)} ms; redis keys ${idleKeys} -> ${waitingKeys}, run jobs ${runJobs}; postgres ${JSON.stringify(rows)}; sweep query p50 ${idleQuery.p50.toFixed(2)} -> ${waitingQuery.p50.toFixed(2)} ms`,
    );
    const held = `Postgres: ${rows.runs} Run + ${rows.waits} Wait rows (${((rows.runBytes + rows.waitBytes) / rows.runs).toFixed(0)} B a run) + ${rows.audits} audit entries; Redis: ${runJobs} run jobs, keys ${idleKeys} -> ${waitingKeys} (the trigger queue keeps its last 100 fires)`;
    return [
      {
        name: `worker RSS, ${total} runs waiting vs none`,
        unit: "MB",
        baseline: idle.memory.rss / MB,
        subject: waiting.memory.rss / MB,
        note: `the same worker idle after boot (both after a full GC); heap ${(idle.memory.heapUsed / MB).toFixed(1)} -> ${(waiting.memory.heapUsed / MB).toFixed(1)} MB; ${held}`,
      },
      {
        name: `worker CPU while ${total} runs wait vs idle`,
        unit: "ms",
        baseline: idle.cpu,
        subject: waiting.cpu,
        note: `CPU time over ${WINDOW_MS / 1000} s, sweeps every ${SWEEP_MS / 1000} s; the requeue sweep's query p50 ${idleQuery.p50.toFixed(2)} -> ${waitingQuery.p50.toFixed(2)} ms`,
      },
    ];
  } finally {
    await worker.stop();
    await triggerQueue.obliterate({ force: true }).catch(() => undefined);
    await runQueue.obliterate({ force: true }).catch(() => undefined);
    await triggerQueue.close();
    await runQueue.close();
    redis.disconnect();
    await db.$disconnect();
    await database.drop();
  }
};

const heldCall = async (calls: number): Promise<Sample[]> => {
  const kit = await openStepKit("waits");
  const row = await openAttemptRow("bench-held").catch(async (error: unknown) => {
    await kit.close();
    throw error;
  });
  const opened: Array<{ close: () => Promise<void> }> = [];
  const prefix = randomPrefix();
  const redis = connection();
  const subscriber = connection();
  const runQueue = new Queue<RunJob>(RUN_QUEUE, { connection: redis, prefix });
  try {
    // As the worker listens (main.ts): an answered wait's id wakes the call held on it.
    const wakers = createWaitWakers();
    const answers = waitAnsweredChannel(prefix);
    await subscriber.subscribe(answers);
    subscriber.on("message", (_channel: string, waitId: string) => wakers.wake(waitId));
    const keyring = keyringOf(
      parseMasterKey(
        process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
        process.env.SWITCHYARD_MASTER_KEY ?? "",
      ),
    );
    const text = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of a small file`).join("\n");
    await writeFile(path.join(kit.folders.workspace, "a.txt"), text, { mode: 0o644 });
    // Approved as soon as the wait is written, by the team's admin, as the API answers it.
    const answeredAt: number[] = [];
    const answering: Promise<unknown>[] = [];
    const approveAtOnce = (waitId: string) =>
      answering.push(
        answerTeamWait(
          {
            db: row.db,
            keyring: () => keyring,
            queue: () => runQueue,
            prefix,
            publish: (channel, message) => {
              // Announced right after the answer's commit: from here to the call's result.
              if (channel === answers) answeredAt.push(performance.now());
              return redis.publish(channel, message);
            },
          },
          {
            teamId: row.teamId,
            waitId,
            answer: { decision: "approve" },
            caller: { userId: row.adminId, role: "owner" },
          },
        ),
      );
    const governance = createGovernance({
      db: row.db,
      log: createLogger("error"),
      keyring,
      teamId: row.teamId,
      runId: row.runId,
      lane: "default",
      workerId: "bench-waits",
      scrubber: new Scrubber(),
      laneRules: () => Promise.resolve([{ tool: "Read" }]),
      holdMs: 120_000,
      workspace: kit.folders.workspace,
      snapshotLimits: undefined,
      onWaitOpened: approveAtOnce,
      waitWakers: wakers,
    });
    const gate = (await governance.forAttempt(attemptRequest(row))).governance?.gate;
    if (!gate?.builtins.includes("Read"))
      throw new Error("the lane rule on Read gave the step no gate for Read");

    const plain = await openStepProxySession(kit, "plain", READ_CALL);
    opened.push(plain);
    const held = await openStepProxySession(kit, "held", READ_CALL, undefined, gate);
    opened.push(held);
    const resultAt: number[] = [];
    const heldRead = async () => {
      await held.call();
      resultAt.push(performance.now());
    };
    const timing = await timeInTurns(calls, { plain: plain.call, held: heldRead }, 3);
    await Promise.all(answering);
    const answered = await row.db.wait.count({
      where: { teamId: row.teamId, runId: row.runId, status: "answered" },
    });
    if (answered !== calls + 3)
      throw new Error(`expected ${calls + 3} answered waits, found ${answered}`);
    // From the answer's commit to the call's result: what the hold's polling adds.
    const lags = answeredAt.map((t, i) => resultAt[i]! - t).sort((a, b) => a - b);
    const lag = lags[Math.floor(lags.length / 2)]!;
    return [
      {
        name: "held tool call approved at once vs no rule (p50)",
        unit: "ms",
        baseline: timing.plain.p50,
        subject: timing.held.p50,
        note: `the same Read (sandbox, channel, record) with no rule; a lane rule holds it and it is approved as soon as its wait is written; added ${(timing.held.p50 - timing.plain.p50).toFixed(1)} ms, of which answer to result ${lag.toFixed(1)} ms (the answer wakes the hold over Redis; it reads its wait every ${WAIT_POLL_MS} ms otherwise); ${calls} calls`,
      },
    ];
  } finally {
    for (const session of opened) await session.close().catch(() => undefined);
    await runQueue.close();
    subscriber.disconnect();
    redis.disconnect();
    await row.close();
    await kit.close();
  }
};

export const benchWaits = async (): Promise<Sample[]> => {
  const quick = process.env.SWITCHYARD_BENCH_QUICK === "1";
  const rows = await waitingRuns(1000);
  try {
    rows.push(...(await heldCall(quick ? 20 : 50)));
  } catch (error) {
    rows.push({
      name: "held tool call approved at once vs no rule (p50)",
      unit: "ms",
      baseline: 0,
      subject: 0,
      skipped: `failed: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 200)}`,
    });
  }
  return rows;
};
