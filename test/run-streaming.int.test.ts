/**
 * A running step's output reaches viewers while it runs, and a run's events stream as SSE
 * that resumes without gaps or repeats. A real worker runs a step that prints, sleeps and
 * prints: its first line is a stored `step.output` event before the step ends. Then the run's
 * events are read over GET /api/v1/runs/{id}/events, cut off, and resumed with Last-Event-ID.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunJob } from "@switchyard/core/runs";
import { createApiToken, saveWorkflowVersion, type Db } from "@switchyard/db";
import type { TestDatabase } from "@switchyard/testing/db";
import { handleRest } from "~/server/rest/rest-api";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded } from "./helpers/run-stack";
import { readMessages } from "./helpers/sse-messages";
import { waitFor, type WorkerHandle } from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let redis: Redis;
let prefix: string;
let worker: WorkerHandle;
let teamId: string;
let adminId: string;
let token: string;

const caller = () => dashboardCaller({ db, queue, redis, prefix }, adminId);

beforeAll(async () => {
  ({ database, db, queue, redis, prefix, adminId, teamId, worker } = await openRunStack());
  token = (await createApiToken(db, { teamId, userId: adminId, name: "sse" })).token;
});
afterAll(() => closeRunStack({ database, db, queue, redis, worker }));

const events = (runId: string, headers: Record<string, string> = {}, query = "") => {
  const path = `/runs/${runId}/events`;
  return handleRest(
    { db, queue: () => queue, prefix, publish: (c, m) => redis.publish(c, m) },
    new Request(`http://localhost/api/v1${path}${query}`, {
      headers: { authorization: `Bearer ${token}`, ...headers },
    }),
    path,
  );
};

let runId: string;

it("shows a step's first output as an event before the step ends", async () => {
  const version = await saveWorkflowVersion(db, {
    teamId,
    name: "talks-slowly",
    files: {
      "workflow.yaml":
        "name: talks-slowly\nstates:\n  initial: talk\n  talk:\n    type: step\n    command: 'echo first-line; sleep 3; echo second-line'\n",
    },
  });
  runId = (await caller().runs.start({ workflowId: version.workflowId })).id;
  const first = await waitFor(
    async () => {
      const { events: rows } = await caller().runs.events({ id: runId });
      return rows.find(
        (e) => e.type === "step.output" && JSON.stringify(e.payload).includes("first-line"),
      );
    },
    20_000,
    "the first line as a step.output event",
  );
  // The step was still running when its first line was stored: the second is not out yet.
  const now = await caller().runs.get({ id: runId });
  expect(now.steps.find((s) => s.stateName === "talk")?.status).toBe("running");
  expect(JSON.stringify((await caller().runs.events({ id: runId })).events)).not.toContain(
    "second-line",
  );
  expect(first.payload).toMatchObject({
    stream: "stdout",
    state: "talk",
    attempt: 1,
    stepRunId: now.steps[0]!.id,
  });

  const ended = await runEnded(() => caller().runs.get({ id: runId }), "the talking run");
  expect(ended.status).toBe("succeeded");
  const streamed = (await caller().runs.events({ id: runId })).events
    .filter((e) => e.type === "step.output")
    .map((e) => (e.payload as { text: string }).text)
    .join("");
  expect(streamed).toBe(ended.steps[0]!.stdout);
});

it("streams the run's events as SSE with ids, and a reconnect with Last-Event-ID gets exactly the rest", async () => {
  const all = (await caller().runs.events({ id: runId })).events.map((e) => e.seq);
  expect(all.length).toBeGreaterThan(3);

  const firstPart = await readMessages(
    await events(runId),
    (m) => m.filter((x) => x.id).length >= 2,
  );
  const seen = firstPart.messages.filter((m) => m.id).map((m) => Number(m.id));
  expect(seen).toEqual(all.slice(0, 2));
  expect(JSON.parse(firstPart.messages[0]!.data)).toMatchObject({
    seq: all[0],
    type: expect.any(String) as unknown,
  });

  const resumed = await readMessages(
    await events(runId, { "last-event-id": String(seen[seen.length - 1]) }),
    () => false,
  );
  expect(resumed.ended).toBe(true);
  const rest = resumed.messages.filter((m) => m.id).map((m) => Number(m.id));
  expect([...seen, ...rest]).toEqual(all);
  expect(resumed.messages[resumed.messages.length - 1]).toMatchObject({ event: "end" });
  expect(JSON.parse(resumed.messages[resumed.messages.length - 1]!.data)).toEqual({
    reason: "run_ended",
    status: "succeeded",
  });
  // Each event is named by its type (addEventListener("run.started") hears it), which its data keeps too.
  const named = [...firstPart.messages, ...resumed.messages].filter((m) => m.id);
  expect(named.map((m) => m.event)).toEqual(
    named.map((m) => (JSON.parse(m.data) as { type: string }).type),
  );
  expect(named.map((m) => m.event)).toEqual(
    expect.arrayContaining(["run.started", "step.output", "run.finished"]),
  );

  // ?after= resumes the same way; Last-Event-ID wins over it
  const after = await readMessages(
    await events(runId, {}, `?after=${all[all.length - 2]}`),
    () => false,
  );
  expect(after.messages.filter((m) => m.id).map((m) => Number(m.id))).toEqual(all.slice(-1));
  const both = await readMessages(
    await events(runId, { "last-event-id": String(all[all.length - 1]) }, "?after=0"),
    () => false,
  );
  expect(both.messages.filter((m) => m.id)).toEqual([]);
  expect((await events("missing")).status).toBe(404);
});

it("downloads the run's logs as an NDJSON attachment", async () => {
  const path = `/runs/${runId}/logs`;
  const res = await handleRest(
    { db, queue: () => queue, prefix, publish: (c, m) => redis.publish(c, m) },
    new Request(`http://localhost/api/v1${path}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    path,
  );
  expect(res.headers.get("content-disposition")).toContain("attachment");
  const lines = (await res.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { kind: string; stdout?: string });
  expect(lines[0]).toMatchObject({ kind: "run", id: runId });
  expect(lines.find((l) => l.kind === "step")?.stdout).toContain("second-line");
  expect(lines.filter((l) => l.kind === "event").length).toBeGreaterThan(3);
});
