/**
 * Runs in the browser with a real worker: a step's output appears on the page while the
 * step still runs, a finished run is re-run with the same inputs (the new page links back),
 * another run is cancelled while it runs, and the list filters by status through the URL.
 */
import { expect, test } from "@playwright/test";
import { createDb, saveWorkflowVersion, teamBySlug, type Db } from "@switchyard/db";
import { signIn } from "./sign-in";

let db: Db;

const TALKER = `name: e2e-talker
inputs:
  - name: word
    type: string
    default: hello
states:
  initial: talk
  talk:
    type: step
    command: 'echo "first {{.inputs.word}}"; sleep 3; echo "second {{.inputs.word}}"'
`;

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  const team = await teamBySlug(db, "demo");
  await saveWorkflowVersion(db, { teamId: team.id, name: "e2e-talker", files: { "workflow.yaml": TALKER } });
});
test.afterAll(async () => {
  await db?.$disconnect();
});

test("a step's output streams onto the page before the step finishes; the run is re-run with the same inputs", async ({ page }) => {
  await signIn(page);
  await page.goto("/workflows");
  await page.locator('tr[data-workflow="e2e-talker"]').getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const firstId = page.url().split("/").at(-1)!;
  const step = page.locator('[data-step="talk"]');
  // The first line is on the page while the step is still running (it sleeps 3 s before the second).
  await expect(step.getByTestId("live-output")).toContainText("first hello", { timeout: 20_000 });
  await expect(step.locator(".badge")).toHaveText("running");
  await expect(step).not.toContainText("second hello");
  await expect(page.locator("h1 .badge")).toHaveText("succeeded", { timeout: 30_000 });
  await expect(step.getByTestId("step-output")).toContainText("second hello");
  await expect(page.getByTestId("step-timeline")).toContainText("talk");
  await expect(page.getByTestId("run-events")).toContainText("run.finished");

  await page.getByRole("button", { name: "Re-run" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${firstId}$`));
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.getByTestId("rerun-of")).toHaveAttribute("href", `/runs/${firstId}`);
  await expect(page.getByTestId("json-inputs")).toContainText('"word": "hello"');
  await expect(page.locator("h1 .badge")).toHaveText("succeeded", { timeout: 30_000 });
});

test("another running run is cancelled from its page, and the list filters by status", async ({ page }) => {
  await signIn(page);
  await page.goto("/workflows");
  await page.locator('tr[data-workflow="slow-countdown"]').getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const cancelledId = page.url().split("/").at(-1)!;
  await expect(page.locator('[data-step="count"] .badge')).toHaveText("running", { timeout: 20_000 });
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.locator("h1 .badge")).toHaveText("cancelled", { timeout: 30_000 });

  await page.goto("/runs");
  await expect(page.locator(`tr[data-run="${cancelledId}"]`)).toBeVisible();
  await page.locator('[data-status-tab="cancelled"]').click();
  await expect(page).toHaveURL(/[?&]status=cancelled/);
  await expect(page.locator(`tr[data-run="${cancelledId}"]`)).toBeVisible();
  await expect(page.getByTestId("run-list").locator(".badge").filter({ hasNotText: "cancelled" })).toHaveCount(0);
  await page.locator('[data-status-tab="succeeded"]').click();
  await expect(page).toHaveURL(/[?&]status=succeeded/);
  await expect(page.locator(`tr[data-run="${cancelledId}"]`)).toHaveCount(0);
  // The filter survives a reload: it is in the URL.
  await page.reload();
  await expect(page.locator('[data-status-tab="succeeded"]')).toHaveAttribute("aria-pressed", "true");
});
