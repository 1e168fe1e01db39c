/**
 * Settings → Lanes in a browser: an admin adds a lane, opens a connector to it with a tool
 * rule for it, cannot remove the lane while the connector names it, then can; operator's
 * roles cannot be changed; the audit log lists the lane's entries. The three new pages
 * fit a phone's width.
 */
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./sign-in";
import { openSettings } from "./open-settings";

/** How far the page's main area, or a table in it, is wider than it shows (0: it fits). */
const overflow = async (page: Page) =>
  page
    .locator("main")
    .evaluate((main) =>
      Math.max(
        ...[main, ...main.querySelectorAll(".table-scroll")].map(
          (el) => el.scrollWidth - el.clientWidth,
        ),
      ),
    );

test("an admin adds a lane, opens a connector to it, and removes the lane only once nothing names it", async ({
  page,
}) => {
  await signIn(page);
  await openSettings(page, "Lanes");
  await expect(page.getByRole("heading", { name: "Lanes", level: 1 })).toBeVisible();
  await expect(page.locator('tr[data-lane="operator"] [data-save-roles]')).toHaveText(
    "owner, admin",
  );
  await expect(page.locator('tr[data-lane="default"]')).toContainText("built in");
  await expect(
    page.locator('tr[data-lane="operator"]').getByRole("button", { name: "Remove operator" }),
  ).toHaveCount(0);

  // operator stays owners' and admins'
  await page.getByRole("button", { name: "Edit operator" }).click();
  const operator = page.getByRole("form", { name: "Change lane operator" });
  await expect(
    operator.getByRole("group", { name: "Who may save workflows in it" }).getByLabel("member"),
  ).toBeDisabled();
  await operator.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Add a lane" }).click();
  const form = page.getByRole("form", { name: "Add a lane" });
  await form.getByLabel("Name", { exact: true }).fill("review");
  await form.getByLabel("Description").fill("Code review bots");
  await form
    .getByRole("group", { name: "Who may save workflows in it" })
    .getByLabel("member")
    .check();
  await form.getByRole("button", { name: "Add lane" }).click();
  const row = page.locator('tr[data-lane="review"]');
  await expect(row).toContainText("Code review bots");
  await expect(row.locator("[data-save-roles]")).toHaveText("owner, admin, member");
  await expect(row.locator("[data-start-roles]")).toHaveText("owner, admin, member");
  // The same name again is refused, with the server's message.
  await page.getByRole("button", { name: "Add a lane" }).click();
  await form.getByLabel("Name", { exact: true }).fill("review");
  await form.getByRole("button", { name: "Add lane" }).click();
  await expect(form.getByLabel("Name")).toHaveAccessibleDescription(
    'the team already has a lane "review"',
  );
  await form.getByRole("button", { name: "Cancel" }).click();

  // A connector open to the lane only, with a tool rule for it.
  await openSettings(page, "Connectors");
  await page.getByRole("button", { name: "Add a connector" }).click();
  const add = page.getByRole("form", { name: "Add a connector" });
  await add.getByLabel("Id", { exact: true }).fill("reviewbot");
  await add.getByLabel("Name", { exact: true }).fill("Review bot");
  await add.getByLabel("Command").fill("node");
  await add.getByLabel("Arguments, one per line").fill("/opt/connectors/review-bot.js");
  const lanes = add.getByRole("group", { name: "Lanes whose runs may use it" });
  await lanes.getByLabel("operator").uncheck();
  await lanes.getByLabel("review").check();
  await add.getByRole("button", { name: "Add connector" }).click();
  const card = page.locator('[data-connector="reviewbot"]');
  await expect(card.locator("[data-lanes]")).toHaveText("review");

  await card.getByRole("button", { name: "Tool rules" }).click();
  const rules = card.getByRole("form", { name: "Tool rules of Review bot" });
  await rules.getByLabel("Add a rule for").selectOption("review");
  const deny = rules
    .getByRole("group", { name: "Rule for lane review" })
    .getByLabel("Denied tools");
  await deny.fill("delete files");
  await rules.getByRole("button", { name: "Save rules" }).click();
  await expect(deny).toHaveAttribute("aria-invalid", "true");
  await expect(deny).toHaveAccessibleDescription(/tool_allow\.review\.deny\[0\].*tool pattern/);
  await deny.fill("delete_*\ndrop_*");
  await rules.getByRole("button", { name: "Save rules" }).click();
  await expect(card.locator("[data-rules]")).toHaveText("review: deny delete_*, drop_*");

  await openSettings(page, "Lanes");
  await expect(row.locator("[data-used-by]")).toHaveText("connectors: reviewbot");
  await row.getByRole("button", { name: "Remove review" }).click();
  await row.getByRole("button", { name: "Remove review for good" }).click();
  await expect(page.locator("main").getByRole("alert")).toContainText(
    'still named by connectors "reviewbot"',
  );
  await expect(row).toBeVisible();

  await openSettings(page, "Connectors");
  await card.getByRole("button", { name: "Remove", exact: true }).click();
  await card.getByRole("button", { name: "Remove Review bot and its credentials" }).click();
  await expect(card).toHaveCount(0);
  await openSettings(page, "Lanes");
  await row.getByRole("button", { name: "Remove review" }).click();
  await row.getByRole("button", { name: "Remove review for good" }).click();
  await expect(row).toHaveCount(0);

  await openSettings(page, "Audit log");
  await page.getByLabel("Action starts with").fill("lane.");
  await page.getByRole("button", { name: "Filter" }).click();
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log.locator('tr[data-action="lane.remove"][data-target="review"]')).toBeVisible();
  await expect(log.locator('tr[data-action="lane.create"][data-target="review"]')).toContainText(
    "owner,admin,member",
  );
  await expect(log.locator("tbody tr").filter({ hasNotText: "lane." })).toHaveCount(0);
});

test("the connectors, lanes and audit pages fit a phone's width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  for (const [path, heading, ready] of [
    ["/settings/connectors", "Connectors", '[data-catalog="linear"]'],
    ["/settings/lanes", "Lanes", 'tr[data-lane="operator"]'],
    ["/settings/audit", "Audit log", 'form[role="search"]'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await expect(page.locator(ready)).toBeVisible();
    await expect(page.getByText("Loading…")).toHaveCount(0);
    expect(await overflow(page), path).toBeLessThanOrEqual(0);
    // The header too: its links wrap instead of running off the screen.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      `${path} page width`,
    ).toBeLessThanOrEqual(0);
  }
});
