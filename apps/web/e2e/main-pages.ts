/**
 * The dashboard's main pages, for the accessibility and screenshot specs: the fixed ones,
 * a workflow and a run of the demo team (started here when none has run yet), and every
 * page the header's navigation and the Settings page link to, so pages added later are
 * covered on their own.
 */
import { expect, type Page } from "@playwright/test";

export type MainPage = { name: string; path: string };

/** A finished run of the demo hello-world workflow: an existing one, or one started now. */
const aRun = async (page: Page) => {
  await page.goto("/runs");
  const existing = page.locator('main a[href^="/runs/"]').first();
  if ((await existing.count()) > 0) return (await existing.getAttribute("href"))!;
  return runHelloWorld(page);
};

/** Runs the demo hello-world workflow from the Workflows page; returns its run page's path once it succeeded. */
export const runHelloWorld = async (page: Page) => {
  await page.goto("/workflows");
  await page
    .locator('tr[data-workflow="hello-world"]')
    .getByRole("button", { name: "Run" })
    .click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.locator("h1 .badge")).toHaveText("succeeded");
  return new URL(page.url()).pathname;
};

/** Needs a signed-in page. */
export const mainPages = async (page: Page): Promise<MainPage[]> => {
  await page.goto("/workflows");
  const workflow = await page
    .locator('main a[href^="/workflows/"]:not([href="/workflows/new"])')
    .first()
    .getAttribute("href");
  const run = await aRun(page);
  const navigation = await page.locator('nav[aria-label="Main"] a').evaluateAll((links) =>
    links.map((a) => ({
      name: (a.textContent ?? "").trim(),
      path: new URL((a as HTMLAnchorElement).href).pathname,
    })),
  );
  // The settings pages, from the Settings page that lists them all.
  await page.goto("/settings");
  navigation.push(
    ...(await page.locator(".settings-index a").evaluateAll((links) =>
      links.map((a) => ({
        name: (a.textContent ?? "").trim(),
        path: new URL((a as HTMLAnchorElement).href).pathname,
      })),
    )),
  );
  const pages: MainPage[] = [
    { name: "overview", path: "/overview" },
    { name: "workflows", path: "/workflows" },
    ...(workflow ? [{ name: "workflow", path: workflow }] : []),
    { name: "new-workflow", path: "/workflows/new" },
    { name: "runs", path: "/runs" },
    { name: "run", path: run },
    { name: "api-reference", path: "/api-reference" },
    { name: "workers", path: "/workers" },
  ];
  for (const link of navigation) {
    if (!pages.some((p) => p.path === link.path))
      pages.push({ name: link.path.replace(/^\/+/, "").replace(/\//g, "-"), path: link.path });
  }
  return pages;
};

/** Waits for a page's data: no loading state left. */
export const settle = async (page: Page) => {
  await page.waitForLoadState("networkidle");
  await expect(page.locator('main [role="status"].state-loading')).toHaveCount(0);
};
