/**
 * Triggers in the browser, against the real stack: a webhook trigger made on the workflow
 * page, whose URL and secret (shown once) a correctly signed POST uses to start a run that
 * the Runs list shows as "webhook", while a wrongly signed one is refused 401 and the same
 * one sent again 409, each starting nothing; and a per-second schedule that, with a second worker on the same queues, makes
 * exactly one run per fire, and none once paused. A member sees whom each trigger runs as
 * and is offered changes only on their own.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { TRIGGER_QUEUE } from "@switchyard/core/triggers";
import { signatureHeader } from "@switchyard/core/triggers";
import {
  countTriggerRuns,
  createDb,
  createTrigger,
  hashPassword,
  listWorkflows,
  teamBySlug,
  triggerRunTimes,
} from "@switchyard/db";
import { signIn } from "./sign-in";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The workflow's page, by the workflow's id in the demo team. */
const openWorkflow = async (page: Page, name: string) => {
  const db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  try {
    const team = await teamBySlug(db, "demo");
    const workflow = (await listWorkflows(db, team.id)).find((w) => w.name === name)!;
    await page.goto(`/workflows/${workflow.id}`);
  } finally {
    await db.$disconnect();
  }
  await page.getByRole("tab", { name: "Triggers" }).click();
  await expect(page.getByRole("heading", { name: "Triggers" })).toBeVisible();
};

test("a webhook trigger made in the page starts a run for a signed POST and refuses a wrong signature", async ({
  page,
  request,
}) => {
  await signIn(page);
  await openWorkflow(page, "hello-world");
  const form = page.getByRole("form", { name: "New trigger" });
  await form.getByLabel("Webhook").check();
  await form.getByLabel("Name", { exact: true }).fill("e2e hook");
  await form.getByRole("button", { name: "Create webhook" }).click();

  const secret = (await page.getByTestId("trigger-secret").innerText()).trim();
  expect(secret).toMatch(/^whsec_/);
  const card = page.locator('li[data-kind="webhook"]', { hasText: "e2e hook" });
  const url = (await card.locator("[data-webhook-url]").innerText()).trim();
  expect(url).toMatch(/\/api\/hooks\/trg_[a-z0-9]+$/);

  const body = JSON.stringify({ ref: "main" });
  const wrong = await request.post(url, {
    data: body,
    headers: {
      "content-type": "application/json",
      "X-Switchyard-Signature": signatureHeader("whsec_wrong", body),
    },
  });
  expect(wrong.status()).toBe(401);
  expect((await wrong.json()) as unknown).toMatchObject({
    error: { code: "USER.WEBHOOK.SIGNATURE_INVALID" },
  });
  const unsigned = await request.post(url, {
    data: body,
    headers: { "content-type": "application/json" },
  });
  expect(unsigned.status()).toBe(401);
  const unknown = await request.post(url.replace(/trg_[a-z0-9]+$/, "trg_nosuchtrigger"), {
    data: body,
    headers: { "X-Switchyard-Signature": signatureHeader(secret, body) },
  });
  expect(unknown.status()).toBe(404);
  const tooBig = await request.post(url, {
    data: "x".repeat(1024 * 1024 + 10),
    headers: { "X-Switchyard-Signature": signatureHeader(secret, "x") },
  });
  expect(tooBig.status()).toBe(413);

  const signature = signatureHeader(secret, body);
  const signed = await request.post(url, {
    data: body,
    headers: { "content-type": "application/json", "X-Switchyard-Signature": signature },
  });
  expect(signed.status()).toBe(202);
  const { runId } = (await signed.json()) as { runId: string };
  // The same signed request sent again within its five minutes is refused and starts nothing.
  const replayed = await request.post(url, {
    data: body,
    headers: { "content-type": "application/json", "X-Switchyard-Signature": signature },
  });
  expect(replayed.status()).toBe(409);
  expect((await replayed.json()) as unknown).toMatchObject({
    error: { code: "USER.WEBHOOK.REPLAYED" },
  });

  await page.goto("/runs");
  const row = page.locator(`tr[data-run="${runId}"]`);
  await expect(row).toContainText("hello-world");
  await expect(row).toContainText("webhook");
  // The wrongly signed, unsigned and replayed posts started nothing: this trigger made one run.
  const triggerId = url.split("/").at(-1)!;
  const db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  try {
    const team = await teamBySlug(db, "demo");
    expect(await countTriggerRuns(db, team.id, triggerId)).toBe(1);
  } finally {
    await db.$disconnect();
  }
  await openWorkflow(page, "hello-world");
  await expect(card.getByRole("link", { name: "last run" })).toHaveAttribute(
    "href",
    `/runs/${runId}`,
  );
});

