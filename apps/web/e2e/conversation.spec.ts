/**
 * A `mode: conversation` step as a chat on its run page, through the real worker and the
 * scripted model (openai_compatible): the first reply shows, a message typed and sent brings
 * the next reply, and "End conversation" (exit) ends the step, the page saying it stopped by
 * user_exit.
 */
import { expect, test } from "@playwright/test";
import type { ScriptedModel } from "@switchyard/scripted-model";
import { startScriptedAgent } from "./scripted-agent";
import { signIn } from "./sign-in";

let model: ScriptedModel | undefined;

const WORKFLOW = (url: string) => `name: chat-e2e
states:
  initial: chat
  chat:
    mode: conversation
    type: agent
    prompt: E2E-CHAT which channel?
    provider: openai_compatible
    timeout: 5m
    options: { base_url: "${url}/v1", model: scripted-1, api_key: sk-e2e-literal-key }
    on_success: done
  done: { type: terminal, status: success }
`;

/** The first reply, then the answer to the person's message. */
const RULES = [
  { match: { messagesContain: "E2E-NEXT" }, times: 1, text: "Buffered, then." },
  { match: { messagesContain: "E2E-CHAT" }, times: 1, text: "Buffered or not?" },
];

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const script = { turns: [], rules: RULES };
  model = await startScriptedAgent({ name: "chat-e2e", workflow: WORKFLOW, script });
});
test.afterAll(async () => {
  await model?.close();
});

test("a conversation is a chat on the run page, ended by End conversation with stopped_by shown", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto("/workflows");
  await page.locator('tr[data-workflow="chat-e2e"]').getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  const chat = page.getByTestId("conversation");
  await expect(chat.getByTestId("chat-prompt")).toContainText("E2E-CHAT which channel?", {
    timeout: 60_000,
  });
  await expect(chat.getByTestId("chat-reply").first()).toContainText("Buffered or not?");

  await chat.getByTestId("chat-input").fill("E2E-NEXT buffered please");
  await chat.getByRole("button", { name: "Send" }).click();
  await expect(chat.getByTestId("chat-message").first()).toContainText("E2E-NEXT buffered please");
  await expect(chat.getByTestId("chat-reply").nth(1)).toContainText("Buffered, then.", {
    timeout: 60_000,
  });

  await chat.getByRole("button", { name: "End conversation" }).click();
  await expect(page.locator("h1 .badge")).toHaveText(/succeeded/, { timeout: 60_000 });
  await expect(chat.getByTestId("chat-stopped-by")).toContainText("user_exit", {
    timeout: 30_000,
  });
  await expect(chat.getByTestId("chat-input")).toHaveCount(0);
});
