import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./sign-in";

const YAML = (check: string, greeting = "hello") => `name: from-the-editor
description: Written in the browser.
inputs:
  - name: target
    type: string
    required: true
    validation:
      enum: [staging, production]
  - name: count
    type: integer
    default: 1
    validation: { min: 1, max: 5 }
states:
  initial: build
  build:
    type: step
    script_file: build.sh
    on_success: check
  check:
    type: step
    ${check}
    on_success: done
  done:
    type: terminal
    status: success
# ${greeting}
`;

/** Every Content-Security-Policy refusal the page reports (CodeMirror's styles must carry the nonce). */
const cspRefusals = (page: Page) => {
  const refusals: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to apply/i.test(m.text())) refusals.push(m.text());
  });
  return refusals;
};

test("a workflow is written with problems flagged at their line, saved, drawn, versioned, diffed and started from its form", async ({ page }) => {
  const refusals = cspRefusals(page);
  await signIn(page);
  await page.goto("/workflows/new");
  const yaml = page.getByRole("textbox", { name: /Workflow YAML/ });
  await yaml.fill(YAML("comand: cat out.txt"));

  // The validator's problem, in the list and at its line (22, column 5) in the editor.
  const validation = page.getByTestId("validation");
  await expect(validation).toContainText('workflow.yaml:22:5 WORKFLOW.PARSE.UNKNOWN_FIELD states.check.comand: unknown key "comand" (did you mean "command"?)');
  const line22 = page.locator(".cm-content .cm-line").nth(21);
  await expect(line22.locator(".cm-lintRange-error")).toHaveText("comand");
  await expect(page.locator(".cm-gutter-lint .cm-lint-marker-error")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();

  await yaml.fill(YAML("command: cat out.txt"));
  await expect(validation).toContainText('states.build.script_file: "build.sh" is not in the workflow bundle');
  await expect(line22.locator(".cm-lintRange-error")).toHaveCount(0);
  await page.getByLabel("New file path").fill("build.sh");
  await page.getByRole("button", { name: "Add file" }).click();
  await page.getByRole("textbox", { name: "File build.sh" }).fill("echo built > out.txt\n");
  await expect(validation).toContainText("Valid");

  // The graph beside the YAML: one node per state.
  const graph = page.getByTestId("state-graph");
  for (const state of ["build", "check", "done"]) await expect(graph.locator(`[data-state="${state}"]`)).toHaveCount(1);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved as version 1.")).toBeVisible();
  await expect(page.locator("h1")).toHaveText("from-the-editor");

  // A second version, from the workflow's own page.
  await page.getByRole("textbox", { name: /Workflow YAML/ }).fill(YAML("command: cat out.txt", "goodbye"));
  await expect(page.getByTestId("validation")).toContainText("Valid");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved as version 2.")).toBeVisible();

  // Versions with who saved them, and the diff between 1 and 2.
  await page.getByRole("tab", { name: "Versions" }).click();
  await expect(page.locator("tr[data-version]")).toHaveCount(2);
  await expect(page.locator('tr[data-version="2"]')).toContainText("current");
  const diff = page.getByTestId("version-diff");
  await expect(diff.locator('[data-kind="del"]')).toContainText("# hello");
  await expect(diff.locator('[data-kind="add"]')).toContainText("# goodbye");
  await expect(diff.locator('[data-kind="add"]')).toContainText("+");

  // Start it from the form its inputs generate: a typed input the server checks too.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const form = page.getByRole("form", { name: "Start a run" });
  await form.getByLabel("target").selectOption("production");
  await form.getByLabel("count").fill("3");
  await form.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.locator("h1")).toContainText("from-the-editor");
  expect(refusals).toEqual([]);
});
