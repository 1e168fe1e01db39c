/**
 * SWITCHYARD_STEP_LAUNCHER=per-run through the real worker: a run's steps share one sandbox
 * (one PID namespace) and still pass their files along the workspace, and a cancelled run
 * leaves no process behind, tagged or not, of the worker's owner id or its step uids.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunJob } from "@switchyard/core/runs";
import { OWNER_TAG, pidsWithEnv } from "@switchyard/core/sandbox";
import { saveWorkflowVersion, type Db } from "@switchyard/db";
import type { TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded } from "./helpers/run-stack";
import { waitFor, type WorkerHandle } from "./helpers/worker-process";

const WORKER_ID = `test-launcher-${Math.random().toString(36).slice(2, 10)}`;
const UID_BASE = 100_000 + Math.floor(Math.random() * 50_000) * 16;
let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let redis: Redis;
let prefix: string;
let worker: WorkerHandle;
let adminId: string;
let teamId: string;

beforeAll(async () => {
  ({ database, db, queue, redis, prefix, adminId, teamId, worker } = await openRunStack({
    SWITCHYARD_STEP_LAUNCHER: "per-run",
    SWITCHYARD_WORKER_ID: WORKER_ID,
    SWITCHYARD_STEP_UID_BASE: String(UID_BASE),
  }));
});
afterAll(() => closeRunStack({ database, db, queue, redis, worker }));

const caller = () => dashboardCaller({ db, queue, redis, prefix }, adminId);
const save = async (name: string, yaml: string) =>
  (await saveWorkflowVersion(db, { teamId, name, files: { "workflow.yaml": yaml } })).workflowId;

/** Processes of this worker's runs: carrying its owner tag, or running as one of its step uids. */
const leftovers = () => {
  const byUid = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
        return uid >= UID_BASE && uid < UID_BASE + 16;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [...new Set([...pidsWithEnv(OWNER_TAG, WORKER_ID, { below: true }), ...byUid])];
};
const noneLeft = () =>
  waitFor(
    async () => (leftovers().length === 0 ? true : undefined),
    10_000,
    "no process of the run left",
  );

it("runs a run's steps in one sandbox, each in turn, passing files along the workspace", async () => {
  const id = await save(
    "one-sandbox",
    `name: one-sandbox
states:
  initial: first
  first:
    type: step
    command: 'readlink /proc/self/ns/pid > ns; echo one'
    on_success: second
  second:
    type: step
    command: 'echo two; pwd'
    on_success: third
  third:
    type: step
    command: 'test "$(cat ns)" = "$(readlink /proc/self/ns/pid)" && echo same-sandbox'
    on_success: done
  done:
    type: terminal
    status: success
`,
  );
  const { id: runId } = await caller().runs.start({ workflowId: id });
  const run = await runEnded(() => caller().runs.get({ id: runId }), `run ${runId}`, 60_000);
  expect({ status: run.status, error: run.errorMessage }).toEqual({
    status: "succeeded",
    error: null,
  });
  expect(run.steps.map((s) => s.stdout)).toEqual(["one\n", "two\n/workspace\n", "same-sandbox\n"]);
  await noneLeft();
});

it("leaves nothing when a run is cancelled mid-step, even a detached child without the tag", async () => {
  const id = await save(
    "cancel-launcher",
    `name: cancel-launcher
states:
  initial: nap
  nap:
    type: step
    command: 'setsid env -i /bin/sleep 1000 >/dev/null 2>&1 & sleep 1000'
    on_success: done
  done:
    type: terminal
    status: success
`,
  );
  const { id: runId } = await caller().runs.start({ workflowId: id });
  await waitFor(
    async () =>
      (await caller().runs.get({ id: runId })).steps.some((s) => s.status === "running")
        ? true
        : undefined,
    30_000,
    "the step running",
  );
  await waitFor(
    async () => (leftovers().length >= 3 ? true : undefined),
    10_000,
    "the step's processes",
  );
  await caller().runs.cancel({ id: runId });
  const run = await runEnded(() => caller().runs.get({ id: runId }), `run ${runId}`, 60_000);
  expect(run.status).toBe("cancelled");
  await noneLeft();
});
