/**
 * A run page whose agent step made more tool calls than a page shows: the calls come a
 * hundred at a time, Next and Previous work by keyboard, a call still opens to its
 * arguments, and the paged list passes axe in light and dark and fits a 390 px phone.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import {
  claimRun,
  createDb,
  createRun,
  finishRun,
  finishStepRun,
  insertToolCalls,
  saveWorkflowVersion,
  startStepRun,
  teamBySlug,
  type Db,
} from "@switchyard/db";
import { signIn } from "./sign-in";

let db: Db;
let runId: string;

const WORKFLOW = `name: e2e-many-calls
states:
  initial: agent
  agent:
    type: step
    command: 'true'
`;

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  const team = await teamBySlug(db, "demo");
  const version = await saveWorkflowVersion(db, {
    teamId: team.id,
    name: "e2e-many-calls",
    files: { "workflow.yaml": WORKFLOW },
  });
  const run = await createRun(db, {
    teamId: team.id,
    workflowId: version.workflowId,
    workflowVersionId: version.id,
    lane: "default",
    trigger: "api",
  });
  runId = run.id;
  await claimRun(db, team.id, run.id, "e2e-pages", { status: "queued", workerId: null });
  const step = await startStepRun(db, {
    teamId: team.id,
    runId,
    stateName: "agent",
    stepType: "agent",
    attempt: 1,
    path: { workflow: "e2e-many-calls", key: "agent", loop: [], calls: [] },
  });
  const at = Date.now() - 60_000;
  await insertToolCalls(
    db,
    team.id,
    runId,
    Array.from({ length: 250 }, (_, i) => ({
      stepRunId: step.id,
      toolName: i === 0 ? "Read" : `Tool${i}`,
      source: "builtin",
      fidelity: "proxy" as const,
      arguments: { call: i },
      result: { content: [{ type: "text", text: `answer ${i}` }] },
      isError: false,
      startedAt: new Date(at + i * 10),
      durationMs: 3,
    })),
  );
  await finishStepRun(db, team.id, step.id, {
    status: "succeeded",
    exitCode: 0,
    stdout: "",
    stderr: "",
    output: "done",
  });
  await finishRun(db, team.id, runId, { status: "succeeded" });
});
test.afterAll(async () => {
  await db?.$disconnect();
});

test("a step's 250 tool calls come a hundred at a time; Next and Previous work by keyboard and a call still opens", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`/runs/${runId}`);
  const agent = page.locator('[data-step="agent"]');
  const rows = agent.getByTestId("tool-call");
  const range = agent.getByTestId("tool-call-range");
  await expect(range).toHaveText("Calls 1–100 of 250");
  await expect(rows).toHaveCount(100);
  await expect(agent.getByTestId("agent-activity")).toContainText("250 tool calls");

  const first = rows.first();
  await first.getByRole("button").first().click();
  await expect(first.getByTestId("json-arguments")).toContainText('"call": 0');

  const pager = agent.getByRole("navigation", { name: "Pages of tool calls" });
  const previous = pager.getByRole("button", { name: "Previous" });
  const next = pager.getByRole("button", { name: "Next" });
  await expect(previous).toBeDisabled();
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(range).toHaveText("Calls 101–200 of 250");
  await expect(rows.first()).toHaveAttribute("data-tool", "Tool100");
  await page.keyboard.press("Enter");
  await expect(range).toHaveText("Calls 201–250 of 250");
  await expect(rows).toHaveCount(50);
  await expect(next).toBeDisabled();
  await previous.focus();
  await page.keyboard.press("Enter");
  await expect(range).toHaveText("Calls 101–200 of 250");
  await expect(rows).toHaveCount(100);
});

test("the page comes with the run and its first hundred calls in its HTML, before any script runs", async ({
  page,
}) => {
  await signIn(page);
  // The document as the server sends it, with the session's cookie: no script has run.
  // React marks where one text part ends and the next begins with an empty comment.
  const html = (await (await page.request.get(`/runs/${runId}`)).text()).replaceAll("<!-- -->", "");
  expect(html).toContain("Calls 1–100 of 250");
  expect(html).toContain('data-tool="Tool99"');
  expect(html).not.toContain('data-tool="Tool100"');
});

for (const scheme of ["light", "dark"] as const)
  test(`the paged tool calls pass axe and fit a 390 px phone (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 390, height: 800 });
    await signIn(page);
    await page.goto(`/runs/${runId}`);
    await expect(page.getByTestId("tool-call-range")).toHaveText("Calls 1–100 of 250");
    const result = await new AxeBuilder({ page })
      .include('[data-step="agent"]')
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    const serious = result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(serious).toEqual([]);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
  });
