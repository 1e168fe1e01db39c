/**
 * Runs in the browser with a real worker: a step's output appears on the page while the
 * step still runs, a finished run is re-run with the same inputs (the new page links back),
 * another run is cancelled while it runs, and the list filters by status through the URL.
 */
import { expect, test, type Page } from "@playwright/test";
import {
  createApiToken,
  createDb,
  saveWorkflowVersion,
  teamBySlug,
  userIdByEmail,
  type Db,
} from "@switchyard/db";
import { signIn } from "./sign-in";

let db: Db;
let token: string;
let talkerId: string;
let sleeperId: string;

const TALKER = `name: e2e-talker
inputs:
  - name: word
    type: string
    default: hello
states:
  initial: talk
  talk:
    type: step
    command: 'echo "first {{.inputs.word}}"; sleep 5; echo "second {{.inputs.word}}"'
`;

const SLEEPER = `name: e2e-sleeper
states:
  initial: nap
  nap:
    type: step
    command: 'echo resting; sleep 60'
`;

/** Starts a run over the REST API (as a script would) and opens its page. */
const startAndOpen = async (
  page: Page,
  workflowId: string,
  inputs: Record<string, unknown> = {},
) => {
  const res = await page.request.post(`/api/v1/workflows/${workflowId}/runs`, {
    headers: { authorization: `Bearer ${token}` },
    data: { inputs },
  });
  expect(res.status()).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/runs/${id}`);
  return id;
};

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  const team = await teamBySlug(db, "demo");
  talkerId = (
    await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "e2e-talker",
      files: { "workflow.yaml": TALKER },
    })
  ).workflowId;
  sleeperId = (
    await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "e2e-sleeper",
      files: { "workflow.yaml": SLEEPER },
    })
  ).workflowId;
  token = (
    await createApiToken(db, {
      teamId: team.id,
      userId: await userIdByEmail(db, process.env.E2E_ADMIN_EMAIL!),
      name: "e2e-runs",
    })
  ).token;
});
test.afterAll(async () => {
  await db?.$disconnect();
});

test("a step's output streams onto the page before the step finishes; the run is re-run with the same inputs", async ({
  page,
}) => {
  await signIn(page);
  const firstId = await startAndOpen(page, talkerId, { word: "bonjour" });
  const step = page.locator('[data-step="talk"]');
  await expect(page.getByTestId("run-origin")).toContainText("an API token of");
  // The first line is on the page while the step is still running (it sleeps 5 s before the second).
  // (live-output is drawn only while the step's status is running; one query checks both lines)
  await expect(
    step
      .getByTestId("live-output")
      .filter({ hasText: "first bonjour" })
      .filter({ hasNotText: "second bonjour" }),
  ).toBeVisible({ timeout: 20_000 });
  await expect(page.locator("h1 .badge")).toHaveText("succeeded", { timeout: 30_000 });
  await expect(step.getByTestId("step-output")).toContainText("second bonjour");
  await expect(page.getByTestId("step-timeline")).toContainText("talk");
  await expect(page.getByTestId("run-events")).toContainText("run.finished");

  await page.getByRole("button", { name: "Re-run" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${firstId}$`));
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.getByTestId("rerun-of")).toHaveAttribute("href", `/runs/${firstId}`);
  await expect(page.getByTestId("run-origin")).toContainText("from the dashboard");
  await expect(page.getByTestId("json-inputs")).toContainText('"word": "bonjour"');
  await expect(page.locator("h1 .badge")).toHaveText("succeeded", { timeout: 30_000 });
});

test("another running run is cancelled from its page, and the list filters by status", async ({
  page,
}) => {
  await signIn(page);
  const cancelledId = await startAndOpen(page, sleeperId);
  await expect(page.locator('[data-step="nap"] .badge')).toHaveText("running", { timeout: 20_000 });
  await expect(page.locator('[data-step="nap"]').getByTestId("live-output")).toContainText(
    "resting",
  );
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.locator("h1 .badge")).toHaveText("cancelled", { timeout: 30_000 });

  await page.goto("/runs");
  await expect(page.locator(`tr[data-run="${cancelledId}"]`)).toBeVisible();
  await page.locator('[data-status-tab="cancelled"]').click();
  await expect(page).toHaveURL(/[?&]status=cancelled/);
  await expect(page.locator(`tr[data-run="${cancelledId}"]`)).toBeVisible();
  await expect(
    page.getByTestId("run-list").locator(".badge").filter({ hasNotText: "cancelled" }),
  ).toHaveCount(0);
  await page.locator('[data-status-tab="succeeded"]').click();
  await expect(page).toHaveURL(/[?&]status=succeeded/);
  await expect(page.locator(`tr[data-run="${cancelledId}"]`)).toHaveCount(0);
  // The filter survives a reload: it is in the URL.
  await page.reload();
  await expect(page.locator('[data-status-tab="succeeded"]')).toHaveAttribute(
    "aria-pressed",
    "true",
  );
});
