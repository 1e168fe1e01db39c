import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./sign-in";

const skill = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: Go conventions for reviews\n---\n\n${body}\n`;

/** Replaces an editor's text, leaving the cursor at its end. */
const setText = async (page: Page, name: string | RegExp, text: string) => {
  const editor = page.getByRole("textbox", { name });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(text);
};

test("a skill is saved on Settings → Skills, listed, checked against the format and versioned", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/settings/variables");
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("link", { name: "Skills" })
    .click();
  await expect(page).toHaveURL(/\/settings\/skills$/);

  await page.getByLabel("Name", { exact: true }).fill("go-e2e");
  await setText(page, "SKILL.md", skill("go-e2e", "Use gofmt."));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved go-e2e as version 1.")).toBeVisible();
  const list = page.getByRole("table", { name: "Skills" });
  await expect(list).toContainText("go-e2e");
  await expect(list).toContainText("Go conventions for reviews");

  // A front matter naming another skill is refused at its line.
  await setText(page, "SKILL.md", skill("other", "Use gofmt."));
  await page.getByRole("button", { name: "Check" }).click();
  const findings = page.getByRole("form", { name: "Skill" }).getByRole("alert");
  await expect(findings).toContainText("line 2:");
  await expect(findings).toContainText("USER.SKILL.INVALID_FRONTMATTER");

  await setText(page, "SKILL.md", skill("go-e2e", "Use gofmt and go vet."));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved go-e2e as version 2.")).toBeVisible();
  await list.getByRole("button", { name: "Versions" }).click();
  const versions = page.getByRole("region", { name: "Versions of go-e2e" });
  await versions.getByRole("button", { name: "v1" }).click();
  await expect(versions.getByLabel("SKILL.md version 1")).toHaveValue(/Use gofmt\.\n$/);
});
