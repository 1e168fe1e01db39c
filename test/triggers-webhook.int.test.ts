/**
 * Inbound webhooks and the rules around triggers: a correctly signed body starts a run as
 * the trigger's creator with the mapped inputs; a wrong, missing or stale signature is 401
 * and starts nothing; an unknown trigger is 404; a paused one 409 (only once signed); a
 * rotated secret replaces the old one; viewers only read; a creator who left makes the
 * fire fail with the reason on the trigger. Secrets are returned once and never listed.
 */
import type { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import type { RunJob } from "@switchyard/core/runs";
import { signatureHeader } from "@switchyard/core/triggers";
import { countTriggerRuns, createDb, getRun, listAuditLog, removeMember, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { Queue as BullQueue } from "bullmq";
import { RUN_QUEUE } from "@switchyard/core/runs";
import { receiveWebhook } from "~/server/triggers/receive-webhook";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { addMember } from "./helpers/team-member";
import { randomPrefix } from "./helpers/worker-process";

let database: TestDatabase;
let db: Db;
let redis: Redis;
let queue: Queue<RunJob>;
let prefix: string;
let adminId: string;
let teamId: string;
let memberId: string;
let viewerId: string;
const keyring = keyringOf(parseMasterKey(process.env.SWITCHYARD_MASTER_KEY_ID || "k1", process.env.SWITCHYARD_MASTER_KEY ?? ""));
const caller = (userId: string) => dashboardCaller({ db, queue, redis, prefix, keyring }, userId);
const hook = (triggerId: string, body: string, signature: string | null) => receiveWebhook({ db, keyring, queue }, { triggerId, signature, rawBody: body });
const codeOf = async (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => e.code ?? e.message ?? "error");

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  adminId = seeded.admin.id;
  teamId = seeded.team.id;
  memberId = await addMember(db, teamId, { email: "member@test.local", name: "Member", role: "member" });
  viewerId = await addMember(db, teamId, { email: "viewer@test.local", name: "Viewer", role: "viewer" });
  prefix = randomPrefix();
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  queue = new BullQueue<RunJob>(RUN_QUEUE, { connection: redis, prefix });
});
afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await db?.$disconnect();
  await database?.drop();
});

const helloId = async () => (await caller(adminId).workflows.list()).find((w) => w.name === "hello-world")!.id;

/** A workflow whose inputs the webhook maps into. */
const hookedId = async () => {
  const yaml = [
    "name: hooked",
    "inputs:",
    "  - { name: branch, type: string, default: dev }",
    "  - { name: mode, type: string, default: slow }",
    "  - { name: author, type: string, default: nobody }",
    "states:",
    "  initial: s",
    "  s:",
    "    type: step",
    "    command: echo hi",
    "    on_success: done",
    "  done: { type: terminal }",
    "",
  ].join("\n");
  if (!(await caller(adminId).workflows.list()).some((w) => w.name === "hooked")) {
    await caller(adminId).workflows.save({ entry: "workflow.yaml", files: { "workflow.yaml": yaml } });
  }
  return (await caller(adminId).workflows.list()).find((w) => w.name === "hooked")!.id;
};

