import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./sign-in";

const TEMPLATE = `name: greet-e2e
parameters:
  - name: who
    required: true
  - name: punctuation
    default: "!"
states:
  greet-e2e:
    type: step
    command: echo "hello {{parameters.who}}{{parameters.punctuation}}"
`;

/** Replaces an editor's text, leaving the cursor at its end. */
const setText = async (page: Page, name: string | RegExp, text: string) => {
  const editor = page.getByRole("textbox", { name });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(text);
};

test("a step template is saved on its page and its name offered after use_template in the workflow editor", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/templates");
  await page.getByLabel("Name", { exact: true }).fill("greet-e2e");
  await setText(page, "template.yaml", TEMPLATE);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved greet-e2e as version 1.")).toBeVisible();
  await expect(page.locator("table")).toContainText("who (required), punctuation");

  await page.goto("/workflows/new");
  const head = `name: uses-greet
states:
  initial: greet
  greet:
    use_template: gr`;
  await setText(page, /Workflow YAML/, head);
  const options = page.locator(".cm-tooltip-autocomplete");
  // The team's templates load with the page: ask again until they are offered.
  await expect(async () => {
    await page.keyboard.press("Control+Space");
    await expect(options).toContainText("greet-e2e", { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
});
