/**
 * Every main page fits a 390 px wide phone: nothing runs off the side (a table scrolls in
 * its own box). With SWITCHYARD_SCREENSHOTS=1 it also saves each page at 1280 px and 390 px
 * into docs/screenshots/ (PNG), in light mode, for the README; normal runs leave the
 * committed pictures alone.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createDb, saveWorkflowVersion, teamBySlug } from "@switchyard/db";
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
 * value and a secret (the Variables table ran 470 px wide with one such row), a member with a
 * long address, a token, a lane and a linked repository with long names, and a workflow
 * with a long name. Rows the pages only list are written straight into the database.
 */
const realisticData = async (page: Page) => {
  const db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  try {
    const teamId = (await teamBySlug(db, "demo")).id;
    const admin = await db.user.findFirstOrThrow({
      where: { email: process.env.E2E_ADMIN_EMAIL! },
    });
    const email = "maximilian.schneider-oberhauser@platform-engineering.example-corporation.com";
    const person = await db.user.upsert({
      where: { email },
      create: { email, name: "Maximilian Schneider-Oberhauser (Platform Engineering)" },
      update: {},
    });
    await db.membership.upsert({
      where: { teamId_userId: { teamId, userId: person.id } },
      create: { teamId, userId: person.id, role: "member" },
      update: {},
    });
    if ((await db.apiToken.count({ where: { teamId, name: { startsWith: "nightly-" } } })) === 0)
      await db.apiToken.create({
        data: {
          teamId,
          userId: admin.id,
          name: "nightly-release-pipeline (GitHub Actions, deploy-production-eu-west-1)",
          prefix: "sy_e2e",
          tokenHash: randomBytes(32).toString("hex"),
          scopes: ["api"],
        },
      });
    await db.lane.upsert({
      where: { teamId_name: { teamId, name: "production-deploys-eu-west-1-release-train" } },
      create: {
        teamId,
        name: "production-deploys-eu-west-1-release-train",
        description:
          "Release-train deploys to the EU production cluster; merges need an approver from the platform team.",
        saveRoles: ["admin"],
        startRoles: ["admin", "member"],
      },
      update: {},
    });
    if ((await db.gitSource.count({ where: { teamId } })) === 0)
      await db.gitSource.create({
        data: {
          teamId,
          url: "https://git.example-corporation.com/platform-engineering/switchyard-workflows.git",
          branch: "release/2026-12-stabilisation",
          folder: "workflows/production/release-automation",
          lastSyncAt: new Date(),
          lastCommit: randomBytes(20).toString("hex"),
          lastStatus: "ok",
        },
      });
    const long = "release-candidate-verification-and-changelog-publication";
    if ((await db.workflow.count({ where: { teamId, name: long } })) === 0)
      await saveWorkflowVersion(db, {
        teamId,
        name: long,
        files: {
          "workflow.yaml": `name: ${long}\ndescription: Verifies a release candidate against the staging cluster, writes the changelog from merged pull requests and publishes both\nstates:\n  initial: verify\n  verify:\n    type: step\n    command: echo https://artifacts.build.example.com/releases/switchyard/nightly/candidate\n    on_success: done\n  done:\n    type: terminal\n`,
        },
      });
  } finally {
    await db.$disconnect();
  }
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
