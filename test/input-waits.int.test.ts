/**
 * Interactive inputs on a server, through a real worker, Postgres, Redis and BullMQ: a start
 * from the API without a required input is refused naming it (400), as AWF refuses a caller
 * with no terminal; a run a schedule or a webhook starts without one waits for a person
 * instead (an `input` wait with each missing input's declaration, holding no worker, told to
 * wait.opened endpoints); the answer is checked as a start's inputs are (a value outside the
 * enum is 400 naming the field) and then the run goes on with it; a wait nobody answers in
 * time fails its run with the missing input named.
 */
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeader, TRIGGER_QUEUE, type TriggerJob } from "@switchyard/core/triggers";
import { createApiToken, listRunEvents, saveWorkflowVersion } from "@switchyard/db";
import { deployInputsWorkflow } from "@switchyard/testing/workflow";
import { receiveWebhook } from "~/server/triggers/receive-webhook";
import { dashboardCaller, environmentKeyring } from "./helpers/dashboard-caller";
import { restCaller } from "./helpers/rest-caller";
import { openSmtpInbox, type SmtpInbox } from "./helpers/smtp-inbox";
import { addMember } from "./helpers/team-member";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { waitFor } from "./helpers/worker-process";

let stack: RunStack;
let triggerQueue: Queue<TriggerJob>;
let workflowId: string;
let token: string;
let smtp: SmtpInbox | undefined;
/** Mail the worker sent, to whom and what it said. */
const mails = () => smtp?.mails ?? [];
const keyring = environmentKeyring();
const services = () => ({
  db: stack.db,
  queue: stack.queue,
  redis: stack.redis,
  prefix: stack.prefix,
  keyring,
});
const caller = () => dashboardCaller(services(), stack.adminId);
const rest = (...args: Parameters<ReturnType<typeof restCaller>>) =>
  restCaller(services(), () => token)(...args);

/** The open input wait of a run, once the run waits on it. */
const inputWaitOf = (runId: string) =>
  waitFor(
    async () => {
      const { waits } = await caller().waits.list({ runId });
      const wait = waits.find((w) => w.kind === "input" && w.status === "open");
      const run = await caller().runs.get({ id: runId });
      return wait && run.status === "waiting" ? wait : undefined;
    },
    20_000,
    `run ${runId} to wait for its inputs`,
  );

/**
 * The run a schedule (with `inputs`) starts when it fires, as its scheduler would fire it, now;
 * the schedule is `as`'s, and runs as them.
 */
const scheduledRun = async (inputs?: Record<string, unknown>, as = caller()) => {
  const { trigger } = await as.triggers.create({
    workflowId,
    kind: "schedule",
    cron: "0 0 1 1 *",
    timezone: "UTC",
    ...(inputs ? { inputs } : {}),
  });
  await triggerQueue.add("fire", { triggerId: trigger.id, teamId: stack.teamId });
  return waitFor(
    async () => (await caller().triggers.get({ id: trigger.id })).lastRunId ?? undefined,
    20_000,
    "the schedule to start a run",
  );
};

/** The wait.opened delivery to the endpoint listening, once it is written. */
const waitOpenedDelivery = (waitId: string) =>
  waitFor(
    async () =>
      (await stack.db.notificationDelivery.findFirst({
        where: { teamId: stack.teamId, event: "wait.opened", waitId },
      })) ?? undefined,
    10_000,
    "a wait.opened delivery",
  );

const finished = (id: string) => runEnded(() => caller().runs.get({ id }), `run ${id}`);

beforeAll(async () => {
  smtp = await openSmtpInbox();
  stack = await openRunStack({
    SWITCHYARD_JOB_LOCK_MS: "1500",
    SWITCHYARD_SMTP_URL: smtp.url,
  });
  triggerQueue = new Queue<TriggerJob>(TRIGGER_QUEUE, {
    connection: stack.redis,
    prefix: stack.prefix,
  });
  workflowId = (
    await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "deploy-asks",
      files: { "workflow.yaml": deployInputsWorkflow("deploy-asks") },
    })
  ).workflowId;
  token = (
    await createApiToken(stack.db, { teamId: stack.teamId, userId: stack.adminId, name: "t" })
  ).token;
  await stack.db.notificationEndpoint.create({
    data: { teamId: stack.teamId, url: "https://hooks.example.com/w", events: ["wait.opened"] },
  });
}, 90_000);
afterAll(async () => {
  await triggerQueue?.obliterate({ force: true }).catch(() => undefined);
  await triggerQueue?.close();
  await closeRunStack(stack);
  await smtp?.close();
}, 90_000);

