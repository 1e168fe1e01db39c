/**
 * A budget that stops a step, in the browser: an admin sets a workflow's daily token limit
 * in Settings → Budgets, runs the workflow, and its openai_compatible step (which would call
 * tools forever) fails with USER.BUDGET.EXCEEDED naming the limit; the run page shows the
 * step's spend against the limit, and Settings → Budgets the day's spend.
 */
import { expect, test } from "@playwright/test";
import type { ScriptedModel } from "@switchyard/scripted-model";
import { startScriptedAgent } from "./scripted-agent";
import { signIn } from "./sign-in";

let model: ScriptedModel | undefined;

const WORKFLOW = (url: string) => `name: budget-stop
states:
  initial: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: BUDGET-STOP keep writing
    options:
      base_url: ${url}/v1
      model: scripted-1
      api_key: sk-e2e-literal-key
    timeout: 2m
    on_success: done
  done:
    type: terminal
    status: success
`;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  model = await startScriptedAgent({
    name: "budget-stop",
    workflow: WORKFLOW,
    script: {
      turns: [],
      rules: [
        {
          match: { messagesContain: "BUDGET-STOP" },
          usage: { inputTokens: 900, outputTokens: 200 },
          toolCalls: [{ name: "Write", arguments: { path: "more.txt", content: "more\n" } }],
        },
      ],
    },
  });
});
test.afterAll(async () => {
  await model?.close();
});

test("a workflow's token limit set in Settings → Budgets stops its step with the limit named", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto("/settings/budgets");
  await page.getByRole("button", { name: "Set a budget" }).click();
  const form = page.getByRole("form", { name: "Set a budget" });
  // Set on, then the workflow it names, then the period (a label holds its options' text too).
  const choices = form.getByRole("combobox");
  await choices.nth(0).selectOption("workflow");
  await choices.nth(1).selectOption({ label: "budget-stop" });
  await choices.nth(2).selectOption("day");
  await form.getByLabel("Tokens").fill("1500");
  await form.getByRole("button", { name: "Save" }).click();
  const row = page.locator('tr[data-budget="workflow:budget-stop:day"]');
  await expect(row).toContainText("0 of 1500 tokens");

  await page.goto("/workflows");
  await page
    .locator('tr[data-workflow="budget-stop"]')
    .getByRole("button", { name: "Run" })
    .click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.locator("h1 .badge")).toHaveText("failed", { timeout: 60_000 });
  const agent = page.locator('[data-step="agent"]');
  await expect(agent.getByTestId("step-error-code")).toHaveText("USER.BUDGET.EXCEEDED");
  await expect(agent.getByTestId("step-error")).toContainText(
    'the token limit of 1500 set on workflow "budget-stop", per day (UTC) is reached (2200 tokens used)',
  );
  const spend = page.locator('tr[data-step-spend="agent"]');
  await expect(spend.locator("[data-tokens]")).toHaveText("2200");
  await expect(spend.locator('[data-limit="workflow"]')).toContainText(
    'tokens: 2200 of 1500 (workflow "budget-stop", per day)',
  );
  // Two requests went out; the third was refused before it was sent.
  expect(
    model?.requests.filter((r) => JSON.stringify(r.body).includes("BUDGET-STOP")),
  ).toHaveLength(2);

  await page.goto("/settings/budgets");
  await expect(row).toContainText("2200 of 1500 tokens");
});
