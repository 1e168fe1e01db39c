/**
 * axe on every main page, the login page included, in light and in dark: a serious or
 * critical violation fails, listed by page, rule and element.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { mainPages, settle } from "./main-pages";
import { signIn } from "./sign-in";

type Found = { page: string; rule: string; impact: string; help: string; targets: string[] };

const audit = async (page: Page, name: string): Promise<Found[]> => {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      page: name,
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
    }));
};

const report = (found: Found[]) =>
  found
    .map((f) => `${f.page}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.targets.join("\n    ")}`)
    .join("\n");

for (const scheme of ["light", "dark"] as const) {
  test.describe(`${scheme} mode`, () => {
    test.use({ colorScheme: scheme });

    test(`the login page has no serious accessibility problems (${scheme})`, async ({ page }) => {
      await page.goto("/login");
      const found = await audit(page, "login");
      expect(found, report(found)).toEqual([]);
    });

    test(`every main page has no serious accessibility problems (${scheme})`, async ({ page }) => {
      test.setTimeout(600_000);
      await signIn(page);
      const found: Found[] = [];
      for (const target of await mainPages(page)) {
        await page.goto(target.path);
        await settle(page);
        expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(
          scheme === "dark",
        );
        found.push(...(await audit(page, target.name)));
      }
      expect(found, report(found)).toEqual([]);
    });
  });
}

test("the menu button opens the navigation on a phone, by keyboard too, and Escape closes it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page);
  const menu = page.getByRole("button", { name: "Menu" });
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeHidden();
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Runs" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
  await menu.click();
  await nav.getByRole("link", { name: "Workflows" }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await expect(nav).toBeHidden();
});

test("the skip link moves focus to the page's content", async ({ page }) => {
  await signIn(page);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
});

test("the theme toggle switches to dark and back, kept across a reload without a flash", async ({
  page,
}) => {
  await signIn(page);
  const toggle = page.locator(".theme-toggle");
  const background = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const light = await background();
  await toggle.click(); // system → light
  await toggle.click(); // light → dark
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  const dark = await background();
  expect(dark).not.toBe(light);
  // The server renders the choice into <html>: the first HTML byte already has it.
  const html = await (await page.request.get("/overview")).text();
  expect(html).toMatch(/<html[^>]*data-theme="dark"/);
  await page.reload();
  expect(await background()).toBe(dark);
  await toggle.click(); // dark → system
  await expect(page.locator("html")).not.toHaveAttribute("data-theme", /.*/);
});
