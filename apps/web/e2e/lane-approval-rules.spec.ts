/**
 * Settings → Lanes, "Tool calls that need approval", in a browser: an admin lists a lane's
 * rules (a connector tool by pattern, Bash narrowed by its command, Write outside a path),
 * sees a rule the server refuses marked at its field with the reason, corrects it, removes a
 * rule, and finds each change in the audit log.
 */
import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";
import { openSettings } from "./open-settings";

test("an admin lists the tool calls of a lane that need approval, with bad rules shown at their field", async ({
  page,
}) => {
  await signIn(page);
  await openSettings(page, "Lanes");
  await page.getByRole("button", { name: "Add a lane" }).click();
  const add = page.getByRole("form", { name: "Add a lane" });
  await add.getByLabel("Name", { exact: true }).fill("release");
  await add.getByRole("button", { name: "Add lane" }).click();
  const row = page.locator('tr[data-lane="release"]');
  await expect(row.locator("[data-approval-rules]")).toHaveText("no tool call");

  await row.getByRole("button", { name: "Approval rules of release" }).click();
  const form = page.getByRole("form", { name: "Tool calls that need approval in lane release" });
  await expect(form).toContainText("No rules");

  await form.getByRole("button", { name: "Add a rule" }).click();
  const first = form.getByRole("group", { name: "Rule 1" });
  await first.getByLabel("Tool pattern").fill("github_merge_*");
  // Only Bash takes a command, only Write and Edit a path.
  await expect(first.getByLabel(/Command matches/)).toHaveCount(0);
  await expect(first.getByLabel(/Outside path/)).toHaveCount(0);

  await form.getByRole("button", { name: "Add a rule" }).click();
  const second = form.getByRole("group", { name: "Rule 2" });
  await second.getByLabel("Tool pattern").fill("Bash");
  const command = second.getByLabel(/Command matches/);
  await command.fill("^(git push");

  await form.getByRole("button", { name: "Add a rule" }).click();
  const third = form.getByRole("group", { name: "Rule 3" });
  await third.getByLabel("Tool pattern").fill("Write");
  await third.getByLabel(/Outside path/).fill("src/");

  // A command that is not a regular expression is refused at its field.
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(command).toHaveAttribute("aria-invalid", "true");
  await expect(command).toHaveAccessibleDescription(/"command" is not a regular expression/);
  await expect(first.getByLabel("Tool pattern")).not.toHaveAttribute("aria-invalid", "true");

  // So is a tool pattern with a space in it.
  await command.fill("^git push");
  await first.getByLabel("Tool pattern").fill("github merge");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(first.getByLabel("Tool pattern")).toHaveAttribute("aria-invalid", "true");
  await expect(first.getByLabel("Tool pattern")).toHaveAccessibleDescription(
    /letters, digits, _, - and \*/,
  );
  await expect(command).not.toHaveAttribute("aria-invalid", "true");

  await first.getByLabel("Tool pattern").fill("github_merge_*");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form).toHaveCount(0);
  await expect(row.locator("[data-approval-rules] > div")).toHaveText([
    "github_merge_*",
    "Bash matching /^git push/",
    "Write outside src/",
  ]);

  // Removing a rule, and the rules as stored when the form opens again.
  await row.getByRole("button", { name: "Approval rules of release" }).click();
  await expect(form.getByRole("group", { name: "Rule 2" }).getByLabel(/Command/)).toHaveValue(
    "^git push",
  );
  await form.getByRole("button", { name: "Remove rule 1" }).click();
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form).toHaveCount(0);
  await expect(row.locator("[data-approval-rules] > div")).toHaveText([
    "Bash matching /^git push/",
    "Write outside src/",
  ]);

  await openSettings(page, "Audit log");
  await page.getByLabel("Action starts with").fill("lane.approval_rules");
  await page.getByRole("button", { name: "Filter" }).click();
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(
    log.locator('tr[data-action="lane.approval_rules.set"][data-target="release"]'),
  ).toHaveCount(2);
  await expect(log.locator("tbody tr").first()).toContainText(
    "Bash whose command matches /^git push/; Write outside src/",
  );
});
