/**
 * The Team page: an admin sets how many of the team's runs may run at once, sees a refused
 * value flagged at its field, and removes the limit again; the value holds across a reload.
 */
import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";
import { openSettings } from "./open-settings";

test("an admin limits the team's runs at once, a refused value flagged at its field, and removes the limit", async ({
  page,
}) => {
  await signIn(page);
  await openSettings(page, "Team");
  await expect(page.getByRole("heading", { name: "Team", exact: true })).toBeVisible();
  const form = page.getByRole("form", { name: "Team settings" });
  const limit = form.getByLabel("Runs at once");
  await expect(limit).toHaveValue("");

  await limit.fill("0");
  // The browser's own check would stop 0; the server's answer is what this shows.
  await limit.evaluate((input: HTMLInputElement) => input.removeAttribute("min"));
  await form.getByRole("button", { name: "Save" }).click();
  await expect(limit).toHaveAttribute("aria-invalid", "true");
  await expect(form.locator(".field-error")).toContainText("at least 1 run at once");

  await limit.fill("3");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved.");
  await page.reload();
  await expect(
    page.getByRole("form", { name: "Team settings" }).getByLabel("Runs at once"),
  ).toHaveValue("3");

  await page.getByRole("form", { name: "Team settings" }).getByLabel("Runs at once").fill("");
  await page
    .getByRole("form", { name: "Team settings" })
    .getByRole("button", { name: "Save" })
    .click();
  await expect(page.getByRole("form", { name: "Team settings" }).getByRole("status")).toHaveText(
    "Saved.",
  );
  await page.reload();
  await expect(
    page.getByRole("form", { name: "Team settings" }).getByLabel("Runs at once"),
  ).toHaveValue("");
});
