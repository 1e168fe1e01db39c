import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

const YAML = (command: string) => `name: from-the-editor
description: Written in the browser.
states:
  initial: build
  build:
    type: step
    script_file: build.sh
    on_success: check
  check:
    type: step
    ${command}
    on_success: done
  done:
    type: terminal
    status: success
`;

test("a workflow written in the editor is validated as it is typed, saved as a bundle and run", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "New workflow" }).click();
  const yaml = page.getByLabel("Workflow YAML");
  await yaml.fill(YAML("comand: cat out.txt"));

  const validation = page.getByTestId("validation");
  await expect(validation).toContainText('workflow.yaml:11:5 WORKFLOW.PARSE.UNKNOWN_FIELD states.check.comand: unknown key "comand" (did you mean "command"?)');
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();

  await yaml.fill(YAML("command: cat out.txt"));
  await expect(validation).toContainText("USER.INPUT.MISSING_FILE");
  await expect(validation).toContainText('states.build.script_file: "build.sh" is not in the workflow bundle');
  await page.getByLabel("New file path").fill("build.sh");
  await page.getByRole("button", { name: "Add file" }).click();
  await page.getByLabel("File build.sh").fill("echo built-by-script > out.txt\n");
  await expect(validation).toContainText("Valid");
  await page.getByRole("button", { name: "Save" }).click();

  await expect(page.getByText("Saved as version 1.")).toBeVisible();
  await expect(page.locator("h1")).toContainText("from-the-editor");
  await page.locator("h1").getByRole("button", { name: "Run" }).click();
  await expect(page.locator("h1 .badge")).toHaveText("succeeded");
  await expect(page.locator('[data-step="check"] pre')).toContainText("built-by-script");
});
