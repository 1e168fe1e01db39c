import { expect, type Page } from "@playwright/test";

/** Signs in as the demo admin the global setup seeded, landing on the overview. */
export const signIn = async (page: Page) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(process.env.E2E_ADMIN_EMAIL!);
  await page.getByLabel("Password").fill(process.env.E2E_ADMIN_PASSWORD!);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/overview$/);
};
