/**
 * Replay in the dashboard, on rows as a worker leaves them (a recorded agent attempt and a
 * replay of it whose calls were answered from the recording): the compare page (verdict,
 * the first divergence marked, argument differences, answer diff, deltas; axe-clean), the
 * replay form on a finished agent attempt, marking a run an example and replaying all
 * examples from the workflow page.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { createDb, saveWorkflowVersion, teamBySlug, type Db } from "@switchyard/db";
import { EDITING_CALLS as CALLS, finishedRun, recordedAttempt } from "@switchyard/testing/db";
import { signIn } from "./sign-in";

let db: Db;
let workflowId: string;
let source: { runId: string; stepRunId: string };
let replay: { runId: string; stepRunId: string };

const WORKFLOW = `name: e2e-replay
states:
  initial: fix
  fix:
    type: agent
    provider: claude
    prompt: "Fix the failing test"
    on_success: done
  done:
    type: terminal
`;

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  const team = await teamBySlug(db, "demo");
  const version = await saveWorkflowVersion(db, {
    teamId: team.id,
    name: "e2e-replay",
    files: { "workflow.yaml": WORKFLOW },
  });
  workflowId = version.workflowId;
  const run = await finishedRun(db, {
    teamId: team.id,
    workflowId,
    workflowVersionId: version.id,
  });
  const step = await recordedAttempt(db, {
    teamId: team.id,
    runId: run.id,
    output: "Fixed the test.\nAll tests pass.",
    calls: CALLS,
    model: "sonnet",
  });
  source = { runId: run.id, stepRunId: step.id };
  const replayRun = await finishedRun(db, {
    teamId: team.id,
    workflowId,
    workflowVersionId: version.id,
    replayOfId: step.id,
  });
  const replayStep = await recordedAttempt(db, {
    teamId: team.id,
    runId: replayRun.id,
    output: "Fixed the test.\nOne test still fails.",
    calls: [
      { ...CALLS[0]!, replay: "recorded" },
      { ...CALLS[1]!, arguments: { path: "src/a.ts", old: "1", new: "3" }, replay: "unmatched" },
      { ...CALLS[2]!, replay: "recorded" },
    ],
    model: "opus",
    inputTokens: 1500,
  });
  replay = { runId: replayRun.id, stepRunId: replayStep.id };
});
test.afterAll(async () => {
  await db?.$disconnect();
});

test("a replay run compares with its source: the first divergence, argument and answer differences, deltas", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`/runs/${replay.runId}`);
  await page.getByTestId("compare-with-source").click();
  await expect(page).toHaveURL(/\/runs\/compare\?a=.+&b=.+/);
  await expect(page.getByTestId("compare-verdict")).toHaveText(/Diverged at call 2/);
  const rows = page.getByTestId("compare-call");
  await expect(rows).toHaveCount(3);
  const first = page.locator('[data-first-divergence="true"]');
  await expect(first).toContainText("First divergence");
  await expect(first.getByRole("list", { name: "Arguments differ" })).toContainText(
    '$.new "2" → "3"',
  );
  await expect(first.getByTestId("replay-kind")).toHaveText("unmatched");
  await expect(rows.first().getByTestId("replay-kind")).toHaveText("recorded");
  await expect(page.getByTestId("delta-input-tokens")).toHaveText("+500");
  const answer = page.getByTestId("answer-diff");
  await expect(answer.locator('[data-kind="add"]')).toContainText("One test still fails.");
  await expect(answer.locator('[data-kind="del"]')).toContainText("All tests pass.");
  await expect(page.getByRole("region", { name: "Attempt B" })).toContainText("opus");

  const result = await new AxeBuilder({ page })
    .include("main")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(
    result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
});

test("a finished agent attempt's Replay form starts a replay run with the chosen changes", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`/runs/${source.runId}`);
  const step = page.locator('[data-step="fix"]');
  await step.getByRole("button", { name: "Replay" }).click();
  const form = step.getByRole("form", { name: "Replay fix" });
  await expect(form.getByLabel("Provider")).toHaveValue("");
  await expect(form.getByLabel("CLI version")).toContainText("pinned (");
  await expect(form.getByLabel("Prompt")).toHaveValue("Fix the failing test");
  await form.getByLabel("Model").fill("opus");
  await form.getByLabel("A call with no recording left").selectOption("live_builtins");
  await form.getByRole("button", { name: "Start replay" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${source.runId}$`));
  await expect(page.getByTestId("run-origin")).toContainText("as a replay of an agent attempt");
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const run = await db.run.findUniqueOrThrow({ where: { id } });
  expect(run).toMatchObject({
    trigger: "replay",
    replayOfId: source.stepRunId,
    replayOptions: { model: "opus", unmatched: "live_builtins" },
  });
});

test("a run marked as example is replayed with the others from the workflow's Examples tab", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`/runs/${source.runId}`);
  await page.getByRole("button", { name: "Mark as example" }).click();
  await expect(page.getByTestId("example-badge")).toBeVisible();
  await expect(page.getByRole("button", { name: "Unmark example" })).toBeVisible();

  await page.goto(`/workflows/${workflowId}`);
  await page.getByRole("tab", { name: "Examples" }).click();
  await expect(page.getByTestId("example-runs")).toContainText(source.runId.slice(-8));
  await page.getByRole("button", { name: "Replay all examples" }).click();
  const form = page.getByRole("form", { name: "Replay all examples" });
  await form.getByLabel("Model").fill("haiku");
  await form.getByRole("button", { name: "Start the replays" }).click();
  const table = page.getByTestId("suite-table");
  await expect(table).toContainText("model haiku");
  await expect(table.getByTestId("suite-replay")).toHaveCount(1);
  await expect(table.getByTestId("suite-replay")).toContainText("fix");
  const suite = await db.replaySuite.findFirstOrThrow({ where: { workflowId } });
  expect(suite.options).toEqual({ model: "haiku" });
});
