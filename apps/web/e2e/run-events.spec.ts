/**
 * A run's event stream against the real app: a browser's EventSource hears each stored
 * event by its type (`addEventListener("run.started")`), and a stream left open ends, with
 * an `end` saying why, within seconds of its session ending: the password changed, or the
 * member removed from the team. The runs here sleep, so only the session can end them.
 */
import { expect, test, type Page } from "@playwright/test";
import {
  changePassword,
  createDb,
  hashPassword,
  removeMember,
  saveWorkflowVersion,
  teamBySlug,
  type Db,
} from "@switchyard/db";
import { signIn } from "./sign-in";

let db: Db;
test.beforeAll(() => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
});
test.afterAll(async () => {
  await db.$disconnect();
});

type Heard = {
  started?: unknown;
  end?: { reason: string; status?: string; error?: { code: string } };
  at?: number;
};

/** Opens the run's stream in the page with the browser's EventSource; what it hears lands on window.heard. */
const listen = (page: Page, runId: string) =>
  page.evaluate((id) => {
    const w = window as unknown as { heard: Heard };
    w.heard = {};
    const source = new EventSource(`/api/runs/${id}/events`);
    source.addEventListener(
      "run.started",
      (e: MessageEvent<string>) =>
        (w.heard.started = (JSON.parse(e.data) as { payload: unknown }).payload),
    );
    source.addEventListener("end", (e: MessageEvent<string>) => {
      w.heard.end = JSON.parse(e.data) as Heard["end"];
      w.heard.at = Date.now();
      source.close();
    });
  }, runId);

const heard = (page: Page) => page.evaluate(() => (window as unknown as { heard: Heard }).heard);

/** A member of the demo team with a workflow that sleeps, signed in on `page`, with a run of it started there. */
const sleepingRun = async (page: Page, email: string) => {
  const team = await teamBySlug(db, "demo");
  const user = await db.user.create({
    data: { email, name: email, passwordHash: await hashPassword("stream-password-1") },
  });
  await db.membership.create({ data: { teamId: team.id, userId: user.id, role: "member" } });
  const name = `sleeps-${Math.random().toString(36).slice(2, 8)}`;
  await saveWorkflowVersion(db, {
    teamId: team.id,
    name,
    files: {
      "workflow.yaml": `name: ${name}\nstates:\n  initial: nap\n  nap:\n    type: step\n    command: sleep 45\n    on_success: done\n  done:\n    type: terminal\n`,
    },
  });
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("stream-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/overview$/);
  await page.goto("/workflows");
  await page.locator(`tr[data-workflow="${name}"]`).getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.locator('[data-step="nap"] .badge')).toHaveText("running");
  return { userId: user.id, teamId: team.id, runId: page.url().split("/").at(-1)! };
};

test("an EventSource hears each run event by its type, and the end of the stream", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/workflows");
  await page
    .locator('tr[data-workflow="hello-world"]')
    .getByRole("button", { name: "Run" })
    .click();
  await expect(page.locator("h1 .badge")).toHaveText("succeeded");
  await listen(page, page.url().split("/").at(-1)!);
  await expect
    .poll(async () => (await heard(page)).end)
    .toEqual({ reason: "run_ended", status: "succeeded" });
  expect((await heard(page)).started).toMatchObject({ workflow: "hello-world" });
});

test("a stream left open ends within seconds of a password change", async ({ page }) => {
  const { userId } = await sleepingRun(page, "stream-password@e2e.local");
  await listen(page, page.url().split("/").at(-1)!);
  await expect.poll(async () => (await heard(page)).started).toBeTruthy();
  const changedAt = Date.now();
  await changePassword(db, userId, "stream-password-1", "stream-password-2");
  await expect
    .poll(async () => (await heard(page)).end, { timeout: 20_000 })
    .toMatchObject({ reason: "access_ended", error: { code: "UNAUTHORIZED" } });
  // Checked every 5 s: a generous bound over one check and one poll.
  expect((await heard(page)).at! - changedAt).toBeLessThan(15_000);
});

test("a stream left open ends within seconds of the member's removal from the team", async ({
  page,
}) => {
  const { userId, teamId } = await sleepingRun(page, "stream-removed@e2e.local");
  await listen(page, page.url().split("/").at(-1)!);
  await expect.poll(async () => (await heard(page)).started).toBeTruthy();
  const removedAt = Date.now();
  await removeMember(db, teamId, userId);
  await expect
    .poll(async () => (await heard(page)).end, { timeout: 20_000 })
    .toMatchObject({ reason: "access_ended" });
  expect((await heard(page)).at! - removedAt).toBeLessThan(15_000);
});
