/**
 * The run list sends what the list shows, never a run's checkpoint (every captured value
 * of the run) or its pinned workflow versions.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb, createRun, saveCheckpoint, saveWorkflowVersion, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "./helpers/dashboard-caller";

let database: TestDatabase;
let db: Db;
let adminId: string;
let teamId: string;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  adminId = seeded.admin.id;
  teamId = seeded.team.id;
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

it("lists runs without their checkpoints or pinned versions", async () => {
  const version = await saveWorkflowVersion(db, {
    teamId,
    name: "listed",
    files: {
      "workflow.yaml":
        "name: listed\nstates:\n  initial: s\n  s: { type: step, command: 'true' }\n",
    },
  });
  const run = await createRun(db, {
    teamId,
    workflowId: version.workflowId,
    workflowVersionId: version.id,
    lane: "default",
    trigger: "api",
  });
  await db.run.update({ where: { id: run.id }, data: { status: "running", workerId: "w" } });
  expect(
    await saveCheckpoint(db, teamId, run.id, "w", { context: { captured: "checkpoint-value-71" } }),
  ).toBe(true);

  const listed = await dashboardCaller({ db }, adminId).runs.list();
  const row = listed.find((r) => r.id === run.id);
  expect(row).toMatchObject({
    id: run.id,
    status: "running",
    trigger: "api",
    workflow: { name: "listed" },
  });
  expect(row).not.toHaveProperty("checkpoint");
  expect(row).not.toHaveProperty("pinnedVersions");
  expect(row).not.toHaveProperty("inputs");
  expect(JSON.stringify(listed)).not.toContain("checkpoint-value-71");
});
