/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, the worker exports a span per run with a child per
 * step, continuing the trace whose context the job carried; the run row keeps its trace id.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createDb, createRun, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { startOtlpReceiver } from "./helpers/otlp-receiver";
import { randomPrefix, startWorker, waitFor } from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

let seeded: Promise<{ id: string }> | undefined;
const seedOnce = () =>
  (seeded ??= seed(db, { adminEmail: "t@test.local", adminPassword: "pw-12345678" }).then(
    (s) => s.team,
  ));

const helloRun = async (teamId: string) => {
  const workflow = await db.workflow.findFirstOrThrow({ where: { teamId, name: "hello-world" } });
  return createRun(db, {
    teamId,
    workflowId: workflow.id,
    workflowVersionId: workflow.currentVersionId!,
    lane: "default",
    trigger: "api",
  });
};

const finished = (runId: string) =>
  waitFor(async () => {
    const r = await db.run.findUniqueOrThrow({ where: { id: runId } });
    return r.status === "succeeded" || r.status === "failed" ? r : undefined;
  });

it("exports a run span and one child span per step, parented to the caller's trace", async () => {
  const receiver = await startOtlpReceiver();
  const prefix = randomPrefix();
  const queue = new Queue<RunJob>(RUN_QUEUE, {
    connection: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null }),
    prefix,
  });
  const worker = await startWorker({
    DATABASE_URL: database.url,
    SWITCHYARD_QUEUE_PREFIX: prefix,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  });
  try {
    const team = await seedOnce();
    const run = await helloRun(team.id);
    const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    await queue.add(
      "run",
      { runId: run.id, teamId: team.id, traceparent: `00-${callerTrace}-${callerSpan}-01` },
      { jobId: run.id },
    );
    const done = await finished(run.id);
    expect(done.status).toBe("succeeded");
    await worker.stop(); // flushes the batch exporter

    const runSpan = receiver.spans.find((s) => s.name === "invoke_workflow hello-world");
    expect(runSpan).toBeDefined();
    expect(runSpan!.service).toBe("switchyard-worker");
    expect(runSpan!.traceId).toBe(callerTrace);
    expect(runSpan!.parentSpanId).toBe(callerSpan);
    expect(runSpan!.attributes["switchyard.run.id"]).toBe(run.id);
    expect(runSpan!.attributes["switchyard.team.id"]).toBe(team.id);
    const steps = receiver.spans.filter((s) => s.name.startsWith("step "));
    expect(steps.map((s) => s.name).sort()).toEqual(["step greet", "step inspect"]);
    for (const s of steps) {
      expect(s.traceId).toBe(callerTrace);
      expect(s.parentSpanId).toBe(runSpan!.spanId);
      expect(s.attributes["process.exit.code"]).toBe(0);
    }
    expect(done.traceId).toBe(callerTrace);
  } finally {
    await worker.stop();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await receiver.close();
  }
});

it("records no trace id without an endpoint, and the run still finishes", async () => {
  const prefix = randomPrefix();
  const queue = new Queue<RunJob>(RUN_QUEUE, {
    connection: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null }),
    prefix,
  });
  const worker = await startWorker({
    DATABASE_URL: database.url,
    SWITCHYARD_QUEUE_PREFIX: prefix,
    OTEL_EXPORTER_OTLP_ENDPOINT: "",
  });
  try {
    const team = await seedOnce();
    const run = await helloRun(team.id);
    await queue.add("run", { runId: run.id, teamId: team.id }, { jobId: run.id });
    const done = await finished(run.id);
    expect(done.status).toBe("succeeded");
    expect(done.traceId).toBeNull();
  } finally {
    await worker.stop();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
});
