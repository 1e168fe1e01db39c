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
import type { AppError } from "@switchyard/core/errors";
import type { RunJob } from "@switchyard/core/runs";
import { signatureHeader } from "@switchyard/core/triggers";
import {
  countTriggerRuns,
  createApiToken,
  createDb,
  getRun,
  listAuditLog,
  removeMember,
  type Db,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase, type TestDatabase } from "@switchyard/testing/db";
import { Queue as BullQueue } from "bullmq";
import { RUN_QUEUE } from "@switchyard/core/runs";
import { receiveWebhook } from "~/server/triggers/receive-webhook";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { restCaller } from "./helpers/rest-caller";
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
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const caller = (userId: string) => dashboardCaller({ db, queue, redis, prefix, keyring }, userId);
const hook = (triggerId: string, body: string, signature: string | null) =>
  receiveWebhook({ db, keyring, queue, redis, prefix }, { triggerId, signature, rawBody: body });
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { code?: string; message?: string }) => e.code ?? e.message ?? "error",
  );

beforeAll(async () => {
  database = await freshDatabase();
  db = createDb(database.url, { max: 4 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  adminId = seeded.admin.id;
  teamId = seeded.team.id;
  memberId = await addMember(db, teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
  });
  viewerId = await addMember(db, teamId, {
    email: "viewer@test.local",
    name: "Viewer",
    role: "viewer",
  });
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

const helloId = async () =>
  (await caller(adminId).workflows.list()).find((w) => w.name === "hello-world")!.id;

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
    await caller(adminId).workflows.save({
      entry: "workflow.yaml",
      files: { "workflow.yaml": yaml },
    });
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
    expect(listed.canCreate).toBe(false);
    expect(listed.triggers.every((t) => !t.canManage)).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const body = JSON.stringify({ ref: "refs/heads/main", pusher: { name: "ada" } });
    const { runId } = await hook(created.trigger.id, body, signatureHeader(secret, body));
    const run = await getRun(db, teamId, runId);
    expect(run).toMatchObject({
      trigger: "webhook",
      triggerId: created.trigger.id,
      startedById: memberId,
      status: "queued",
    });
    expect(run!.inputs).toEqual({ branch: "refs/heads/main", mode: "fast", author: "ada" });
    expect(await queue.getJob(runId)).toBeTruthy();
    expect((await caller(memberId).triggers.get({ id: created.trigger.id })).lastRunId).toBe(runId);

    expect(await codeOf(hook(created.trigger.id, body, signatureHeader("whsec_wrong", body)))).toBe(
      "USER.WEBHOOK.SIGNATURE_INVALID",
    );
    expect(
      await codeOf(hook(created.trigger.id, '{"ref":"x"}', signatureHeader(secret, body))),
    ).toBe("USER.WEBHOOK.SIGNATURE_INVALID");
    expect(await codeOf(hook(created.trigger.id, body, null))).toBe(
      "USER.WEBHOOK.SIGNATURE_MISSING",
    );
    expect(
      await codeOf(
        hook(
          created.trigger.id,
          body,
          signatureHeader(secret, body, Math.floor(Date.now() / 1000) - 600),
        ),
      ),
    ).toBe("USER.WEBHOOK.SIGNATURE_EXPIRED");
    expect(await codeOf(hook("trg_doesnotexist", body, signatureHeader(secret, body)))).toBe(
      "NOT_FOUND",
    );
    expect(await countTriggerRuns(db, teamId, created.trigger.id)).toBe(1);

    await caller(memberId).triggers.pause({ id: created.trigger.id });
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader("whsec_wrong", body)))).toBe(
      "USER.WEBHOOK.SIGNATURE_INVALID",
    );
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader(secret, body)))).toBe(
      "USER.TRIGGER.PAUSED",
    );
    await caller(memberId).triggers.resume({ id: created.trigger.id });

    const rotated = await caller(memberId).triggers.rotateSecret({ id: created.trigger.id });
    expect(rotated.secret).not.toBe(secret);
    expect(await codeOf(hook(created.trigger.id, body, signatureHeader(secret, body)))).toBe(
      "USER.WEBHOOK.SIGNATURE_INVALID",
    );
    expect(
      await codeOf(hook(created.trigger.id, body, signatureHeader(rotated.secret, body))),
    ).toBe("ok");
    expect(await countTriggerRuns(db, teamId, created.trigger.id)).toBe(2);

    await caller(memberId).triggers.delete({ id: created.trigger.id });
    expect(
      await codeOf(hook(created.trigger.id, body, signatureHeader(rotated.secret, body))),
    ).toBe("NOT_FOUND");
    const audit = await listAuditLog(db, { teamId, actionPrefix: "trigger.", limit: 50 });
    expect(audit.entries.map((e) => e.action).sort()).toEqual([
      "trigger.create",
      "trigger.delete",
      "trigger.pause",
      "trigger.resume",
      "trigger.rotate_secret",
    ]);
    expect(JSON.stringify(audit)).not.toContain(rotated.secret);
  });

  it("lets viewers read but not change, and checks the lane", async () => {
    const workflowId = await helloId();
    expect(await codeOf(caller(viewerId).triggers.create({ workflowId, kind: "webhook" }))).toBe(
      "FORBIDDEN",
    );
    const { trigger } = await caller(adminId).triggers.create({ workflowId, kind: "webhook" });
    expect(await codeOf(caller(viewerId).triggers.pause({ id: trigger.id }))).toBe("FORBIDDEN");
    expect(await codeOf(caller(viewerId).triggers.rotateSecret({ id: trigger.id }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(caller(viewerId).triggers.delete({ id: trigger.id }))).toBe("FORBIDDEN");
    expect((await caller(viewerId).triggers.get({ id: trigger.id })).id).toBe(trigger.id);
    expect(
      await codeOf(
        caller(adminId).triggers.create({
          workflowId,
          kind: "webhook",
          inputMap: { branch: "ref" },
        }),
      ),
    ).toBe("BAD_REQUEST");
  });

  it("fails the fire, with the reason on the trigger, when its creator has left the team", async () => {
    const workflowId = await helloId();
    const leaverId = await addMember(db, teamId, {
      email: "leaver@test.local",
      name: "Leaver",
      role: "member",
    });
    const created = await caller(leaverId).triggers.create({ workflowId, kind: "webhook" });
    await removeMember(db, teamId, leaverId);
    const body = "{}";
    expect(
      await codeOf(hook(created.trigger.id, body, signatureHeader(created.secret!, body))),
    ).toBe("FORBIDDEN");
    const after = await caller(adminId).triggers.get({ id: created.trigger.id });
    expect(after.lastError).toMatch(/no longer in the team/);
    expect(await countTriggerRuns(db, teamId, created.trigger.id)).toBe(0);
  });
});

