/**
 * Long connector calls run as MCP tasks, through the worker's own connector code: a real
 * server on the v2 server SDK whose `report` tool runs as a task (in the 2025-11-25 form,
 * and again in the 2026-07-28 tasks extension the worker negotiates per request), the
 * connector saved as the web app saves it, and the worker's pool. The call returns the
 * tool's result once the task ends, polled at the server's interval; the task is kept in
 * Postgres; the same call made again after the first gave up (the agent CLI's tool timeout)
 * or from a fresh pool (a worker restart) follows the same task instead of starting another;
 * a run that ends cancels its open tasks at the server.
 */
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { argumentsHash } from "@switchyard/core/governance";
import { Scrubber } from "@switchyard/core/secrets";
import { connectorTasksOfRun, openConnectorTaskFor, TEAM_OWNER } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW, loopbackEgressFetch } from "@switchyard/testing/egress";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelRunConnectorTasks } from "../apps/worker/src/connector-tasks";
import { createLogger } from "../apps/worker/src/logger";
import {
  createWorkerConnectors,
  openStepConnectors,
  type WorkerConnectors,
} from "../apps/worker/src/team-connectors";
import { webEgress } from "~/server/egress";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { startTaskServer } from "./helpers/task-server";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const log = createLogger("error", { service: "test" });
const KEYED_TOKEN = "rp-keyed-token-4c8e1a7f3b29d650";

const FORMS = [
  { form: "2025-11-25 tasks form", ext: false },
  { form: "2026-07-28 tasks extension", ext: true },
];

