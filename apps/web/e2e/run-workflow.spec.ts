import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test("an anonymous visitor is sent to the login page", async ({ page }) => {
  await page.goto("/workflows");
  await expect(page).toHaveURL(/\/login$/);
});

test("a wrong password is refused with a message", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(process.env.E2E_ADMIN_EMAIL!);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("main [role=alert]")).toHaveText("Wrong email or password.");
});

test("the demo admin signs in, starts the demo workflow and sees it finish", async ({ page }) => {
  await signIn(page);
  await page.goto("/workflows");
  const row = page.locator('tr[data-workflow="hello-world"]');
  await expect(row).toContainText("hello-world");
  await row.getByRole("button", { name: "Run" }).click();

  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.locator("h1 .badge")).toHaveText("succeeded");
  const greet = page.locator('[data-step="greet"]');
  await expect(greet.locator(".badge")).toHaveText("succeeded");
  await expect(greet.locator("pre")).toContainText("hello from workspace");
  await expect(page.locator('[data-step="inspect"] .badge')).toHaveText("succeeded");

  const runId = page.url().split("/").at(-1)!;
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Runs", exact: true })
    .click();
  const listed = page.locator(`tr[data-run="${runId}"]`);
  await expect(listed).toContainText("hello-world");
  await expect(listed.locator(".badge")).toHaveText("succeeded");
  await expect(listed).toContainText("dashboard");
});

test("a failing workflow shows the failed step with its exit code and stderr", async ({ page }) => {
  await signIn(page);
  await page.goto("/workflows");
  await page
    .locator('tr[data-workflow="flaky-build"]')
    .getByRole("button", { name: "Run" })
    .click();
  await expect(page.locator("h1 .badge")).toHaveText("failed");
  const step = page.locator('[data-step="test"]');
  await expect(step.locator(".badge")).toHaveText("failed");
  await expect(step).toContainText("exit 3");
  await expect(step.locator("pre.stderr")).toContainText("1 of 3 tests failed");
  await expect(page.locator("main [role=alert]")).toContainText("the build failed");
});

test("a running workflow can be cancelled from its page", async ({ page }) => {
  await signIn(page);
  await page.goto("/workflows");
  await page
    .locator('tr[data-workflow="slow-countdown"]')
    .getByRole("button", { name: "Run" })
    .click();
  await expect(page.locator('[data-step="count"] .badge')).toHaveText("running");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.locator("h1 .badge")).toHaveText("cancelled");
  await expect(page.locator('[data-step="count"] .badge')).toHaveText("cancelled");
  await expect(page.getByRole("button", { name: "Cancel" })).toHaveCount(0);
});

test("the run page follows a run live, without polling", async ({ page }) => {
  await signIn(page);
  await page.goto("/workflows");
  await page
    .locator('tr[data-workflow="slow-countdown"]')
    .getByRole("button", { name: "Run" })
    .click();
  await expect(page.getByTestId("live")).toBeVisible();
  // While the stream is open the page does not poll: only pushed updates can show the end.
  await expect(page.locator("h1 .badge")).toHaveText("succeeded", { timeout: 30_000 });
  await expect(page.locator('[data-step="count"] pre')).toContainText("1");
});