test("a per-second schedule fires once per second across two workers, and not once paused", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const workspaces = await mkdtemp(path.join(tmpdir(), "sy-e2e-ws2-"));
  let second: ChildProcess | undefined;
  const db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  try {
    second = spawn(process.execPath, ["--import", "tsx", "apps/worker/src/main.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: process.env.E2E_DATABASE_URL,
        SWITCHYARD_QUEUE_PREFIX: process.env.E2E_QUEUE_PREFIX,
        SWITCHYARD_WORKSPACES_DIR: workspaces,
        SWITCHYARD_WORKER_ID: `e2e-second-${Math.random().toString(36).slice(2, 8)}`,
        SWITCHYARD_STEP_UID_BASE: String(950_000 + Math.floor(Math.random() * 1000) * 16),
        SWITCHYARD_CONNECTORS_MAX: "8",
      },
    });
    await new Promise<void>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`second worker not ready:\n${out}`)), 60_000);
      const on = (c: Buffer) => {
        out += c.toString();
        if (out.includes('"worker ready"')) {
          clearTimeout(timer);
          resolve();
        }
      };
      second!.stdout?.on("data", on);
      second!.stderr?.on("data", on);
    });

    await signIn(page);
    await openWorkflow(page, "hello-world");
    const form = page.getByRole("form", { name: "New trigger" });
    await form.getByLabel("Schedule").check();
    await form.getByLabel("Name", { exact: true }).fill("every second");
    await form.getByLabel("Cron expression").fill("*/1 * * * * *");
    await form.getByLabel("Time zone").fill("UTC");
    await form.getByRole("button", { name: "Create schedule" }).click();
    const card = page.locator('li[data-kind="schedule"]', { hasText: "every second" });
    await expect(card.locator("[data-next-fires]")).toContainText("Next:");
    const triggerId = (await card.getAttribute("data-trigger"))!;
    await expect(card.getByRole("link", { name: "last run" })).toBeVisible({ timeout: 15_000 });
    await page.waitForTimeout(3_000);
    await card.getByRole("button", { name: "Pause" }).click();
    await expect(card.locator("[data-paused]")).toBeVisible();
    await page.waitForTimeout(1_500);

    const team = await teamBySlug(db, "demo");
    const runs = await triggerRunTimes(db, team.id, triggerId);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    // One run per fire: each fire is one scheduler job (its id ends with the fire time), and
    // the runs are exactly the ones those jobs started.
    const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const queue = new Queue(TRIGGER_QUEUE, { connection, prefix: process.env.E2E_QUEUE_PREFIX });
    try {
      const fired = (await queue.getJobs(["completed"], 0, -1)).filter(
        (j) =>
          (j.data as { triggerId?: string }).triggerId === triggerId &&
          (j.returnvalue as { runId?: string } | null)?.runId,
      );
      const fireTimes = new Set(fired.map((j) => /:(\d+)$/.exec(j.id ?? "")?.[1]));
      expect(fireTimes.size).toBe(fired.length);
      expect(runs.length).toBe(fireTimes.size);
      expect(new Set(fired.map((j) => (j.returnvalue as { runId: string }).runId))).toEqual(
        new Set(runs.map((r) => r.id)),
      );
    } finally {
      await queue.close();
      connection.disconnect();
    }
    await page.waitForTimeout(2_500);
    expect((await triggerRunTimes(db, team.id, triggerId)).length).toBe(runs.length);

    await page.goto("/runs");
    await expect(page.locator(`tr[data-run="${runs[0]!.id}"]`)).toContainText("schedule");
  } finally {
    await db.$disconnect();
    if (second && second.exitCode === null) {
      const exited = new Promise((r) => second!.once("exit", r));
      second.kill("SIGTERM");
      const t = setTimeout(() => second!.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(t);
    }
    await rm(workspaces, { recursive: true, force: true });
  }
});

test("a member sees whom each trigger runs as, and is offered changes only on their own", async ({
  page,
}) => {
  const db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  try {
    const team = await teamBySlug(db, "demo");
    const workflow = (await listWorkflows(db, team.id)).find((w) => w.name === "hello-world")!;
    const admin = await db.user.findUniqueOrThrow({
      where: { email: process.env.E2E_ADMIN_EMAIL! },
    });
    const member = await db.user.create({
      data: {
        email: "trigger-member@e2e.local",
        name: "Trigger Member",
        passwordHash: await hashPassword("trigger-member-pw"),
      },
    });
    await db.membership.create({ data: { teamId: team.id, userId: member.id, role: "member" } });
    await createTrigger(db, {
      id: "trg_e2eadminowned",
      teamId: team.id,
      workflowId: workflow.id,
      kind: "schedule",
      name: "admin's nightly",
      cron: "0 3 * * *",
      timezone: "UTC",
      paused: true,
      runAsUserId: admin.id,
    });
  } finally {
    await db.$disconnect();
  }
  await page.goto("/login");
  await page.getByLabel("Email").fill("trigger-member@e2e.local");
  await page.getByLabel("Password").fill("trigger-member-pw");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/overview$/);
  await openWorkflow(page, "hello-world");

  const admins = page.locator('li[data-trigger="trg_e2eadminowned"]');
  await expect(admins.locator("[data-runs-as]")).toHaveText("Runs as Demo admin");
  await expect(admins.getByRole("button")).toHaveCount(0);

  const form = page.getByRole("form", { name: "New trigger" });
  await form.getByLabel("Webhook").check();
  await form.getByLabel("Name", { exact: true }).fill("member hook");
  await form.getByRole("button", { name: "Create webhook" }).click();
  await expect(page.getByTestId("trigger-secret")).toContainText("whsec_");
  const mine = page.locator('li[data-kind="webhook"]', { hasText: "member hook" });
  await expect(mine.locator("[data-runs-as]")).toHaveText("Runs as Trigger Member (you)");
  for (const action of ["Pause", "Rotate secret", "Delete"])
    await expect(mine.getByRole("button", { name: action })).toBeVisible();
});
