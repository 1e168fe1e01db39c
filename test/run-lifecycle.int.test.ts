/**
 * The run lifecycle's compare-and-set writes and audited token changes, against a real
 * Postgres: a finish never overwrites a run that already ended (a cancelled run stays
 * cancelled), and an API token exists only with its audit entry (a refused audit insert
 * rolls the token back).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  cancelQueuedRun,
  createDb,
  createRun,
  finishRun,
  listApiTokens,
  saveWorkflowVersion,
  type Db,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { createToken, revokeToken } from "~/server/tokens/token-operations";

let database: TestDatabase;
let db: Db;
let teamId: string;
let userId: string;
let workflowId: string;
let workflowVersionId: string;

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 2 });
  const seeded = await seed(db, {
    adminEmail: "lifecycle@test.local",
    adminPassword: "lifecycle-password",
  });
  teamId = seeded.team.id;
  userId = seeded.admin.id;
  const saved = await saveWorkflowVersion(db, {
    teamId,
    name: "lifecycle",
    files: {
      "workflow.yaml":
        "name: lifecycle\nstates:\n  initial: a\n  a:\n    type: step\n    command: echo a\n    on_success: done\n  done:\n    type: terminal\n",
    },
  });
  workflowId = saved.workflowId;
  workflowVersionId = saved.id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const newRun = () =>
  createRun(db, {
    teamId,
    workflowId,
    workflowVersionId,
    lane: "default",
    trigger: "api",
    inputs: {},
    startedById: userId,
  });
const statusOf = async (id: string) => (await db.run.findUniqueOrThrow({ where: { id } })).status;

/** Runs `body` while Postgres refuses every audit entry of `action` (a trigger, dropped after). */
const refusingAudit = async (action: string, body: () => Promise<void>) => {
  await db.$executeRawUnsafe(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action = '${action}' THEN RAISE EXCEPTION 'test refuses this audit entry'; END IF;
  RETURN NEW;
END $$`);
  await db.$executeRawUnsafe(
    `CREATE TRIGGER refuse_audit BEFORE INSERT ON "AuditLog" FOR EACH ROW EXECUTE FUNCTION refuse_audit()`,
  );
  try {
    await body();
  } finally {
    await db.$executeRawUnsafe(`DROP TRIGGER refuse_audit ON "AuditLog"`);
    await db.$executeRawUnsafe(`DROP FUNCTION refuse_audit()`);
  }
};

it("does not overwrite a run that was already cancelled when a finish arrives late", async () => {
  const run = await newRun();
  expect(await cancelQueuedRun(db, teamId, run.id)).toBe(true);
  const late = await finishRun(db, teamId, run.id, { status: "succeeded" });
  expect(late.count).toBe(0);
  const row = await db.run.findUniqueOrThrow({ where: { id: run.id } });
  expect(row.status).toBe("cancelled");
  expect(row.errorCode).toBe("EXECUTION.CANCELLED");
  expect(await cancelQueuedRun(db, teamId, run.id)).toBe(false);
  expect(await statusOf(run.id)).toBe("cancelled");
});

it("creates a token only together with its audit entry, and revokes it likewise", async () => {
  const actor = { teamId, userId, role: "admin" as const };
  await refusingAudit("api_token.create", async () => {
    await expect(createToken(db, actor, { name: "never-audited" })).rejects.toThrow(
      /refuses this audit entry/,
    );
    expect((await listApiTokens(db, teamId)).map((t) => t.name)).not.toContain("never-audited");
  });

  const created = await createToken(db, actor, { name: "audited" });
  expect(
    await db.auditLog.count({
      where: { teamId, action: "api_token.create", targetId: created.id },
    }),
  ).toBe(1);

  await refusingAudit("api_token.revoke", async () => {
    await expect(revokeToken(db, actor, { id: created.id })).rejects.toThrow(
      /refuses this audit entry/,
    );
    expect(
      (await listApiTokens(db, teamId)).find((t) => t.id === created.id)?.revokedAt,
    ).toBeNull();
  });
  await revokeToken(db, actor, { id: created.id });
  expect((await listApiTokens(db, teamId)).find((t) => t.id === created.id)).toMatchObject({
    revokedReason: "revoked",
    revokedBy: { id: userId },
  });
  expect(
    await db.auditLog.count({
      where: { teamId, action: "api_token.revoke", targetId: created.id },
    }),
  ).toBe(1);
});
