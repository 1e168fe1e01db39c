import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";
import { openSettings } from "./open-settings";

test("an admin stores a secret that is listed but never shown again, with the lanes that may open it", async ({
  page,
}) => {
  await signIn(page);
  await openSettings(page, "Variables");
  await page.getByLabel("Name").fill("DEPLOY_TOKEN");
  await page.getByLabel("Value").fill("e2e-very-secret-value");
  await page.getByRole("button", { name: "Save" }).click();
  const row = page.locator('tr[data-variable="DEPLOY_TOKEN"]');
  await expect(row).toContainText("secret");
  await expect(page.locator("body")).not.toContainText("e2e-very-secret-value");
  // a new secret is open to operator runs only, and the row says so
  await expect(row.locator("[data-lanes]")).toHaveText("operator");

  // an admin opens it to the default lane as well, and the row shows both
  await row.getByRole("button", { name: "Change lanes" }).click();
  await row.getByRole("group", { name: "Lanes of DEPLOY_TOKEN" }).getByLabel("default").check();
  await row.getByRole("button", { name: "Save lanes" }).click();
  await expect(row.locator("[data-lanes]")).toHaveText("default, operator");

  // lanes chosen when the secret is made
  const newLanes = page.getByRole("group", { name: "Open to lanes" });
  await newLanes.getByLabel("operator").uncheck();
  await newLanes.getByLabel("default").check();
  await page.getByLabel("Name").fill("BUILD_TOKEN");
  await page.getByLabel("Value").fill("e2e-build-token-value");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator('tr[data-variable="BUILD_TOKEN"] [data-lanes]')).toHaveText("default");

  await page.getByLabel("Secret").uncheck();
  await page.getByLabel("Name").fill("REGION");
  await page.getByLabel("Value").fill("eu-west");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator('tr[data-variable="REGION"]')).toContainText("eu-west");
  await expect(page.locator('tr[data-variable="REGION"]')).toContainText("every lane");
  await page.locator('tr[data-variable="REGION"]').getByRole("button", { name: "Delete" }).click();
  await expect(page.locator('tr[data-variable="REGION"]')).toHaveCount(0);
});
