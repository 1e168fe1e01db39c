import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

/**
 * Teams and people in the browser: the admin invites someone by link; the invited person,
 * in a browser of their own, opens it, signs up and lands in the team; the admin makes
 * them a viewer, and the workflow page no longer offers them the Run button.
 */
test("an invited person signs up by link, and loses the Run button when made a viewer", async ({
  page,
  browser,
}) => {
  // Two browsers, a sign-up and a role change: more than one page's worth of time.
  test.setTimeout(150_000);
  await signIn(page);
  await page.goto("/settings/members");
  const invite = page.getByRole("form", { name: "Invite someone" });
  await invite.getByLabel("Role").selectOption("member");
  await invite.getByRole("button", { name: "Create invitation link" }).click();
  const link = (await page.getByTestId("invitation-link").innerText()).trim();
  expect(link).toMatch(/\/invite\/inv_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("table", { name: "Pending invitations" })).toContainText("member");

  const theirs = await browser.newContext();
  try {
    const guest = await theirs.newPage();
    await guest.goto(link);
    await expect(guest.getByTestId("invite-team")).toHaveText("Demo team");
    await expect(guest.getByTestId("invite-role")).toHaveText("member");
    await guest.getByLabel("Name").fill("Riley Newcomer");
    await guest.getByLabel("Email").fill("riley@e2e.local");
    await guest.getByLabel(/^Password/).fill("riley-password-1");
    await guest.getByRole("button", { name: "Create account and join" }).click();
    await expect(guest).toHaveURL(/\/overview$/);

    // As a member, the workflow page offers Run.
    await guest.goto("/workflows");
    await guest.getByRole("link", { name: "hello-world" }).first().click();
    await expect(guest).toHaveURL(/\/workflows\/(?!new$)[^/]+$/);
    await expect(guest.getByRole("button", { name: "Run", exact: true })).toBeVisible();
    const workflowUrl = guest.url();

    // The admin makes them a viewer.
    await page.reload();
    const row = page.locator('tr[data-member="riley@e2e.local"]');
    await expect(row).toContainText("Riley Newcomer");
    // Saved before the page is read again (a reload would cut the request short).
    const saved = page.waitForResponse((r) => r.url().includes("members.changeRole") && r.ok());
    await row.getByLabel("Role of Riley Newcomer").selectOption("viewer");
    await saved;
    await page.reload();
    await expect(
      page.locator('tr[data-member="riley@e2e.local"]').getByLabel("Role of Riley Newcomer"),
    ).toHaveValue("viewer");
    // The link was used: it no longer works, and nothing is pending.
    await expect(page.getByText("No pending invitations.")).toBeVisible();

    // Once a page knows the role, a viewer gets no Run button: not on the list, not on the workflow's page.
    let roleKnown = guest.waitForResponse((r) => r.url().includes("teams.current") && r.ok());
    await guest.goto("/workflows");
    await roleKnown;
    await expect(guest.locator('tr[data-workflow="hello-world"]')).toBeVisible();
    await expect(guest.getByRole("button", { name: "Run", exact: true })).toHaveCount(0);
    roleKnown = guest.waitForResponse((r) => r.url().includes("teams.current") && r.ok());
    await guest.goto(workflowUrl);
    await roleKnown;
    await expect(guest.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(guest.getByRole("button", { name: "Run", exact: true })).toHaveCount(0);

    // The link is used: the person who used it is taken on to the dashboard, anyone else is told.
    await guest.goto(link);
    await expect(guest).toHaveURL(/\/overview$/);
    const someoneElse = await browser.newContext();
    try {
      const other = await someoneElse.newPage();
      await other.goto(link);
      await expect(other.getByText("this invitation was already used")).toBeVisible();
    } finally {
      await someoneElse.close();
    }
  } finally {
    await theirs.close();
  }
});