describe("replayed deliveries", () => {
  it("refuses a signed delivery sent again within the window with USER.WEBHOOK.REPLAYED and starts no second run", async () => {
    const workflowId = await hookedId();
    const created = await caller(adminId).triggers.create({
      workflowId,
      kind: "webhook",
      inputMap: { branch: "/ref" },
    });
    const id = created.trigger.id;
    const body = JSON.stringify({ ref: "main" });
    const signature = signatureHeader(created.secret!, body);
    expect(await codeOf(hook(id, body, signature))).toBe("ok");
    const replay = await hook(id, body, signature).then(
      () => undefined,
      (e: AppError) => e,
    );
    expect(replay).toMatchObject({ code: "USER.WEBHOOK.REPLAYED", httpStatus: 409 });
    // The same delivery with another (wrong) v1 beside the right one is the same delivery.
    expect(await codeOf(hook(id, body, `${signature},v1=${"0".repeat(64)}`))).toBe(
      "USER.WEBHOOK.REPLAYED",
    );
    expect(await countTriggerRuns(db, teamId, id)).toBe(1);
    // A replay leaves no error on the trigger: the first delivery's run is still its last.
    expect((await caller(adminId).triggers.get({ id })).lastError).toBeNull();

    // A new delivery (signed at another second) of the same body starts a run of its own.
    expect(
      await codeOf(
        hook(id, body, signatureHeader(created.secret!, body, Math.floor(Date.now() / 1000) - 60)),
      ),
    ).toBe("ok");
    expect(await countTriggerRuns(db, teamId, id)).toBe(2);
  });

  it("lets a delivery that started no run be sent again, and forgets accepted ones once the window has passed", async () => {
    const workflowId = await hookedId();
    const created = await caller(adminId).triggers.create({ workflowId, kind: "webhook" });
    const id = created.trigger.id;
    const notJson = "{not json";
    const signed = signatureHeader(created.secret!, notJson);
    expect(await codeOf(hook(id, notJson, signed))).toBe("BAD_REQUEST");
    expect(await codeOf(hook(id, notJson, signed))).toBe("BAD_REQUEST");

    const body = "{}";
    const signature = signatureHeader(created.secret!, body);
    expect(await codeOf(hook(id, body, signature))).toBe("ok");
    const keys = await redis.keys(`${prefix}:webhook:${id}:*`);
    expect(keys).toHaveLength(1);
    const ttl = await redis.ttl(keys[0]!);
    expect(ttl).toBeGreaterThan(300);
    expect(ttl).toBeLessThanOrEqual(360 + 1);
    expect(keys[0]).not.toContain(created.secret!);
  });
});

