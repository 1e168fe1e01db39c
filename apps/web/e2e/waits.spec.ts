/**
 * Waits for a person in a browser: a run parked on a held tool call shows a banner on its
 * page with the question, the tool, its arguments, the agent's text and the rule; Approve
 * answers it, Deny with a message too; "Waiting for you" lists the open waits the person may
 * answer, with their count in the navigation. The parked runs and their waits are written
 * into the database as the worker leaves them.
 */
import { expect, test, type Page } from "@playwright/test";
import { createDb, teamBySlug, type Db } from "@switchyard/db";
import { parkedRun, saveAgentWorkflow } from "../../../test/helpers/waiting-run";
import { signIn } from "./sign-in";

let db: Db;
let teamId: string;
let adminId: string;
let workflow: { workflowId: string; workflowVersionId: string };

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  teamId = (await teamBySlug(db, "demo")).id;
  adminId = (await db.user.findFirstOrThrow({ where: { email: process.env.E2E_ADMIN_EMAIL! } })).id;
  const saved = await saveAgentWorkflow(db, teamId, "e2e-merge-bot");
  workflow = { workflowId: saved.workflowId, workflowVersionId: saved.id };
});
const parked: string[] = [];
test.afterAll(async ({ browser }) => {
  // Nothing of these runs may wait for anyone, or hold a worker slot, in later specs. An
  // answered wait queues its run again, and the worker resumes its agent step (Claude Code
  // against a vendor it cannot reach, retrying); a cancelled waiting run closes its waits.
  const page = await browser.newPage();
  await signIn(page);
  const badge = page.locator("h1 .badge");
  for (const runId of parked) {
    await page.goto(`/runs/${runId}`);
    // The page loads the run after it starts: its status is known once the badge shows.
    await expect(badge).toBeVisible();
    if (!/queued|running|waiting/.test(await badge.innerText())) continue;
    await page.getByRole("button", { name: "Cancel" }).click();
    // A running run ends once its worker has stopped its processes and freed its slot.
    await expect(badge).not.toHaveText(/queued|running|waiting/, { timeout: 60_000 });
  }
  await page.close();
  await db?.$disconnect();
});

const park = async (args: Record<string, unknown>) => {
  const run = await parkedRun(db, {
    teamId,
    ...workflow,
    startedById: adminId,
    wait: { arguments: args },
  });
  parked.push(run.runId);
  return run;
};

const waitRow = (waitId: string) => db.wait.findUniqueOrThrow({ where: { id: waitId } });

const banner = (page: Page, waitId: string) => page.locator(`[data-wait="${waitId}"]`);

test("approve and deny a held tool call from the run's page", async ({ page }) => {
  const approved = await park({ repo: "acme/api", number: 42 });
  await signIn(page);
  await page.goto(`/runs/${approved.runId}`);
  await expect(page.locator("h1 .badge")).toHaveText("waiting for a person");
  const first = banner(page, approved.waitId);
  await expect(
    first.getByRole("heading", { name: "Allow github_merge_pull_request?" }),
  ).toBeVisible();
  await expect(first.getByTestId("wait-tool")).toHaveText("github_merge_pull_request");
  await expect(first.getByTestId("json-arguments")).toContainText('"repo": "acme/api"');
  await expect(first.getByTestId("wait-agent-text")).toHaveText(
    "The tests pass; merging the pull request now.",
  );
  await expect(first).toContainText("github_merge_*");
  await expect(page.locator('[data-wait-bar="waiting"]')).toHaveCount(1);
  await first.getByRole("button", { name: "Approve" }).click();
  await expect(first).toHaveCount(0);
  await expect
    .poll(async () => (await waitRow(approved.waitId)).answer)
    .toEqual({ decision: "approve" });
  expect((await waitRow(approved.waitId)).answeredById).toBe(adminId);

  const denied = await park({ repo: "acme/web", number: 7 });
  await page.goto(`/runs/${denied.runId}`);
  const second = banner(page, denied.waitId);
  await second.getByRole("button", { name: "Deny…" }).click();
  await second.getByLabel("Message to the agent (optional)").fill("not on a Friday");
  await second.getByRole("button", { name: "Deny", exact: true }).click();
  await expect(second).toHaveCount(0);
  await expect
    .poll(async () => (await waitRow(denied.waitId)).answer)
    .toEqual({ decision: "deny", message: "not on a Friday" });
  // The answered wait stays on the timeline as a bar from its opening to its answer.
  await expect(page.locator('[data-wait-bar="answered"]')).toHaveCount(1);
});

test("the waiting list shows the open waits with their count in the navigation", async ({
  page,
}) => {
  const a = await park({ repo: "acme/one", number: 1 });
  const b = await park({ repo: "acme/two", number: 2 });
  await signIn(page);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByTestId("wait-count")).toHaveText("2");
  await nav.getByRole("link", { name: /Waiting for you/ }).click();
  await expect(page.getByRole("heading", { name: "Waiting for you", level: 1 })).toBeVisible();
  await expect(page.getByTestId("wait-banner")).toHaveCount(2);
  await expect(banner(page, a.waitId)).toContainText('"repo": "acme/one"');
  await banner(page, b.waitId).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("wait-banner")).toHaveCount(1);
  await expect(nav.getByTestId("wait-count")).toHaveText("1");

  // The runs list filters the runs waiting for a person.
  await page.goto("/runs?status=waiting");
  await expect(page.locator('[data-status-tab="waiting"]')).toContainText("Waiting for a person");
  await expect(page.locator('[data-status-tab="waiting"]')).toHaveAttribute("aria-pressed", "true");
  await expect(
    page.getByTestId("run-list").locator(".badge").filter({ hasText: "waiting for a person" }),
  ).not.toHaveCount(0);
});
