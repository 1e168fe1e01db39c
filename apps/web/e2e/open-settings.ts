import { expect, type Page } from "@playwright/test";

/** Opens a settings page as a person does: Settings in the header, then the page in its list. */
export const openSettings = async (page: Page, name: string) => {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Settings" })
    .click();
  await expect(page).toHaveURL(/\/settings$/);
  await page.getByRole("main").getByRole("link", { name, exact: true }).click();
  await expect(page).not.toHaveURL(/\/settings$/);
};
