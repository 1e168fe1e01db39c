/**
 * Team variables and secrets: written through the dashboard's procedures (secrets sealed,
 * bound to their variable's name, write-only, audited without their value), resolved by
 * the worker for a workflow's `env` names, and scrubbed from everything the run stores.
 * Secrets sealed before names were bound are re-sealed by a worker at boot.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyringOf, parseMasterKey, sealSecret } from "@switchyard/core/crypto";
import type { RunJob } from "@switchyard/core/runs";
import { saveWorkflowVersion, type Db } from "@switchyard/db";
import { resolveTeamVariables as resolveVariables } from "../apps/worker/src/team-variables";
import type { TestDatabase } from "@switchyard/testing/db";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { closeRunStack, openRunStack, runEnded } from "./helpers/run-stack";
import { startWorker, type WorkerHandle } from "./helpers/worker-process";

const SECRET = "tok-s3cr3t-Value-9f8e7d";
let database: TestDatabase;
let db: Db;
let queue: Queue<RunJob>;
let redis: Redis;
let prefix: string;
let worker: WorkerHandle;
let adminId: string;
let teamId: string;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = (userId = adminId) => dashboardCaller({ db, queue, redis, prefix, keyring }, userId);

beforeAll(async () => {
  ({ database, db, queue, redis, prefix, adminId, teamId, worker } = await openRunStack());
});
afterAll(() => closeRunStack({ database, db, queue, redis, worker }));

it("stores secrets sealed and write-only, audited without their value", async () => {
  await caller().variables.set({ name: "GREETING", value: "hello there", secret: false });
  await caller().variables.set({
    name: "API_TOKEN",
    value: SECRET,
    secret: true,
    lanes: ["default"],
  });
  expect(await caller().variables.list()).toEqual([
    expect.objectContaining({ name: "API_TOKEN", secret: true, value: null }),
    expect.objectContaining({ name: "GREETING", secret: false, value: "hello there" }),
  ]);
  const dump = JSON.stringify(
    await Promise.all([
      db.teamVariable.findMany(),
      db.credential.findMany(),
      db.auditLog.findMany(),
    ]),
    (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v),
  );
  expect(dump).not.toContain(SECRET);
  expect(await db.auditLog.count({ where: { teamId, action: "variable.set" } })).toBe(2);

  const member = await db.user.create({ data: { email: "member@test.local", name: "Member" } });
  await db.membership.create({ data: { teamId, userId: member.id, role: "member" } });
  await expect(
    caller(member.id).variables.set({ name: "X", value: "y", secret: true }),
  ).rejects.toMatchObject({ code: "FORBIDDEN" });
  await expect(
    caller().variables.set({ name: "1BAD", value: "y", secret: false }),
  ).rejects.toMatchObject({ code: "BAD_REQUEST" });
});

it("gives a run its variables and secrets, and scrubs the secret from everything stored", async () => {
  const version = await saveWorkflowVersion(db, {
    teamId,
    name: "uses-secrets",
    files: {
      "workflow.yaml": `name: uses-secrets
env:
  - GREETING
  - API_TOKEN
states:
  initial: use
  use:
    type: step
    command: 'echo "$GREETING"; echo "token=$API_TOKEN"; printf %s "$API_TOKEN" | base64; echo "$API_TOKEN" >&2; exit 3'
`,
    },
  });
  const { id } = await caller().runs.start({ workflowId: version.workflowId });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`);
  expect(run.status).toBe("failed");
  const step = run.steps[0]!;
  expect(step.exitCode).toBe(3);
  expect(step.stdout).toContain("hello there");
  expect(step.stdout).toContain("token=[REDACTED]");
  const stored = JSON.stringify(
    [
      await db.run.findMany({ where: { id } }),
      await db.stepRun.findMany({ where: { runId: id } }),
      await db.runEvent.findMany({ where: { runId: id } }),
    ],
    (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v),
  );
  expect(stored).not.toContain(SECRET);
  expect(stored).not.toContain(Buffer.from(SECRET).toString("base64"));
  expect(worker.logs()).not.toContain(SECRET);
});

it("keeps secrets out of checkpoints, even when passed on to a sub-workflow", async () => {
  await saveWorkflowVersion(db, {
    teamId,
    name: "child-with-key",
    files: {
      "workflow.yaml":
        "name: child-with-key\ninputs:\n  - name: k\n    type: string\nstates:\n  initial: s\n  s:\n    type: step\n    command: echo got-it\n",
    },
  });
  const parent = await saveWorkflowVersion(db, {
    teamId,
    name: "passes-key",
    files: {
      "workflow.yaml": `name: passes-key
env:
  - API_TOKEN
states:
  initial: call
  call:
    type: call_workflow
    workflow: child-with-key
    inputs:
      k: "{{.env.API_TOKEN}}"
    on_success: done
  done:
    type: terminal
    status: success
`,
    },
  });
  const { id } = await caller().runs.start({ workflowId: parent.workflowId });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`);
  expect(run.status).toBe("succeeded");
  expect(run).not.toHaveProperty("checkpoint");
  const row = await db.run.findUniqueOrThrow({ where: { id } });
  expect(row.checkpoint).not.toBeNull();
  expect(JSON.stringify(row)).not.toContain(SECRET);
});

it("replacing a secret removes the old sealed value, and deleting removes both", async () => {
  const before = await db.credential.count({ where: { teamId } });
  await caller().variables.set({ name: "API_TOKEN", value: "another-secret-value", secret: true });
  expect(await db.credential.count({ where: { teamId } })).toBe(before);
  await caller().variables.delete({ name: "API_TOKEN" });
  expect(await db.credential.count({ where: { teamId } })).toBe(before - 1);
  expect((await caller().variables.list()).map((v) => v.name)).toEqual(["GREETING"]);
});

/** A secret variable's sealed envelope, as stored. */
const envelopeOf = async (name: string) => {
  const row = await db.teamVariable.findUniqueOrThrow({ where: { teamId_name: { teamId, name } } });
  return db.credential.findUniqueOrThrow({ where: { id: row.credentialId! } });
};