describe("who may change a trigger, and whom it runs as", () => {
  it("refuses a plain member who may start runs in the lane every change of another member's trigger, through both surfaces", async () => {
    const workflowId = await hookedId();
    const ownerOfTrigger = await addMember(db, teamId, {
      email: "creator@test.local",
      name: "Creator",
      role: "member",
    });
    const other = await addMember(db, teamId, {
      email: "other@test.local",
      name: "Other",
      role: "member",
    });
    const created = await caller(ownerOfTrigger).triggers.create({
      workflowId,
      kind: "webhook",
      name: "creator's hook",
      inputs: { mode: "fast" },
    });
    const id = created.trigger.id;

    // The other member may start runs in this lane and create triggers of their own...
    expect(await codeOf(caller(other).triggers.create({ workflowId, kind: "webhook" }))).toBe("ok");
    // ...but changes nothing of the creator's, nor receives its secret.
    expect(await codeOf(caller(other).triggers.update({ id, inputs: { mode: "slow" } }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(caller(other).triggers.rotateSecret({ id }))).toBe("FORBIDDEN");
    expect(await codeOf(caller(other).triggers.pause({ id }))).toBe("FORBIDDEN");
    expect(await codeOf(caller(other).triggers.resume({ id }))).toBe("FORBIDDEN");
    expect(await codeOf(caller(other).triggers.delete({ id }))).toBe("FORBIDDEN");
    const { token } = await createApiToken(db, { teamId, userId: other, name: "other's" });
    const rest = restCaller({ db, queue, redis, prefix, keyring }, () => token);
    expect(
      (await rest("PUT", `/triggers/${id}`, { body: { inputs: { mode: "slow" } } })).status,
    ).toBe(403);
    const rotated = await rest("POST", `/triggers/${id}/rotate-secret`);
    expect(rotated.status).toBe(403);
    expect(JSON.stringify(rotated.body)).not.toContain("whsec_");
    expect((await rest("DELETE", `/triggers/${id}`)).status).toBe(403);

    // Nothing changed: the creator's secret still starts a run, as the creator, with their inputs.
    const after = await caller(ownerOfTrigger).triggers.get({ id });
    expect(after).toMatchObject({
      inputs: { mode: "fast" },
      paused: false,
      runsAs: { id: ownerOfTrigger, name: "Creator" },
    });
    const { runId } = await hook(id, "{}", signatureHeader(created.secret!, "{}"));
    expect(await getRun(db, teamId, runId)).toMatchObject({
      startedById: ownerOfTrigger,
      inputs: { mode: "fast" },
    });

    // The panel offers the other member nothing on it, and the creator everything.
    const seenByOther = await caller(other).triggers.list({ workflowId });
    expect(seenByOther.canCreate).toBe(true);
    expect(seenByOther.triggers.find((t) => t.id === id)).toMatchObject({
      canManage: false,
      runsAs: { id: ownerOfTrigger },
    });
    expect(
      (await caller(ownerOfTrigger).triggers.list({ workflowId })).triggers.find(
        (t) => t.id === id,
      ),
    ).toMatchObject({ canManage: true });
    expect(
      (await caller(adminId).triggers.list({ workflowId })).triggers.find((t) => t.id === id),
    ).toMatchObject({ canManage: true });
  });

  it("re-binds a trigger an admin changes or rotates to that admin, audits every change with the fields it changed, and leaves it bound on pause", async () => {
    const workflowId = await hookedId();
    const creator = await addMember(db, teamId, {
      email: "creator2@test.local",
      name: "Creator Two",
      role: "member",
    });
    const created = await caller(creator).triggers.create({
      workflowId,
      kind: "webhook",
      inputs: { mode: "fast" },
    });
    const id = created.trigger.id;

    // The creator's own change keeps it theirs, and is audited with what changed.
    await caller(creator).triggers.update({ id, name: "renamed", inputMap: { branch: "/ref" } });
    expect((await caller(creator).triggers.get({ id })).runsAs?.id).toBe(creator);

    // An admin's pause and resume change nothing of whom it runs as.
    await caller(adminId).triggers.pause({ id });
    await caller(adminId).triggers.resume({ id });
    expect((await caller(creator).triggers.get({ id })).runsAs?.id).toBe(creator);

    // An admin's change makes it the admin's: the next run starts as the admin.
    const changed = await caller(adminId).triggers.update({ id, inputs: { mode: "slow" } });
    expect(changed.runsAs).toMatchObject({ id: adminId });
    const body = JSON.stringify({ ref: "main" });
    const { runId } = await hook(id, body, signatureHeader(created.secret!, body));
    expect(await getRun(db, teamId, runId)).toMatchObject({
      startedById: adminId,
      inputs: { branch: "main", mode: "slow" },
    });
    // The creator no longer changes it; the admin's trigger is the admin's.
    expect(await codeOf(caller(creator).triggers.update({ id, name: "mine again" }))).toBe(
      "FORBIDDEN",
    );

    // Rotating another member's trigger re-binds it too.
    const second = await caller(creator).triggers.create({ workflowId, kind: "webhook" });
    const rotated = await caller(adminId).triggers.rotateSecret({ id: second.trigger.id });
    expect((await caller(adminId).triggers.get({ id: second.trigger.id })).runsAs?.id).toBe(
      adminId,
    );
    const { runId: secondRun } = await hook(
      second.trigger.id,
      "{}",
      signatureHeader(rotated.secret, "{}"),
    );
    expect((await getRun(db, teamId, secondRun))?.startedById).toBe(adminId);

    const entries = (
      await listAuditLog(db, { teamId, actionPrefix: "trigger.", limit: 100 })
    ).entries.filter((e) => e.targetId === id || e.targetId === second.trigger.id);
    const of = (action: string, actor: string, target = id) =>
      entries
        .filter((e) => e.action === action && e.actorUserId === actor && e.targetId === target)
        .map((e) => e.metadata);
    expect(of("trigger.update", creator)).toEqual([{ fields: ["name", "inputMap"] }]);
    expect(of("trigger.update", adminId)).toEqual([
      { fields: ["inputs"], runsAs: { from: creator, to: adminId } },
    ]);
    expect(of("trigger.pause", adminId)).toEqual([{}]);
    expect(of("trigger.rotate_secret", adminId, second.trigger.id)).toEqual([
      { runsAs: { from: creator, to: adminId } },
    ]);
    expect(JSON.stringify(entries)).not.toContain(rotated.secret);
    expect(JSON.stringify(entries)).not.toContain(created.secret!);
  });
});
