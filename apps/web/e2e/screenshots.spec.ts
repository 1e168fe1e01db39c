/**
 * Every main page fits a 390 px wide phone: nothing runs off the side (a table scrolls in
 * its own box). With SWITCHYARD_SCREENSHOTS=1 it also saves each page at 1280 px and 390 px
 * into docs/screenshots/ (PNG), in light mode, for the README; normal runs leave the
 * committed pictures alone.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { mainPages, settle } from "./main-pages";
import { signIn } from "./sign-in";

const SAVE = process.env.SWITCHYARD_SCREENSHOTS === "1";
const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../docs/screenshots");
const WIDTHS = [1280, 390] as const;

test.use({ colorScheme: "light" });

/** The outermost elements that reach past the screen's right edge outside any scrolling box: what to fix. */
const widest = (page: Page) =>
  page.evaluate(() => {
    const past = (el: Element) => el.getBoundingClientRect().right > window.innerWidth + 1;
    const clipped = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== "visible") return true;
      return false;
    };
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${typeof el.className === "string" && el.className.trim() ? `.${el.className.trim().split(/\s+/).join(".")}` : ""}`;
    return [...document.querySelectorAll("body *")]
      .filter((el) => past(el) && !clipped(el) && !(el.parentElement && past(el.parentElement)))
      .slice(0, 3)
      .map((el) => `${el.parentElement ? `${name(el.parentElement)} > ` : ""}${name(el)}`);
  });

/**
 * What a team's tables hold in use, not the empty demo: a variable with a real URL as its
 * value and a secret (the Variables table ran 470 px wide with one such row).
 */
const realisticData = async (page: Page) => {
  await page.goto("/settings/variables");
  await settle(page);
  for (const [name, value, secret] of [
    [
      "ARTIFACT_BUCKET_URL",
      "https://artifacts.build.example.com/releases/switchyard/nightly",
      false,
    ],
    ["PAGERDUTY_ROUTING_KEY", "e2e-screens-secret-value", true],
  ] as const) {
    if ((await page.locator(`tr[data-variable="${name}"]`).count()) > 0) continue;
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Value").fill(value);
    await page.getByLabel("Secret").setChecked(secret);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator(`tr[data-variable="${name}"]`)).toHaveCount(1);
  }
};

test("no main page runs wider than a 390 px phone, and each is pictured when asked", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page);
  await realisticData(page);
  const pages = [...(await mainPages(page)), { name: "login", path: "/login" }];
  const tooWide: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const target of pages) {
      if (target.name === "login") await page.context().clearCookies();
      await page.goto(target.path);
      await settle(page);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      if (width === 390 && scrollWidth > innerWidth)
        tooWide.push(
          `${target.name} (${target.path}): ${scrollWidth}px in ${innerWidth}px, from ${(await widest(page)).join(", ")}`,
        );
      if (SAVE)
        await page.screenshot({
          path: path.join(OUT, `${target.name}-${width}.png`),
          fullPage: width === 1280 && target.name !== "api-reference",
        });
    }
    if (pages.at(-1)?.name === "login") await signIn(page);
  }
  expect(tooWide, `pages wider than the screen:\n${tooWide.join("\n")}`).toEqual([]);
});
