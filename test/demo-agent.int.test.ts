/**
 * The first five minutes: with no key anywhere, the demo team's seeded `demo-agent`
 * workflow runs under the real worker against the built-in demo model the worker serves
 * on loopback, calls the proxy's built-ins and the demo connector (hosted by the worker in
 * its sandbox), and succeeds, with its tool calls, spans, tokens and a cost of zero
 * recorded. Two runs at once each hear the whole recorded session. The seed, the workflow,
 * the connector and the model access are the real seed's, nothing added by the test.
 */
import { createDb, listStepToolCalls, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { freePort } from "./helpers/private-services";
import { runEnded } from "./helpers/run-stack";
import {
  buildSwitchyardCli,
  randomPrefix,
  startWorker,
  type WorkerHandle,
} from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let redis: Redis;
let worker: WorkerHandle | undefined;
let adminId: string;
let teamId: string;
let port: number;
const prefix = randomPrefix();

const caller = () =>
  dashboardCaller({ db, queue, redis, prefix, keyring: environmentKeyring() }, adminId);

beforeAll(async () => {
  buildSwitchyardCli();
  port = await freePort();
  database = await freshDatabase();
  db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, {
    adminEmail: "admin@test.local",
    adminPassword: "pw-test-1234",
    demoModelUrl: `http://127.0.0.1:${port}/v1`,
  });
  adminId = seeded.admin.id;
  teamId = seeded.team.id;
  redis = new Redis(process.env.REDIS_URL!);
  queue = new Queue<RunJob>(RUN_QUEUE, {
    connection: new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null }),
    prefix,
  });
  worker = await startWorker({
    DATABASE_URL: database.url,
    SWITCHYARD_QUEUE_PREFIX: prefix,
    // What `npm start`'s .env allows: loopback, where the demo model listens.
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_DEMO_MODEL_PORT: String(port),
  });
}, 300_000);
afterAll(async () => {
  await worker?.stop();
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await db?.$disconnect();
  await database?.drop();
});

it("seeds the demo model for openai_compatible steps, the demo connector and the demo agent workflow", async () => {
  const models = await caller().models.list();
  expect(models.find((m) => m.vendor === "openai_compatible")).toMatchObject({
    configured: true,
    keySet: false,
    allowedEndpoints: [`http://127.0.0.1:${port}/v1`],
  });
  const connectors = await caller().connectors.list();
  expect(connectors.find((c) => c.id === "demo")).toMatchObject({
    needsCredential: false,
    definition: {
      transport: "stdio",
      command: "node",
      args: ["/opt/switchyard/connectors/demo-connector.mjs"],
      lanes: ["default"],
    },
  });
  const workflows = await db.workflow.findMany({ where: { teamId }, select: { name: true } });
  expect(workflows.map((w) => w.name)).toContain("demo-agent");
  // Seeding again (every `npm start`) adds nothing, and leaves an admin's own choice alone.
  await caller().models.set({
    vendor: "openai_compatible",
    allowedEndpoints: [`http://127.0.0.1:${port}/v1`, "http://127.0.0.1:11434/v1"],
  });
  const versions = await db.workflowVersion.count({ where: { workflow: { teamId } } });
  await seed(db, {
    adminEmail: "admin@test.local",
    adminPassword: "pw-test-1234",
    demoModelUrl: `http://127.0.0.1:${port}/v1`,
  });
  expect(await db.workflowVersion.count({ where: { workflow: { teamId } } })).toBe(versions);
  expect(await db.connector.count({ where: { teamId } })).toBe(1);
  expect(
    (await caller().models.list()).find((m) => m.vendor === "openai_compatible")?.allowedEndpoints,
  ).toEqual([`http://127.0.0.1:${port}/v1`, "http://127.0.0.1:11434/v1"]);
}, 60_000);

it("runs the seeded demo agent with no key: built-in and connector tool calls, spans, tokens and zero cost", async () => {
  const workflow = await db.workflow.findFirstOrThrow({
    where: { teamId, name: "demo-agent" },
    select: { id: true },
  });
  // Two at once: the demo model plays each conversation from its own place.
  const started = await Promise.all([
    caller().runs.start({ workflowId: workflow.id }),
    caller().runs.start({ workflowId: workflow.id }),
  ]);
  for (const { id } of started) {
    const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`, 150_000);
    expect(
      run.status,
      JSON.stringify({
        run: [run.errorCode, run.errorMessage],
        steps: run.steps.map((s) => [s.stateName, s.status, s.errorCode, s.errorMessage]),
        logs: worker?.logs().slice(-3000),
      }),
    ).toBe("succeeded");
    const agent = run.steps.find((s) => s.stateName === "agent")!;
    expect(agent.output).toContain("demo model");

    const calls = await listStepToolCalls(db, teamId, agent.id);
    expect(calls.map((c) => [c.toolName, c.source, c.isError])).toEqual([
      ["Write", "builtin", false],
      ["Read", "builtin", false],
      ["demo_text_stats", "demo", false],
      ["Write", "builtin", false],
    ]);
    expect(JSON.stringify(calls[1]!.result)).toContain("Demo notes");
    expect(JSON.stringify(calls[2]!.result)).toMatch(/\d+ words, \d+ lines, \d+ characters/);
    expect(calls.every((c) => c.spanId && c.traceId)).toBe(true);

    const spans = await db.span.findMany({ where: { runId: id } });
    // Each call has its span on the run's trace, shown on the run page's timeline.
    expect(spans.map((s) => [s.name, s.spanId]).sort()).toEqual(
      calls.map((c) => [`tools/call ${c.toolName}`, c.spanId]).sort(),
    );
    const row = await db.stepRun.findFirstOrThrow({ where: { id: agent.id } });
    expect(row.inputTokens).toBeGreaterThan(0);
    expect(row.outputTokens).toBeGreaterThan(0);
    expect(row.costUsd).not.toBeNull();
    expect(Number(row.costUsd)).toBe(0);
  }
}, 360_000);
