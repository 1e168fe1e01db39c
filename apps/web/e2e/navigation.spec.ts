/**
 * The header names the main pages and one Settings entry; the settings pages are grouped on
 * the Settings page and in a side navigation on each of them, which folds on a phone.
 */
import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("the header has the main pages and Settings; settings are grouped, the current one marked", async ({
  page,
}) => {
  await signIn(page);
  const main = page.getByRole("navigation", { name: "Main" });
  await expect(main.getByRole("link")).toHaveText([
    "Overview",
    "Workflows",
    "Templates",
    "Packs",
    "Runs",
    /^Waiting for you/,
    "Settings",
  ]);
  await main.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(main.getByRole("link", { name: "Settings" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const groups = page.getByRole("main").getByRole("heading", { level: 2 });
  // The demo admin is an instance admin too.
  await expect(groups).toHaveText(["Team", "What runs use", "You", "Installation"]);
  await expect(page.getByRole("navigation", { name: "Settings" })).toHaveCount(0);

  await page.getByRole("main").getByRole("link", { name: "Connectors", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/connectors$/);
  const side = page.getByRole("navigation", { name: "Settings" });
  await expect(side.getByRole("link", { name: "Connectors" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(main.getByRole("link", { name: "Settings" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await side.getByRole("link", { name: "Budgets" }).click();
  await expect(page).toHaveURL(/\/settings\/budgets$/);
  await expect(side.getByRole("link", { name: "Budgets" })).toHaveAttribute("aria-current", "page");
});

test("on a phone the settings list folds behind one button, which opens it", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto("/settings/variables");
  const side = page.getByRole("navigation", { name: "Settings" });
  const toggle = side.getByRole("button", { name: /All settings/ });
  await expect(toggle).toContainText("Variables");
  await expect(side.getByRole("link", { name: "Members" })).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await side.getByRole("link", { name: "Members" }).click();
  await expect(page).toHaveURL(/\/settings\/members$/);
  await expect(side.getByRole("link", { name: "Members" })).toBeHidden();
});
