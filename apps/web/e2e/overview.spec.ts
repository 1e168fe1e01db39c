/**
 * The overview is where sign-in lands; a finished run shows in its numbers and charts,
 * each chart readable as a table too, and the range can be changed.
 */
import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("the overview counts a finished run, draws it, and switches its range", async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  await page.goto("/workflows");
  await page
    .locator('tr[data-workflow="hello-world"]')
    .getByRole("button", { name: "Run" })
    .click();
  await expect(page.locator("h1 .badge")).toHaveText("succeeded");

  await page.goto("/overview");
  const runs = page.locator(".stat", { hasText: "Runs" }).locator("dd");
  await expect(runs).not.toHaveText("0");
  await expect(page.locator(".stat", { hasText: "Success rate" }).locator("dd")).toHaveText(/%$/);
  const chart = page.getByRole("img", { name: "Runs per day" });
  await expect(chart).toBeVisible();
  await expect(chart.locator("rect.series-2")).not.toHaveCount(0);
  // The same numbers as a table for screen readers: today's row counts the run as succeeded.
  const table = page.locator("table", {
    has: page.locator("caption", { hasText: "Runs per day" }),
  });
  await expect(table.locator("tbody tr")).toHaveCount(30);
  await expect(page.getByText(/^Days in .+, up to now\.$/)).toBeVisible();

  const week = page.getByRole("button", { name: "7 days" });
  await week.click();
  await expect(week).toHaveAttribute("aria-pressed", "true");
  await expect(table.locator("tbody tr")).toHaveCount(7);
});
