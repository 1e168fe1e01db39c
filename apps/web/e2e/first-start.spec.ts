/**
 * The first five minutes. A team with no runs is told on its overview what to do next; the
 * demo team's demo agent (seeded on the worker's built-in demo model, as `npm start` does)
 * runs with no key when Run is pressed, its page showing the demo label, the built-in and
 * connector tool calls, tokens and a cost of zero; Settings → Models labels the demo model's
 * endpoint and adds a local model in one step, which a workflow then runs on (a scripted
 * model standing in for Ollama).
 */
import { expect, test } from "@playwright/test";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";
import { AppError } from "@switchyard/core/errors";
import {
  createDb,
  hashPassword,
  removeConnector,
  removeModelAccess,
  saveWorkflowVersion,
  type Db,
} from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { openSettings } from "./open-settings";
import { signIn } from "./sign-in";

const DEMO_URL = `http://127.0.0.1:${process.env.E2E_DEMO_MODEL_PORT}/v1`;
let db: Db;
let teamId: string;
let model: ScriptedModel | undefined;

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 2 });
  const seeded = await seed(db, {
    adminEmail: process.env.E2E_ADMIN_EMAIL!,
    adminPassword: process.env.E2E_ADMIN_PASSWORD!,
    demoModelUrl: DEMO_URL,
  });
  teamId = seeded.team.id;
});
test.afterAll(async () => {
  // Later specs find the demo team as the global setup seeded it.
  const unlessMissing = (error: unknown) => {
    if (!(error instanceof AppError && error.code === "NOT_FOUND")) throw error;
  };
  await removeModelAccess(db, { teamId, vendor: "openai_compatible" }).catch(unlessMissing);
  await db.$transaction((tx) => removeConnector(tx, { teamId, slug: "demo" })).catch(unlessMissing);
  await db.$disconnect();
  await model?.close();
});

test("a team with no runs is told what to do next on its overview", async ({ page }) => {
  const email = `first-${Math.random().toString(36).slice(2, 8)}@e2e.local`;
  const password = "first-start-pw-1234";
  const user = await db.user.create({
    data: {
      email,
      name: "Newcomer",
      passwordHash: await hashPassword(password),
      emailVerifiedAt: new Date(),
    },
  });
  const team = await db.team.create({
    data: { slug: `new-${user.id.slice(-6)}`, name: "New team" },
  });
  await db.membership.create({ data: { teamId: team.id, userId: user.id, role: "owner" } });

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/overview$/);
  const next = page.getByRole("list", { name: "What to do next" });
  await expect(next.getByRole("link", { name: /demo agent/ })).toHaveAttribute(
    "href",
    "/workflows",
  );
  await expect(next.getByRole("link", { name: "Add a model key" })).toHaveAttribute(
    "href",
    "/settings/models",
  );
  await expect(next.getByRole("link", { name: "Add a connector" })).toHaveAttribute(
    "href",
    "/settings/connectors",
  );
  await expect(next.getByRole("link", { name: "Write a workflow" })).toHaveAttribute(
    "href",
    "/workflows/new",
  );
});

test("Run on the demo agent shows its tool calls, the connector's among them, against the labelled demo model", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto("/workflows");
  await page.locator('tr[data-workflow="demo-agent"]').getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.locator("h1 .badge")).toHaveText("succeeded", { timeout: 90_000 });
  const agent = page.locator('[data-step="agent"]');
  await expect(agent.getByTestId("demo-model")).toContainText("demo model");
  const calls = agent.locator('[data-testid="tool-call"]');
  await expect(calls).toHaveCount(4);
  await expect(calls.nth(0)).toHaveAttribute("data-tool", "Write");
  await expect(calls.nth(1)).toHaveAttribute("data-tool", "Read");
  const stats = agent.locator('[data-testid="tool-call"][data-tool="demo_text_stats"]');
  await expect(stats.locator(".badge-source")).toHaveText("demo");
  await stats.getByRole("button").first().click();
  await expect(stats.getByTestId("json-result")).toContainText("words");
  await expect(agent.getByTestId("agent-answer")).toContainText("demo connector");
  await expect(agent.getByTestId("agent-tokens")).toHaveText(/^[1-9]\d* in \/ [1-9]\d* out$/);
  await expect(agent.getByTestId("agent-cost")).toHaveText("$0.0000");
});

test("Settings → Models labels the demo model and adds a local model in one step, which a workflow runs on", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Where Ollama would listen, a scripted model answers in its stead.
  // Its port is no worker-wide endpoint (SWITCHYARD_MODEL_ENDPOINTS): only the team's allowing it lets the step through.
  model = await startScriptedModel({
    script: { turns: [{ text: "hello from the local model" }] },
  });
  const LOCAL_URL = `${model.url}/v1`;
  await signIn(page);
  await openSettings(page, "Models");
  const row = page.locator('tr[data-vendor="openai_compatible"]');
  await expect(row.getByTestId("demo-model")).toBeVisible();
  await expect(row).toContainText(DEMO_URL);

  await row.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: "OpenAI-compatible access" });
  await expect(form.getByLabel("Allowed endpoints, one per line")).toHaveAttribute(
    "placeholder",
    /http:\/\/127\.0\.0\.1:11434\/v1/,
  );
  await expect(
    form.getByRole("button", { name: /add Ollama \(http:\/\/127\.0\.0\.1:11434\/v1\)/ }),
  ).toBeVisible();
  await form.getByLabel("Allowed endpoints, one per line").fill(`${DEMO_URL}\n${LOCAL_URL}`);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText(LOCAL_URL);

  await saveWorkflowVersion(db, {
    teamId,
    name: "local-model",
    files: {
      "workflow.yaml": `name: local-model
states:
  initial: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: Say hello.
    options:
      base_url: ${LOCAL_URL}
      model: qwen3-coder
    on_success: done
  done:
    type: terminal
    status: success
`,
    },
  });
  await page.goto("/workflows");
  await page
    .locator('tr[data-workflow="local-model"]')
    .getByRole("button", { name: "Run" })
    .click();
  await expect(page.locator("h1 .badge")).toHaveText("succeeded", { timeout: 60_000 });
  await expect(page.locator('[data-step="agent"]').getByTestId("agent-answer")).toContainText(
    "hello from the local model",
  );
  expect(model.failures).toEqual([]);
  // The request went where the team allowed it, with no key.
  expect(model.requests.at(-1)?.auth).toEqual([]);
});
