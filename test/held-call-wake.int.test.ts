/**
 * A held tool call hears its answer at once (docs/governance.md): the dashboard's answer
 * announces the wait's id on Redis and the worker's governance, listening for it, reads the
 * wait again instead of waiting for its next poll. The poll is set to an hour here, so a call
 * that completes after the answer can only have been woken by the announcement.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { RUN_QUEUE, waitAnsweredChannel, type RunJob } from "@switchyard/core/runs";
import { Scrubber } from "@switchyard/core/secrets";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGovernance } from "../apps/worker/src/attempt-governance";
import { createLogger } from "../apps/worker/src/logger";
import { createWaitWakers } from "../apps/worker/src/wait-wakers";
import { attemptRequest, openAttemptRow, type AttemptRow } from "../bench/attempt-row";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { randomPrefix } from "./helpers/worker-process";

const HOUR = 3_600_000;
const keyring = environmentKeyring();
const prefix = randomPrefix();
let row: AttemptRow;
let redis: Redis;
let subscriber: Redis;
let queue: Queue<RunJob>;
const wakers = createWaitWakers();

beforeAll(async () => {
  row = await openAttemptRow("held-wake");
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  subscriber = redis.duplicate();
  queue = new Queue<RunJob>(RUN_QUEUE, { connection: redis, prefix });
  // As the worker subscribes (main.ts).
  await subscriber.subscribe(waitAnsweredChannel(prefix));
  subscriber.on("message", (_channel: string, waitId: string) => wakers.wake(waitId));
});

afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  subscriber?.disconnect();
  redis?.disconnect();
  await row?.close();
});

/** A governance whose held calls poll once an hour, answered by the admin through the dashboard. */
const heldRead = async (decision: "approve" | "deny") => {
  let answered: Promise<unknown> | undefined;
  const governance = createGovernance({
    db: row.db,
    log: createLogger("error"),
    keyring,
    teamId: row.teamId,
    runId: row.runId,
    lane: "default",
    workerId: "held-wake",
    scrubber: new Scrubber(),
    laneRules: () => Promise.resolve([{ tool: "Read" }]),
    holdMs: HOUR,
    pollMs: HOUR,
    waitWakers: wakers,
    workspace: "/nonexistent",
    snapshotLimits: undefined,
    onWaitOpened: (waitId) => {
      // Answered once the hold has read its wait open and sleeps (not a timing assertion: an
      // answer before the first read would only make the test pass without the announcement).
      answered = new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
        dashboardCaller({ db: row.db, redis, prefix, keyring, queue }, row.adminId).waits.answer({
          id: waitId,
          decision,
          ...(decision === "deny" ? { message: "not that file" } : {}),
        }),
      );
    },
  });
  const gate = (await governance.forAttempt(attemptRequest(row))).governance?.gate;
  expect(gate?.builtins).toContain("Read");
  const call = gate!.beforeCall(
    { tool: "Read", source: "builtin", arguments: { path: "a.txt" } },
    new AbortController().signal,
  );
  return { call, answered: () => answered };
};

it("a held call approved through the dashboard runs without waiting for its poll", async () => {
  const { call, answered } = await heldRead("approve");
  await expect(call).resolves.toBeUndefined();
  await answered();
  const waits = await row.db.wait.findMany({ where: { teamId: row.teamId, runId: row.runId } });
  expect(waits.map((w) => w.status)).toContain("answered");
}, 30_000);

it("a held call denied through the dashboard is refused without waiting for its poll", async () => {
  const { call, answered } = await heldRead("deny");
  await expect(call).rejects.toMatchObject({
    code: "USER.APPROVAL.DENIED",
    message: expect.stringContaining("not that file") as unknown,
  });
  await answered();
}, 30_000);