describe("interactive inputs on a server", () => {
  it("refuses an API start without a required input, naming it", async () => {
    const started = await rest("POST", `/workflows/${workflowId}/runs`, {
      body: { inputs: { environment: "dev" } },
    });
    expect(started.status).toBe(400);
    expect(started.body.error).toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      location: { path: "inputs.version" },
    });
    expect(started.body.error?.message).toContain("inputs.version: is required");
    await expect(
      caller().runs.start({ workflowId, inputs: { version: "v1.0.0" } }),
    ).rejects.toMatchObject({ cause: { location: { path: "inputs.environment" } } });
  });

  it("a scheduled run without its inputs waits for them; a bad answer names the field, a good one runs it", async () => {
    const fired = await scheduledRun();
    const wait = await inputWaitOf(fired);
    expect(wait).toMatchObject({ kind: "input", parked: true, lane: "default", mayAnswer: true });
    expect(wait.question).toContain("environment");
    expect(wait.expiresAt).not.toBeNull();
    const detail = wait.detail as { inputs: Record<string, unknown>[]; missing: string[] };
    expect(detail.missing).toEqual(["environment", "version"]);
    // Every input it was not given, as AWF's prompt asks for optional ones too (with their defaults).
    expect(detail.inputs).toEqual([
      expect.objectContaining({
        name: "environment",
        type: "string",
        required: true,
        description: "Target environment",
        validation: expect.objectContaining({ enum: ["dev", "staging", "prod"] }) as unknown,
      }),
      expect.objectContaining({
        name: "version",
        validation: expect.objectContaining({ pattern: "^v\\d+\\.\\d+\\.\\d+$" }) as unknown,
      }),
      expect.objectContaining({ name: "dry_run", required: false, default: false }),
    ]);
    // No worker holds it: its job is done, and the run has not started a step.
    expect((await caller().runs.get({ id: fired })).steps).toEqual([]);
    // wait.opened is told to the endpoints listening.
    await waitOpenedDelivery(wait.id);
    // And mailed to who may answer, with the run's link.
    await waitFor(
      async () => mails().find((m) => m.body.includes(`/runs/${fired}`)),
      15_000,
      "a mail about the scheduled run's wait",
    );

    const bad = await rest("POST", `/waits/${wait.id}/answer`, {
      body: { inputs: { environment: "qa", version: "v1.2.3" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      location: { path: "inputs.environment" },
    });
    const badPattern = await rest("POST", `/waits/${wait.id}/answer`, {
      body: { inputs: { environment: "prod", version: "1.2.3" } },
    });
    expect(badPattern.status).toBe(400);
    expect(badPattern.body.error?.location).toMatchObject({ path: "inputs.version" });
    const approve = await rest("POST", `/waits/${wait.id}/answer`, {
      body: { decision: "approve" },
    });
    expect(approve.status).toBe(400);
    expect(approve.body.error?.message).toContain("inputs");
    expect((await caller().waits.get({ id: wait.id })).status).toBe("open");

    const good = await rest("POST", `/waits/${wait.id}/answer`, {
      body: { inputs: { environment: "prod", version: "v1.2.3" } },
    });
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({
      resumed: true,
      wait: {
        status: "answered",
        answer: { decision: "inputs", inputs: ["environment", "version"] },
      },
    });
    const run = await finished(fired);
    expect(run.status).toBe("succeeded");
    expect(run.inputs).toEqual({ environment: "prod", version: "v1.2.3" });
    expect(run.steps[0]?.stdout).toContain("deploying v1.2.3 to prod dry=false");
    const again = await rest("POST", `/waits/${wait.id}/answer`, {
      body: { inputs: { environment: "dev", version: "v1.2.3" } },
    });
    expect(again.status).toBe(409);
  }, 60_000);

  it("a webhook run without an input waits for it, answered from the dashboard", async () => {
    const { trigger, secret } = await caller().triggers.create({
      workflowId,
      kind: "webhook",
      inputMap: { environment: "/env" },
    });
    const body = JSON.stringify({ env: "staging" });
    const { runId } = await receiveWebhook(
      { db: stack.db, keyring, queue: stack.queue, redis: stack.redis, prefix: stack.prefix },
      {
        triggerId: trigger.id,
        signature: signatureHeader(secret!, body, Math.floor(Date.now() / 1000)),
        rawBody: body,
      },
    );
    const wait = await inputWaitOf(runId);
    expect(wait.detail).toMatchObject({ missing: ["version"] });
    // Announced as a schedule's wait is: to the endpoints listening, and mailed to who may answer.
    await waitOpenedDelivery(wait.id);
    const mail = await waitFor(
      async () => mails().find((m) => m.body.includes(`/runs/${runId}`)),
      15_000,
      "a mail about the webhook run's wait",
    );
    expect(mail.to).toBe("admin@test.local");
    expect(mail.body).toContain("Fill in the inputs it asks for");
    expect((wait.detail as { inputs: { name: string }[] }).inputs.map((i) => i.name)).toEqual([
      "version",
      "dry_run",
    ]);
    await expect(
      caller().waits.answer({ id: wait.id, inputs: { version: "v2", environment: "dev" } }),
    ).rejects.toMatchObject({ cause: { code: "USER.INPUT.VALIDATION_FAILED" } });
    const answered = await caller().waits.answer({
      id: wait.id,
      inputs: { version: "v2.1.0", dry_run: true },
    });
    expect(answered.resumed).toBe(true);
    const run = await finished(runId);
    expect(run.status).toBe("succeeded");
    expect(run.steps[0]?.stdout).toContain("deploying v2.1.0 to staging dry=true");
  }, 60_000);

  it("a webhook delivery sent again with its Idempotency-Key parks no second run", async () => {
    const { trigger, secret } = await caller().triggers.create({ workflowId, kind: "webhook" });
    const body = JSON.stringify({});
    // A sender's retry is signed anew (a signature is accepted once) with the same key.
    const deliver = (t: number) =>
      receiveWebhook(
        { db: stack.db, keyring, queue: stack.queue, redis: stack.redis, prefix: stack.prefix },
        {
          triggerId: trigger.id,
          signature: signatureHeader(secret!, body, t),
          rawBody: body,
          idempotencyKey: "delivery-7f3a",
        },
      );
    const now = Math.floor(Date.now() / 1000);
    const first = await deliver(now);
    const wait = await inputWaitOf(first.runId);
    const again = await deliver(now - 1);
    expect(again.runId).toBe(first.runId);
    const runs = await stack.db.run.findMany({
      where: { teamId: stack.teamId, triggerId: trigger.id },
      select: { id: true, idempotencyKey: true },
    });
    expect(runs.map((r) => r.id)).toEqual([first.runId]);
    expect(runs[0]?.idempotencyKey).toContain("delivery-7f3a");
    expect((await caller().waits.list({ runId: first.runId })).waits.map((w) => w.id)).toEqual([
      wait.id,
    ]);
  }, 60_000);

  it("only the member the run runs as, or an admin, fills in its inputs", async () => {
    const memberId = await addMember(stack.db, stack.teamId, {
      email: "runner@test.local",
      name: "Runner",
      role: "member",
    });
    const otherId = await addMember(stack.db, stack.teamId, {
      email: "other@test.local",
      name: "Other",
      role: "member",
    });
    const memberToken = (
      await createApiToken(stack.db, { teamId: stack.teamId, userId: otherId, name: "o" })
    ).token;
    const asOther = dashboardCaller(services(), otherId);

    // The admin's schedule runs as the admin: another member may not give its inputs.
    const adminRun = await scheduledRun();
    const adminWait = await inputWaitOf(adminRun);
    const refused = await restCaller(services(), () => memberToken)(
      "POST",
      `/waits/${adminWait.id}/answer`,
      { body: { inputs: { environment: "dev", version: "v1.0.0" } } },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe("USER.WAIT.NOT_ALLOWED");
    expect(await asOther.waits.get({ id: adminWait.id })).toMatchObject({
      mayAnswer: false,
      answerers: expect.stringContaining("the member the run runs as") as unknown,
    });
    expect((await asOther.waits.list({ mine: true })).waits.map((w) => w.id)).not.toContain(
      adminWait.id,
    );
    expect((await caller().waits.get({ id: adminWait.id })).status).toBe("open");

    // A member's own schedule runs as them: they may, the other member may not, an admin may.
    const asMember = dashboardCaller(services(), memberId);
    const memberRun = await scheduledRun(undefined, asMember);
    const memberWait = await inputWaitOf(memberRun);
    await expect(
      asOther.waits.answer({
        id: memberWait.id,
        inputs: { environment: "dev", version: "v1.0.0" },
      }),
    ).rejects.toMatchObject({ cause: { code: "USER.WAIT.NOT_ALLOWED" } });
    expect((await asMember.waits.list({ mine: true })).waits.map((w) => w.id)).toContain(
      memberWait.id,
    );
    const answered = await asMember.waits.answer({
      id: memberWait.id,
      inputs: { environment: "dev", version: "v1.0.0" },
    });
    expect(answered.resumed).toBe(true);
    expect((await finished(memberRun)).status).toBe("succeeded");
    await caller().runs.cancel({ id: adminRun });
  }, 90_000);

  it("a run whose inputs are filled in keeps to the team's limit of running runs", async () => {
    const sleeper = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "sleeper",
      files: {
        "workflow.yaml":
          "name: sleeper\nstates:\n  initial: nap\n  nap:\n    type: step\n    command: sleep 60\n    on_success: done\n  done:\n    type: terminal\n",
      },
    });
    await stack.db.team.update({ where: { id: stack.teamId }, data: { maxConcurrentRuns: 1 } });
    try {
      const asked = await scheduledRun();
      const wait = await inputWaitOf(asked);
      const busy = await caller().runs.start({ workflowId: sleeper.workflowId, inputs: {} });
      await waitFor(
        async () => (await caller().runs.get({ id: busy.id })).status === "running" || undefined,
        20_000,
        "the sleeper to run",
      );
      const answered = await caller().waits.answer({
        id: wait.id,
        inputs: { environment: "dev", version: "v3.0.0" },
      });
      expect(answered.resumed).toBe(true);
      // The team's one place is taken: the run waits its turn, queued, and says why.
      const limited = await waitFor(
        async () =>
          (await listRunEvents(stack.db, stack.teamId, asked)).find(
            (e) => e.type === "run.waiting",
          ),
        20_000,
        "the run to wait for the team's limit",
      );
      expect(limited.payload).toMatchObject({ reason: "team_limit", limit: 1 });
      expect((await caller().runs.get({ id: asked })).status).toBe("queued");
      expect(await stack.db.run.count({ where: { teamId: stack.teamId, status: "running" } })).toBe(
        1,
      );
      await caller().runs.cancel({ id: busy.id });
      const run = await finished(asked);
      expect(run.status).toBe("succeeded");
      expect(run.steps[0]?.stdout).toContain("deploying v3.0.0 to dev");
    } finally {
      await stack.db.team.update({
        where: { id: stack.teamId },
        data: { maxConcurrentRuns: null },
      });
    }
  }, 120_000);

  it("a wait nobody answers in time fails its run with the missing input named", async () => {
    const runId = await scheduledRun({ environment: "dev" });
    const wait = await inputWaitOf(runId);
    await stack.db.wait.update({ where: { id: wait.id }, data: { expiresAt: new Date() } });
    const run = await finished(runId);
    expect(run).toMatchObject({ status: "failed", errorCode: "USER.INPUT.VALIDATION_FAILED" });
    expect(run.errorMessage).toContain("inputs.version: is required");
    expect((await caller().waits.get({ id: wait.id })).status).toBe("expired");
  }, 60_000);
});
