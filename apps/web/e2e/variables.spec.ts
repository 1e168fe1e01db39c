import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("an admin stores a secret that is listed but never shown again", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Variables" }).click();
  await page.getByLabel("Name").fill("DEPLOY_TOKEN");
  await page.getByLabel("Value").fill("e2e-very-secret-value");
  await page.getByRole("button", { name: "Save" }).click();
  const row = page.locator('tr[data-variable="DEPLOY_TOKEN"]');
  await expect(row).toContainText("secret");
  await expect(page.locator("body")).not.toContainText("e2e-very-secret-value");

  await page.getByLabel("Secret").uncheck();
  await page.getByLabel("Name").fill("REGION");
  await page.getByLabel("Value").fill("eu-west");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator('tr[data-variable="REGION"]')).toContainText("eu-west");
  await page.locator('tr[data-variable="REGION"]').getByRole("button", { name: "Delete" }).click();
  await expect(page.locator('tr[data-variable="REGION"]')).toHaveCount(0);
});