describe.each(FORMS)("$form", ({ ext }) => {
  let seeded: SeededDatabase;
  let server: Awaited<ReturnType<typeof startTaskServer>>;
  const serverTasks = () => server.tasks();

  const newPool = () =>
    createWorkerConnectors({
      allowAnyCommand: () => Promise.resolve(false),
      oauthFetch: loopbackEgressFetch(),
      httpFetch: loopbackEgressFetch("connector"),
      taskPollBounds: { minMs: 50, maxMs: 1_000 },
    });

  const openStep = (connectors: WorkerConnectors, runId: string | null) =>
    openStepConnectors({
      db: seeded.db,
      keyring,
      log,
      connectors,
      scrubber: new Scrubber(),
      teamId: seeded.teamId,
      runId,
      lane: "operator",
      starterId: seeded.adminId,
      slugs: ["reports", "keyed"],
      stateName: "build",
    }).then((step) => step!);

  const text = (result: { content?: unknown }) =>
    (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");

  /** A step of a run (a new one unless `runId` is given) on a pool of its own, as a fresh worker has. */
  const startRun = async (runId: string = randomUUID()) => {
    const connectors = newPool();
    const step = await openStep(connectors, runId);
    const before = (await serverTasks()).length;
    return {
      runId,
      connectors,
      step,
      /** The run's tasks as kept in Postgres. */
      rows: () => connectorTasksOfRun(seeded.db, seeded.teamId, runId),
      /** The tasks the server made since the step opened. */
      made: async () => (await serverTasks()).slice(before),
      /** The call given up after `ms` (the agent CLI's tool timeout does that). */
      giveUp: (args: Record<string, unknown>, ms: number) =>
        expect(
          step.host.callTool("reports", "report", args, AbortSignal.timeout(ms)),
        ).rejects.toThrow(),
      end: async () => {
        await step.host.close();
        await connectors.pool.close();
      },
    };
  };

  beforeAll(async () => {
    seeded = await openSeededDatabase();
    server = await startTaskServer({ ext });
    const admin = dashboardCaller(
      { db: seeded.db, keyring, egress: webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW)) },
      seeded.adminId,
    );
    await admin.connectors.create({ definition: server.connector });
    await admin.connectors.create({
      definition: { ...server.connector, id: "keyed", name: "Keyed", auth: "bearer" },
    });
    await admin.connectors.setCredential({ id: "keyed", scope: "team", value: KEYED_TOKEN });
  }, 120_000);
  afterAll(async () => {
    server?.close();
    await seeded?.close();
  });

  it("runs a long call as a task the worker polls and keeps, and returns the tool's result when it ends", async () => {
    const run = await startRun();
    const { step } = run;
    const result = await step.host.callTool("reports", "report", { ms: 1_200, topic: "sales-q3" });
    expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
    expect(text(result)).toBe("report for sales-q3 after 1200 ms");
    // The server ran it as a task (a plain call would have made none), and it ended there.
    const made = await run.made();
    expect(made).toHaveLength(1);
    expect(made[0]!.status).toBe("completed");
    const rows = await run.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      taskId: made[0]!.taskId,
      connectorSlug: "reports",
      owner: TEAM_OWNER,
      tool: "report",
      stateName: "build",
      status: "completed",
      pollIntervalMs: 200,
    });
    expect(rows[0]!.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    // The arguments are not kept, only their hash.
    expect(JSON.stringify(rows)).not.toContain("sales-q3");
    // A tool its server does not run as a task is a plain call, kept nowhere.
    expect(text(await step.host.callTool("reports", "echo", { text: "hi" }))).toBe("hi");
    expect(await run.rows()).toHaveLength(1);
    await run.end();
  }, 60_000);

  it("returns a task that failed at its server as the tool's error", async () => {
    const run = await startRun();
    const result = await run.step.host.callTool("reports", "report", { ms: 300, fail: true });
    expect(result.isError).toBe(true);
    // The 2025-11-25 form hands over the tool's own error result; the extension says why the task failed.
    expect(text(result)).toBe(
      ext ? 'the task of tool "report" failed: the report broke' : "it broke",
    );
    expect((await run.rows()).map((r) => r.status)).toEqual([ext ? "failed" : "completed"]);
    await run.end();
  }, 60_000);

  it("keeps the task when the call is given up (the CLI's tool timeout), and the same call again follows it", async () => {
    const run = await startRun();
    const { step } = run;
    const args = { ms: 2_500, topic: "given-up" };
    await run.giveUp(args, 600);
    const [open] = await run.rows();
    expect(open?.status).toBe("working");

    const again = await step.host.callTool("reports", "report", args);
    expect(text(again)).toBe("report for given-up after 2500 ms");
    // One task at the server: the second call followed the first one's.
    const made = await run.made();
    expect(made.map((t) => t.taskId)).toEqual([open!.taskId]);
    expect((await run.rows())[0]?.status).toBe("completed");
    // Other arguments are another call: a task of its own.
    await step.host.callTool("reports", "report", { ms: 100, topic: "other" });
    expect(await run.made()).toHaveLength(2);
    await run.end();
  }, 60_000);

  it("survives a worker restart: a new worker's pool follows the open task to its result", async () => {
    const run = await startRun();
    const args = { ms: 2_000, topic: "restart" };
    const dies = new AbortController();
    const call = run.step.host.callTool("reports", "report", args, dies.signal);
    await expect.poll(() => run.rows()).toHaveLength(1);
    // The worker goes: the call it was polling, its pool and every connection with it.
    dies.abort(new Error("the worker was killed"));
    await run.end();
    await expect(call).rejects.toThrow();
    expect((await run.rows())[0]?.status).toBe("working");

    const again = await startRun(run.runId);
    const result = await again.step.host.callTool("reports", "report", args);
    expect(text(result)).toBe("report for restart after 2000 ms");
    expect((await run.made()).map((t) => t.status)).toEqual(["completed"]);
    expect((await run.rows()).map((r) => r.status)).toEqual(["completed"]);
    await again.end();
  }, 60_000);

  it("follows the open tasks of a step it takes over before the agent asks again, and the call made again takes the result at once", async () => {
    const run = await startRun();
    const args = { ms: 1_500, topic: "taken-over" };
    await run.giveUp(args, 400);
    // The worker goes while the task runs.
    await run.end();
    const [open] = await run.rows();
    expect(open).toMatchObject({ status: "working", resultTakenAt: null });

    // A new worker opens the step: nobody calls, yet the task is followed to its end.
    const again = await startRun(run.runId);
    await expect
      .poll(async () => (await run.rows())[0]?.status, { timeout: 15_000 })
      .toBe("completed");
    expect((await run.rows())[0]?.resultTakenAt).toBeNull();
    // The result is fetched when the call is made again, from the same task, with no poll to wait.
    const asked = Date.now();
    const result = await again.step.host.callTool("reports", "report", args);
    expect(text(result)).toBe("report for taken-over after 1500 ms");
    expect(Date.now() - asked).toBeLessThan(2_000);
    expect((await run.made()).map((t) => t.taskId)).toEqual([open!.taskId]);
    const [taken] = await run.rows();
    expect(taken?.resultTakenAt).not.toBeNull();
    // Taken: the same call made once more is a call of its own.
    await again.step.host.callTool("reports", "report", { ...args, ms: 100 });
    await again.step.host.callTool("reports", "report", { ...args, ms: 100 });
    expect(await run.made()).toHaveLength(3);
    await again.end();
  }, 60_000);

  it("cancels a run's open tasks at their server when the run ends", async () => {
    const run = await startRun();
    await run.giveUp({ ms: 30_000 }, 500);
    await cancelRunConnectorTasks(
      { db: seeded.db, log, pool: run.connectors.pool },
      seeded.teamId,
      run.runId,
    );
    const made = await run.made();
    expect(made.map((t) => t.status)).toEqual(["cancelled"]);
    const [row] = await run.rows();
    expect(row).toMatchObject({ status: "cancelled", statusMessage: "the run ended" });
    await run.end();
  }, 60_000);

  it("follows only its own team's tasks, and never from a call made in the console", async () => {
    const run = await startRun();
    const { runId } = run;
    const args = { ms: 5_000 };
    await run.giveUp(args, 400);
    const [row] = await run.rows();
    const key = {
      teamId: seeded.teamId,
      runId,
      connectorSlug: "reports",
      owner: TEAM_OWNER,
      tool: "report",
      argsHash: argumentsHash(args),
    };
    expect((await openConnectorTaskFor(seeded.db, key))?.taskId).toBe(row!.taskId);
    expect(
      await openConnectorTaskFor(seeded.db, { ...key, teamId: "another-team" }),
    ).toBeUndefined();
    expect(await openConnectorTaskFor(seeded.db, { ...key, runId: null })).toBeUndefined();
    expect(await connectorTasksOfRun(seeded.db, "another-team", runId)).toEqual([]);
    await cancelRunConnectorTasks(
      { db: seeded.db, log, pool: run.connectors.pool },
      seeded.teamId,
      runId,
    );
    await run.end();
  }, 60_000);

  it("keeps no credential in a task's row, even from a server that repeats it in the task's status", async () => {
    const run = await startRun();
    await expect(
      run.step.host.callTool("keyed", "report", { ms: 5_000 }, AbortSignal.timeout(500)),
    ).rejects.toThrow();
    const made = await run.made();
    // The server did repeat it...
    expect(JSON.stringify(made)).toContain(KEYED_TOKEN);
    // ...and the row holds the message without it.
    const rows = await run.rows();
    expect(rows.map((r) => r.statusMessage)).toEqual(["working for Bearer [REDACTED]"]);
    const raw = await seeded.db.connectorTask.findMany({ where: { teamId: seeded.teamId } });
    expect(JSON.stringify(raw)).not.toContain(KEYED_TOKEN);
    await cancelRunConnectorTasks(
      { db: seeded.db, log, pool: run.connectors.pool },
      seeded.teamId,
      run.runId,
    );
    await run.end();
  }, 60_000);
});
