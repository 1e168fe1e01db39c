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

/** CodeMirror's own styles are in force (injected with the document's CSP nonce): its content keeps white space. */
const editorStyled = async (page: Page) => {
  await expect(page.locator(".cm-editor .cm-content").first()).toHaveCSS(
    "white-space",
    /^(pre|break-spaces|pre-wrap)$/,
  );
};

/** Replaces a code editor's text as a person would: select all in it, then type (insert) the new text. */
const setText = async (page: Page, name: string | RegExp, text: string) => {
  const editor = page.getByRole("textbox", { name });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(text);
  await expect(editor).toHaveText(text.split("\n").filter(Boolean).join(""), {
    useInnerText: false,
  });
};

test("a workflow is written with problems flagged at their line, saved, drawn, versioned, diffed and started from its form", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/workflows/new");
  await editorStyled(page);
  await setText(page, /Workflow YAML/, YAML("comand: cat out.txt"));

  // The validator's problems, in the list and at their lines in the editor (the unknown key at 21:5).
  const validation = page.getByTestId("validation");
  await expect(validation).toContainText(
    'workflow.yaml:21:5 WORKFLOW.PARSE.UNKNOWN_FIELD states.check.comand: unknown key "comand" (did you mean "command"?)',
  );
  const line21 = page.locator(".cm-content .cm-line").nth(20);
  await expect(line21.locator(".cm-lintRange-error")).toHaveText("comand");
  await expect(page.locator(".cm-gutter-lint .cm-lint-marker-error")).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();

  await setText(page, /Workflow YAML/, YAML("command: cat out.txt"));
  await expect(validation).toContainText(
    'states.build.script_file: "build.sh" is not in the workflow bundle',
  );
  await expect(line21.locator(".cm-lintRange-error")).toHaveCount(0);
  await page.getByLabel("New file path").fill("build.sh");
  await page.getByRole("button", { name: "Add file" }).click();
  await setText(page, "File build.sh", "echo built > out.txt\n");
  await expect(validation).toContainText("Valid");

  // The graph beside the YAML: one node per state.
  const graph = page.getByTestId("state-graph");
  for (const state of ["build", "check", "done"])
    await expect(graph.locator(`[data-state="${state}"]`)).toHaveCount(1);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved as version 1.")).toBeVisible();
  await expect(page.locator("h1")).toHaveText("from-the-editor");

  // A second version, from the workflow's own page (reached by a client-side navigation).
  await editorStyled(page);
  await setText(page, /Workflow YAML/, YAML("command: cat out.txt", "goodbye"));
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
  await expect(page.getByText("from-the-editor").first()).toBeVisible();
});
