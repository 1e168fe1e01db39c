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

test("a step template is saved on its page, and the workflow editor offers its name after use_template and its parameters under parameters", async ({
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
  const head = "name: uses-greet\nstates:\n  initial: greet\n  greet:\n    ";
  const options = page.locator(".cm-tooltip-autocomplete");
  // The team's templates load with the page: type the name again until they are offered.
  await expect(async () => {
    await setText(page, /Workflow YAML/, head);
    await page.keyboard.type("use_template: gr");
    await expect(options).toContainText("greet-e2e", { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await options.getByRole("option", { name: /greet-e2e/ }).click();

  // Typed as a person types: parameters:, a new line one level in, the start of a name.
  await page.keyboard.press("Enter");
  await page.keyboard.type("parameters:");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Control+Space");
  await expect(options.getByRole("option")).toHaveText([/^who\s*required/, /^punctuation/]);
  await page.keyboard.type("w");
  await expect(options.getByRole("option")).toHaveText([/^who/]);
  await options.getByRole("option", { name: /who/ }).click();
  await page.keyboard.type("World");
  const editor = page.getByRole("textbox", { name: /Workflow YAML/ });
  await expect(editor).toContainText("use_template: greet-e2e");
  await expect(editor).toContainText("who: World");

  // A parameter already given is not offered again.
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+Space");
  await expect(options.getByRole("option")).toHaveText([/^punctuation/]);
  await page.keyboard.press("Escape");
  await page.keyboard.insertText("\n    on_success: done\n  done:\n    type: terminal\n");
  await expect(page.getByTestId("validation")).toContainText("Valid");
});
