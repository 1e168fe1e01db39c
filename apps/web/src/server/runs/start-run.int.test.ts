import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AppError } from "@switchyard/core/errors";
import { RUN_QUEUE, type RunJob } from "@switchyard/core/runs";
import { createDb, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { startRun } from "./start-run";

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

it("removes the run row again when the queue is unreachable, and says nothing started", async () => {
  const { team, admin, workflows } = await seed(db, {
    adminEmail: "a@test.local",
    adminPassword: "pw-12345678",
  });
  // A closed port, with the offline queue off as the web app configures it: fails fast.
  const connection = new Redis({
    host: "127.0.0.1",
    port: 1,
    maxRetriesPerRequest: null,
    enableOfflineQueue: false,
    lazyConnect: true,
  });
  connection.on("error", () => undefined);
  const queue = new Queue<RunJob>(RUN_QUEUE, { connection, prefix: "sy-unreachable" });
  queue.on("error", () => undefined);
  const error = await startRun(
    { db, queue },
    {
      teamId: team.id,
      userId: admin.id,
      role: "owner",
      workflowId: workflows[0]!.workflowId,
      trigger: "api",
    },
  ).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("SYSTEM.QUEUE_UNAVAILABLE");
  expect((error as AppError).userMessage).toContain("nothing was started");
  expect(await db.run.count({ where: { teamId: team.id } })).toBe(0);
  await queue.close().catch(() => undefined);
  connection.disconnect();
});