it("does not open a sealed value moved to another variable, in the worker or anywhere", async () => {
  await caller().variables.set({
    name: "KEY_A",
    value: "value-of-key-a",
    secret: true,
    lanes: ["default"],
  });
  await caller().variables.set({
    name: "KEY_B",
    value: "value-of-key-b",
    secret: true,
    lanes: ["default"],
  });
  const a = await envelopeOf("KEY_A");
  const b = await envelopeOf("KEY_B");
  expect(a.sealFormat).toBe(2);

  // KEY_B pointed at KEY_A's credential
  await db.teamVariable.update({
    where: { teamId_name: { teamId, name: "KEY_B" } },
    data: { credentialId: a.id },
  });
  await expect(resolveVariables(db, keyring, teamId, ["KEY_B"], "default")).rejects.toMatchObject({
    code: "SYSTEM.CREDENTIAL_UNREADABLE",
  });
  const reads = await saveWorkflowVersion(db, {
    teamId,
    name: "reads-key-b",
    files: {
      "workflow.yaml":
        'name: reads-key-b\nenv:\n  - KEY_B\nstates:\n  initial: s\n  s:\n    type: step\n    command: echo "$KEY_B"\n',
    },
  });
  const { id } = await caller().runs.start({ workflowId: reads.workflowId });
  const run = await runEnded(() => caller().runs.get({ id }), `run ${id}`);
  expect(run).toMatchObject({ status: "failed", errorCode: "SYSTEM.CREDENTIAL_UNREADABLE" });
  expect(JSON.stringify(run)).not.toContain("value-of-key-a");

  // KEY_A's sealed bytes copied into KEY_B's own credential row
  await db.teamVariable.update({
    where: { teamId_name: { teamId, name: "KEY_B" } },
    data: { credentialId: b.id },
  });
  const { keyId, wrappedKey, ciphertext, iv, authTag } = a;
  await db.credential.update({
    where: { id: b.id },
    data: { keyId, wrappedKey, ciphertext, iv, authTag },
  });
  await expect(resolveVariables(db, keyring, teamId, ["KEY_B"], "default")).rejects.toMatchObject({
    code: "SYSTEM.CREDENTIAL_UNREADABLE",
  });
  expect((await resolveVariables(db, keyring, teamId, ["KEY_A"], "default")).values).toEqual({
    KEY_A: "value-of-key-a",
  });
});

it("re-seals secrets sealed before names were bound when a worker boots, except one moved since", async () => {
  const legacy = async (name: string, value: string, sealedFor = name) => {
    const credentialId = `cred_legacy_${name.toLowerCase()}`;
    const envelope = sealSecret(
      keyring,
      { teamId, credentialId, name: `variable:${sealedFor}` },
      value,
      1,
    );
    await db.credential.create({
      data: {
        id: credentialId,
        teamId,
        name: `variable:${sealedFor}:${credentialId}`,
        kind: "secret",
        sealFormat: 1,
        keyId: envelope.keyId,
        wrappedKey: new Uint8Array(envelope.wrappedKey),
        ciphertext: new Uint8Array(envelope.ciphertext),
        iv: new Uint8Array(envelope.iv),
        authTag: new Uint8Array(envelope.authTag),
      },
    });
    await db.teamVariable.create({
      data: { teamId, name, secret: true, credentialId, lanes: ["default"] },
    });
    return credentialId;
  };
  const kept = await legacy("OLD_KEY", "old-key-value-1234");
  const moved = await legacy("MOVED_KEY", "moved-key-value-1234", "SOMEONE_ELSE");
  await expect(resolveVariables(db, keyring, teamId, ["OLD_KEY"], "default")).rejects.toMatchObject(
    { code: "SYSTEM.CREDENTIAL_UNREADABLE" },
  );

  const booted = await startWorker({
    DATABASE_URL: database.url,
    SWITCHYARD_QUEUE_PREFIX: `${prefix}-second`,
  });
  await booted.stop();
  expect(booted.logs()).toContain("re-sealed secrets to bind their variable names");
  expect(booted.logs()).not.toContain("old-key-value-1234");
  expect(await db.credential.findUniqueOrThrow({ where: { id: kept } })).toMatchObject({
    sealFormat: 2,
  });
  expect(await db.credential.findUniqueOrThrow({ where: { id: moved } })).toMatchObject({
    sealFormat: 1,
  });
  expect((await resolveVariables(db, keyring, teamId, ["OLD_KEY"], "default")).values).toEqual({
    OLD_KEY: "old-key-value-1234",
  });
  await expect(
    resolveVariables(db, keyring, teamId, ["MOVED_KEY"], "default"),
  ).rejects.toMatchObject({ code: "SYSTEM.CREDENTIAL_UNREADABLE" });

  // re-sealed, it is bound to its name like any other
  await db.teamVariable.update({
    where: { teamId_name: { teamId, name: "MOVED_KEY" } },
    data: { credentialId: kept },
  });
  await expect(
    resolveVariables(db, keyring, teamId, ["MOVED_KEY"], "default"),
  ).rejects.toMatchObject({ code: "SYSTEM.CREDENTIAL_UNREADABLE" });
});
