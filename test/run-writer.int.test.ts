/**
 * The worker's run writer against real Postgres: a run's progress written in one statement
 * per write (events riding along with the step row or checkpoint), nothing written once
 * another worker holds the run, a step end that cannot be stored closed as failed, and
 * events that cannot be stored dropped without holding the run back.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  claimQueuedRun,
  createRun,
  endRun,
  listRunEvents,
  saveWorkflowVersion,
} from "@switchyard/db";
import { Scrubber } from "@switchyard/core/secrets";
import { createRunWriter } from "../apps/worker/src/run-writer";
import { createLogger } from "../apps/worker/src/logger";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";
import { addWait } from "./helpers/waiting-run";

let seeded: SeededDatabase;
const log = createLogger("error", { service: "test" });
const path = { workflow: "w", key: "s", loop: [], calls: [] };

beforeAll(async () => {
  seeded = await openSeededDatabase();
});
afterAll(() => seeded?.close());

const queuedRun = async (name: string) => {
  const { db, teamId } = seeded;
  const version = await saveWorkflowVersion(db, {
    teamId,
    name,
    files: {
      "workflow.yaml": `name: ${name}\nstates:\n  initial: s\n  s: { type: step, command: 'true' }\n`,
    },
  });
  return createRun(db, {
    teamId,
    workflowId: version.workflowId,
    workflowVersionId: version.id,
    lane: "default",
    trigger: "api",
    inputs: {},
  });
};

const writerFor = (runId: string, workerId: string, firstSeq = 1) => {
  let notified = 0;
  const writer = createRunWriter({
    db: seeded.db,
    log,
    teamId: seeded.teamId,
    runId,
    workerId,
    firstSeq,
    scrubber: new Scrubber(),
    notify: () => notified++,
    outageMs: 5_000,
  });
  return { writer, notified: () => notified };
};

it("claims a queued run once, and writes its progress with the events in order", async () => {
  const { db, teamId } = seeded;
  const run = await queuedRun("written");
  const claimed = await claimQueuedRun(db, teamId, run.id, "worker-a");
  expect(claimed).toMatchObject({
    id: run.id,
    workflowName: "written",
    nextSeq: 1,
    lane: "default",
  });
  expect(await claimQueuedRun(db, teamId, run.id, "worker-b")).toBeUndefined();
  expect(await claimQueuedRun(db, "another-team", run.id, "worker-a")).toBeUndefined();
  if (typeof claimed !== "object") throw new Error(`the run was not claimed: ${String(claimed)}`);

  const { writer, notified } = writerFor(run.id, "worker-a", claimed.nextSeq);
  writer.traceId("trace-1");
  writer.event("state.started", { state: "s" });
  await writer.open({
    id: "step-row-1",
    stateName: "s",
    stepType: "step",
    attempt: 1,
    path,
    sandboxLevel: "strict",
  });
  // The event went with the step row, in the same write.
  expect(notified()).toBe(1);
  await writer.close({
    id: "step-row-1",
    status: "succeeded",
    exitCode: 0,
    stdout: "out\u0000put",
    stderr: "",
    output: "out\u0000put",
    costUsd: 0.25,
  });
  writer.event("state.finished", { state: "s", status: "success" });
  await writer.checkpoint({ version: 1, results: { s: { output: "output" } } });
  writer.event("run.finished", { status: "succeeded" });
  await writer.flush();

  const row = await db.run.findFirst({
    where: { id: run.id },
    select: { status: true, workerId: true, traceId: true, checkpoint: true, startedAt: true },
  });
  expect(row).toMatchObject({
    status: "running",
    workerId: "worker-a",
    traceId: "trace-1",
    checkpoint: { version: 1, results: { s: { output: "output" } } },
  });
  expect(row?.startedAt).toBeInstanceOf(Date);
  const step = await db.stepRun.findFirst({ where: { id: "step-row-1" } });
  expect(step).toMatchObject({
    teamId,
    runId: run.id,
    status: "succeeded",
    exitCode: 0,
    stdout: "out\uFFFDput",
    sandboxLevel: "strict",
    path,
  });
  expect(step?.costUsd?.toNumber()).toBe(0.25);
  expect(step?.finishedAt).toBeInstanceOf(Date);
  const events = await listRunEvents(db, teamId, run.id);
  expect(events.map((e) => [e.seq, e.type])).toEqual([
    [1, "state.started"],
    [2, "state.finished"],
    [3, "run.finished"],
  ]);
});

it("writes nothing once another worker holds the run, and says so", async () => {
  const { db, teamId } = seeded;
  const run = await queuedRun("taken-over");
  await claimQueuedRun(db, teamId, run.id, "worker-a");
  await db.run.update({ where: { id: run.id }, data: { workerId: "worker-b" } });
  const { writer } = writerFor(run.id, "worker-a");
  writer.event("log", { message: "from the old worker" });
  await expect(
    writer.open({ id: "step-row-2", stateName: "s", stepType: "step", attempt: 1, path }),
  ).rejects.toMatchObject({ code: "EXECUTION.RUN_TAKEN_OVER" });
  await expect(writer.checkpoint({ version: 1 })).rejects.toMatchObject({
    code: "EXECUTION.RUN_TAKEN_OVER",
  });
  await writer.flush();
  expect(await db.stepRun.count({ where: { runId: run.id } })).toBe(0);
  expect(await listRunEvents(db, teamId, run.id)).toEqual([]);
  expect(
    (await db.run.findFirst({ where: { id: run.id }, select: { checkpoint: true } }))?.checkpoint,
  ).toBeNull();
});

it("closes a step whose end cannot be stored as failed, and drops events that cannot be stored without holding the run back", async () => {
  const { db, teamId } = seeded;
  await db.$executeRawUnsafe(`CREATE FUNCTION refuse_writer_step() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.stdout LIKE '%refuse-me%' THEN RAISE EXCEPTION 'test refuses this output'; END IF;
  RETURN NEW;
END $$`);
  await db.$executeRawUnsafe(`CREATE FUNCTION refuse_writer_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.payload->>'message' = 'refused' THEN RAISE EXCEPTION 'test refuses this event'; END IF;
  RETURN NEW;
END $$`);
  await db.$executeRawUnsafe(
    `CREATE TRIGGER refuse_step BEFORE UPDATE ON "StepRun" FOR EACH ROW EXECUTE FUNCTION refuse_writer_step()`,
  );
  await db.$executeRawUnsafe(
    `CREATE TRIGGER refuse_event BEFORE INSERT ON "RunEvent" FOR EACH ROW EXECUTE FUNCTION refuse_writer_event()`,
  );
  try {
    const run = await queuedRun("refused");
    await claimQueuedRun(db, teamId, run.id, "worker-a");
    const { writer } = writerFor(run.id, "worker-a");
    await writer.open({ id: "step-row-3", stateName: "s", stepType: "step", attempt: 1, path });
    writer.event("log", { message: "refused" });
    await expect(
      writer.close({
        id: "step-row-3",
        status: "succeeded",
        exitCode: 0,
        stdout: "refuse-me",
        stderr: "",
        output: "refuse-me",
      }),
    ).rejects.toMatchObject({
      code: "EXECUTION.OUTPUT_NOT_STORED",
    });
    const step = await db.stepRun.findFirst({ where: { id: "step-row-3" } });
    expect(step).toMatchObject({ status: "failed", errorCode: "EXECUTION.OUTPUT_NOT_STORED" });
    expect(step?.errorMessage).toContain("could not be stored");
    // The checkpoint goes on; the events it carried (one of which Postgres refuses) are dropped together.
    writer.event("log", { message: "refused" });
    writer.event("log", { message: "kept" });
    await writer.checkpoint({ version: 1, after: "refusal" });
    await writer.flush();
    expect(
      (await db.run.findFirst({ where: { id: run.id }, select: { checkpoint: true } }))?.checkpoint,
    ).toEqual({ version: 1, after: "refusal" });
    writer.event("log", { message: "kept-too" });
    await writer.flush();
    expect((await listRunEvents(db, teamId, run.id)).map((e) => e.payload)).toEqual([
      { message: "kept-too" },
    ]);
  } finally {
    await db.$executeRawUnsafe(`DROP TRIGGER refuse_step ON "StepRun"`);
    await db.$executeRawUnsafe(`DROP TRIGGER refuse_event ON "RunEvent"`);
  }
});

it("ends a run in one statement: its open waits and waiting attempts close with it, and only while this worker holds it", async () => {
  const { db, teamId } = seeded;
  const setUp = async (name: string) => {
    const run = await queuedRun(name);
    await claimQueuedRun(db, teamId, run.id, "worker-a");
    const step = await db.stepRun.create({
      data: {
        teamId,
        runId: run.id,
        stateName: "s",
        attempt: 1,
        status: "waiting",
        stepType: "agent",
      },
    });
    const wait = await addWait(db, { teamId, runId: run.id, stepRunId: step.id, lane: "default" });
    await db.connectorTask.create({
      data: {
        teamId,
        runId: run.id,
        stateName: "s",
        connectorSlug: "c",
        owner: "team",
        tool: "t",
        argsHash: "a".repeat(64),
        taskId: `t-${name}`,
        status: "working",
      },
    });
    return { run, step, wait };
  };

  // Another worker's end changes nothing of this run.
  const kept = await setUp("ended-elsewhere");
  expect(await endRun(db, teamId, kept.run.id, { status: "succeeded" }, "worker-b")).toEqual({
    ended: false,
    openTasks: true,
  });
  expect((await db.run.findUniqueOrThrow({ where: { id: kept.run.id } })).status).toBe("running");
  expect((await db.wait.findUniqueOrThrow({ where: { id: kept.wait.id } })).status).toBe("open");
  expect((await db.stepRun.findUniqueOrThrow({ where: { id: kept.step.id } })).status).toBe(
    "waiting",
  );

  const ended = await setUp("ended-here");
  expect(
    await endRun(
      db,
      teamId,
      ended.run.id,
      { status: "cancelled", errorCode: "EXECUTION.CANCELLED", errorMessage: "stopped" },
      "worker-a",
    ),
  ).toEqual({ ended: true, openTasks: true });
  const run = await db.run.findUniqueOrThrow({ where: { id: ended.run.id } });
  expect(run).toMatchObject({
    status: "cancelled",
    errorCode: "EXECUTION.CANCELLED",
    errorMessage: "stopped",
  });
  expect(run.finishedAt).not.toBeNull();
  const wait = await db.wait.findUniqueOrThrow({ where: { id: ended.wait.id } });
  expect(wait.status).toBe("cancelled");
  expect(wait.answeredAt).not.toBeNull();
  expect(await db.stepRun.findUniqueOrThrow({ where: { id: ended.step.id } })).toMatchObject({
    status: "cancelled",
    errorCode: "EXECUTION.CANCELLED",
    errorMessage: "the run ended while this step waited for a person",
  });
  // Ended once: a second end finds nothing to do.
  expect(await endRun(db, teamId, ended.run.id, { status: "succeeded" }, "worker-a")).toMatchObject(
    {
      ended: false,
    },
  );
});
