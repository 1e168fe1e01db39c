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

type Message = { id?: string; event?: string; data: string };

/** Reads SSE messages from a response until `stop` says enough (or the stream ends). */
const readMessages = async (res: Response, stop: (messages: Message[]) => boolean, timeoutMs = 30_000) => {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const messages: Message[] = [];
  let buffer = "";
  let ended = false;
  const deadline = Date.now() + timeoutMs;
  while (!stop(messages)) {
    if (Date.now() > deadline) throw new Error(`no end of stream; got ${JSON.stringify(messages)}`);
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const message: Message = { data: "" };
      let any = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":") || line === "") continue;
        const [field, ...rest] = line.split(":");
        const value = rest.join(":").replace(/^ /, "");
        if (field === "id") message.id = value;
        else if (field === "event") message.event = value;
        else if (field === "data") message.data += value;
        else continue;
        any = true;
      }
      if (any && (message.id !== undefined || message.event !== undefined)) messages.push(message);
    }
  }
  await reader.cancel().catch(() => undefined);
  return { messages, ended };
};

const events = (runId: string, headers: Record<string, string> = {}, query = "") => {
  const path = `/runs/${runId}/events`;
  return handleRest(
    { db, queue: () => queue, prefix, publish: (c, m) => redis.publish(c, m) },
    new Request(`http://localhost/api/v1${path}${query}`, { headers: { authorization: `Bearer ${token}`, ...headers } }),
    path,
  );
};

let runId: string;

it("shows a step's first output as an event before the step ends", async () => {
  const version = await saveWorkflowVersion(db, {
    teamId,
    name: "talks-slowly",
    files: { "workflow.yaml": "name: talks-slowly\nstates:\n  initial: talk\n  talk:\n    type: step\n    command: 'echo first-line; sleep 3; echo second-line'\n" },
  });
  runId = (await caller().runs.start({ workflowId: version.workflowId })).id;
  const first = await waitFor(
    async () => {
      const { events: rows } = await caller().runs.events({ id: runId });
      return rows.find((e) => e.type === "step.output" && JSON.stringify(e.payload).includes("first-line"));
    },
    20_000,
    "the first line as a step.output event",
  );
  // The step was still running when its first line was stored: the second is not out yet.
  const now = await caller().runs.get({ id: runId });
  expect(now.steps.find((s) => s.stateName === "talk")?.status).toBe("running");
  expect(JSON.stringify((await caller().runs.events({ id: runId })).events)).not.toContain("second-line");
  expect(first.payload).toMatchObject({ stream: "stdout", state: "talk", attempt: 1, stepRunId: now.steps[0]!.id });

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

  const firstPart = await readMessages(await events(runId), (m) => m.filter((x) => x.id).length >= 2);
  const seen = firstPart.messages.filter((m) => m.id).map((m) => Number(m.id));
  expect(seen).toEqual(all.slice(0, 2));
  expect(JSON.parse(firstPart.messages[0]!.data)).toMatchObject({ seq: all[0], type: expect.any(String) as unknown });

  const resumed = await readMessages(await events(runId, { "last-event-id": String(seen[seen.length - 1]) }), () => false);
  expect(resumed.ended).toBe(true);
  const rest = resumed.messages.filter((m) => m.id).map((m) => Number(m.id));
  expect([...seen, ...rest]).toEqual(all);
  expect(resumed.messages[resumed.messages.length - 1]).toMatchObject({ event: "end" });

  // ?after= resumes the same way; Last-Event-ID wins over it
  const after = await readMessages(await events(runId, {}, `?after=${all[all.length - 2]}`), () => false);
  expect(after.messages.filter((m) => m.id).map((m) => Number(m.id))).toEqual(all.slice(-1));
  const both = await readMessages(await events(runId, { "last-event-id": String(all[all.length - 1]) }, "?after=0"), () => false);
  expect(both.messages.filter((m) => m.id)).toEqual([]);
  expect((await events("missing")).status).toBe(404);
});

it("downloads the run's logs as an NDJSON attachment", async () => {
  const path = `/runs/${runId}/logs`;
  const res = await handleRest(
    { db, queue: () => queue, prefix, publish: (c, m) => redis.publish(c, m) },
    new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } }),
    path,
  );
  expect(res.headers.get("content-disposition")).toContain("attachment");
  const lines = (await res.text()).trim().split("\n").map((l) => JSON.parse(l) as { kind: string; stdout?: string });
  expect(lines[0]).toMatchObject({ kind: "run", id: runId });
  expect(lines.find((l) => l.kind === "step")?.stdout).toContain("second-line");
  expect(lines.filter((l) => l.kind === "event").length).toBeGreaterThan(3);
});
