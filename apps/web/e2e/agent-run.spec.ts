/**
 * An agent step seen live on its run page: the run is started from the dashboard, the
 * scripted model (openai_compatible, on the port the global setup let the worker call)
 * answers each turn after a pause, and the page shows the agent's text and each tool call
 * while the run is still running, then the answer, tokens and cost.
 */
import { expect, test } from "@playwright/test";
import type { ScriptedModel } from "@switchyard/scripted-model";
import { startScriptedAgent } from "./scripted-agent";
import { signIn } from "./sign-in";

/** Long enough to look at the page between two turns, short enough for the test. */
const PAUSE_MS = 4000;
/** Longer than a JSON block shows before "Show all". */
const NOTES = `live notes\n${"filler line\n".repeat(250)}END-OF-NOTES\n`;

let model: ScriptedModel | undefined;

const WORKFLOW = (url: string) => `name: agent-live
states:
  initial: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: Write notes/live.txt, then check /etc/passwd, and say what the notes hold.
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
    name: "agent-live",
    workflow: WORKFLOW,
    script: {
      turns: [
        {
          expect: { toolOffered: ["Write", "Read"] },
          text: "Writing the notes first.",
          toolCalls: [{ name: "Write", arguments: { path: "notes/live.txt", content: NOTES } }],
          usage: { inputTokens: 100, outputTokens: 10 },
        },
        {
          delayMs: PAUSE_MS,
          expect: { lastToolResultContains: "live.txt" },
          toolCalls: [{ name: "Read", arguments: { path: "/etc/passwd" } }],
          usage: { inputTokens: 200, outputTokens: 20 },
        },
        {
          delayMs: PAUSE_MS,
          text: "The notes say: live notes.",
          usage: { inputTokens: 300, outputTokens: 30 },
        },
      ],
    },
  });
});
test.afterAll(async () => {
  await model?.close();
});

test("the run page shows an agent's text and tool calls as they happen, then its answer, tokens and cost", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto("/workflows");
  await page.locator('tr[data-workflow="agent-live"]').getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const runStatus = page.locator("h1 .badge");
  const agent = page.locator('[data-step="agent"]');

  // The first turn's text and its Write call show while the model still thinks about the next.
  const write = agent.locator('[data-testid="tool-call"][data-tool="Write"]');
  await expect(write).toBeVisible({ timeout: 60_000 });
  await expect(agent.getByTestId("agent-text")).toHaveText(["Writing the notes first."]);
  await expect(runStatus).toHaveText("running");
  await expect(write.locator(".badge-source")).toHaveText("builtin");
  await expect(write).toContainText(/\d+ ms|\d+\.\d s/);

  // Opened, a call shows its arguments and result; long ones are cut until asked for.
  await write.getByRole("button").first().click();
  const writeArguments = write.getByTestId("json-arguments");
  await expect(writeArguments).toContainText('"path": "notes/live.txt"');
  await expect(writeArguments).not.toContainText("END-OF-NOTES");
  await write.getByRole("button", { name: "Show all" }).click();
  await expect(writeArguments).toContainText("END-OF-NOTES");
  await expect(write.getByTestId("json-result")).toContainText("live.txt");

  // The refused Read arrives while the run goes on, as an error.
  const read = agent.locator('[data-testid="tool-call"][data-tool="Read"]');
  await expect(read).toBeVisible();
  await expect(read.getByTestId("tool-error")).toBeVisible();
  await expect(runStatus).toHaveText("running");
  await read.getByRole("button").first().click();
  await expect(read.getByTestId("json-arguments")).toContainText("/etc/passwd");
  await expect(read.getByTestId("json-result")).not.toContainText("root:");

  // Then the answer, the step's tokens and its cost.
  await expect(runStatus).toHaveText("succeeded", { timeout: 60_000 });
  await expect(agent.getByTestId("agent-answer")).toContainText("The notes say: live notes.");
  await expect(agent.getByTestId("agent-tokens")).toHaveText("600 in / 60 out");
  await expect(agent.getByTestId("agent-cost")).toHaveText(/^(\$\d+\.\d{4}|–)$/);
  await expect(agent.locator('[data-testid="tool-call"]')).toHaveCount(2);
  expect(model?.failures).toEqual([]);
});