describe("webhook triggers", () => {
  it("starts a run with mapped inputs for a signed body, and refuses the rest", async () => {
    const workflowId = await hookedId();
    const created = await caller(memberId).triggers.create({
      workflowId,
      kind: "webhook",
      name: "on push",
      inputs: { branch: "dev", mode: "fast" },
      inputMap: { branch: "/ref", author: "/pusher/name" },
    });
    const secret = created.secret!;
    expect(secret).toMatch(/^whsec_/);
    expect(created.trigger.webhookPath).toBe(`/api/hooks/${created.trigger.id}`);
    const listed = await caller(viewerId).triggers.list({ workflowId });
    expect(listed.canManage).toBe(false);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const body = JSON.stringify({ ref: "refs/heads/main", pusher: { name: "ada" } });
    const { runId } = await hook(created.trigger.id, body, signatureHeader(secret, body));
    const run = await getRun(db, teamId, runId);
    expect(run).toMatchObject({ trigger: "webhook", triggerId: created.trigger.id, startedById: memberId, status: "queued" });
    expect(run!.inputs).toEqual({ branch: "refs/heads/main", mode: "fast", author: "ada" });
    expect(await queue.getJob(runId)).toBeTruthy();
    expect((await caller(memberId).triggers.get({ id: created.trigger.id })).lastRunId).toBe(runId);

    expect(await codeOf(hook(created.trigger.id, body, signatureHeader("whsec_wrong", body)))).toBe("USER.WEBHOOK.SIGNATURE_INVALID");
    expect(await codeOf(hook(created.trigger.id, '{"ref":"x"}', signatureHeader(secret, body)))).toBe("USER.WEBHOOK.SIGNATURE_INVALID");
    expect(await codeOf(hook(created.trigger.id, body, null))).toBe("USER.WEBHOOK.SIGNATURE_MISSING");
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader(secret, body, Math.floor(Date.now() / 1000) - 600)))).toBe("USER.WEBHOOK.SIGNATURE_EXPIRED");
    expect(await codeOf(hook("trg_doesnotexist", body, signatureHeader(secret, body)))).toBe("NOT_FOUND");
    expect(await countTriggerRuns(db, teamId, created.trigger.id)).toBe(1);

    await caller(memberId).triggers.pause({ id: created.trigger.id });
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader("whsec_wrong", body)))).toBe("USER.WEBHOOK.SIGNATURE_INVALID");
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader(secret, body)))).toBe("USER.TRIGGER.PAUSED");
    await caller(memberId).triggers.resume({ id: created.trigger.id });

    const rotated = await caller(memberId).triggers.rotateSecret({ id: created.trigger.id });
    expect(rotated.secret).not.toBe(secret);
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader(secret, body)))).toBe("USER.WEBHOOK.SIGNATURE_INVALID");
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader(rotated.secret, body)))).toBe("ok");
    expect(await countTriggerRuns(db, teamId, created.trigger.id)).toBe(2);

    await caller(memberId).triggers.delete({ id: created.trigger.id });
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader(rotated.secret, body)))).toBe("NOT_FOUND");
    const audit = await listAuditLog(db, { teamId, actionPrefix: "trigger.", limit: 50 });
    expect(audit.entries.map((e) => e.action).sort()).toEqual(["trigger.create", "trigger.delete", "trigger.pause", "trigger.resume", "trigger.rotate_secret"]);
    expect(JSON.stringify(audit)).not.toContain(rotated.secret);
  });

  it("lets viewers read but not change, and checks the lane", async () => {
    const workflowId = await helloId();
    expect(await codeOf(caller(viewerId).triggers.create({ workflowId, kind: "webhook" }))).toBe("FORBIDDEN");
    const { trigger } = await caller(adminId).triggers.create({ workflowId, kind: "webhook" });
    expect(await codeOf(caller(viewerId).triggers.pause({ id: trigger.id }))).toBe("FORBIDDEN");
    expect(await codeOf(caller(viewerId).triggers.rotateSecret({ id: trigger.id }))).toBe("FORBIDDEN");
    expect(await codeOf(caller(viewerId).triggers.delete({ id: trigger.id }))).toBe("FORBIDDEN");
    expect((await caller(viewerId).triggers.get({ id: trigger.id })).id).toBe(trigger.id);
    expect(await codeOf(caller(adminId).triggers.create({ workflowId, kind: "webhook", inputMap: { branch: "ref" } }))).toBe("BAD_REQUEST");
  });

  it("fails the fire, with the reason on the trigger, when its creator has left the team", async () => {
    const workflowId = await helloId();
    const leaverId = await addMember(db, teamId, { email: "leaver@test.local", name: "Leaver", role: "member" });
    const created = await caller(leaverId).triggers.create({ workflowId, kind: "webhook" });
    await removeMember(db, teamId, leaverId);
    const body = "{}";
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader(created.secret!, body)))).toBe("FORBIDDEN");
    const after = await caller(adminId).triggers.get({ id: created.trigger.id });
    expect(after.lastError).toMatch(/no longer in the team/);
    expect(await countTriggerRuns(db, teamId, created.trigger.id)).toBe(0);
  });
});
