/**
 * Settings → Instance in the browser: the seeded admin (an instance admin) finds it in the
 * navigation, lets anyone create teams, sees the change in the installation's audit log,
 * and is refused "SSO only" at its field until they have signed in through the issuer; a
 * team's owner who is no instance admin sees neither the entry nor the page (404), nor a
 * way to create a team. On the Members page the instance admin is shown a member's reset
 * link once; a team admin without SMTP gets no link and is told whom to ask.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createDb, ensureMember, hashPassword, teamBySlug, type Db } from "@switchyard/db";
import { signIn } from "./sign-in";
import { openSettings } from "./open-settings";

let db: Db;
test.beforeAll(() => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
});
test.afterAll(async () => {
  await db.$disconnect();
});

const unique = () => Math.random().toString(36).slice(2, 10);

/** A member of the demo team with a password, signed in in a browser of their own. */
const signedInMember = async (browser: Browser, role: "owner" | "admin" | "member") => {
  const email = `${role}-${unique()}@e2e.local`;
  const team = await teamBySlug(db, "demo");
  await ensureMember(db, team.id, {
    email,
    name: `${role} ${email}`,
    role,
    passwordHash: await hashPassword("member-password-1"),
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("member-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/overview$/);
  return { page, email, close: () => context.close() };
};

const instanceForm = (page: Page) => page.getByRole("form", { name: "Instance settings" });

test("an instance admin lets anyone create teams, sees it in the installation's audit log, and cannot lock themselves out with SSO only", async ({
  page,
}) => {
  await signIn(page);
  await openSettings(page, "Instance");
  await expect(page.getByRole("heading", { name: "Instance", exact: true })).toBeVisible();
  const form = instanceForm(page);
  await expect(form.getByLabel("Instance admins only")).toBeChecked();
  await expect(page.getByRole("list", { name: "Instance admins" })).toContainText(
    process.env.E2E_ADMIN_EMAIL!,
  );

  await form.getByLabel("Anyone signed in").check();
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved.");
  await expect(
    page
      .getByRole("table", { name: "Instance audit log" })
      .locator('tr[data-action="instance.update"]')
      .first(),
  ).toContainText("teamCreation");
  await page.reload();
  await expect(instanceForm(page).getByLabel("Anyone signed in")).toBeChecked();

  // The issuer is configured here, but this admin never signed in through it.
  await instanceForm(page).getByLabel("Single sign-on only").check();
  await instanceForm(page).getByRole("button", { name: "Save" }).click();
  await expect(instanceForm(page).getByLabel("Single sign-on only")).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await expect(instanceForm(page).locator(".field-error")).toContainText(
    "sign in through Test IdP once yourself",
  );

  await instanceForm(page).getByLabel("Single sign-on only").uncheck();
  await instanceForm(page).getByLabel("Instance admins only").check();
  await instanceForm(page).getByRole("button", { name: "Save" }).click();
  await expect(instanceForm(page).getByRole("status")).toHaveText("Saved.");
});

test("a team's owner who is no instance admin sees neither the Instance page nor a way to create a team", async ({
  browser,
}) => {
  const owner = await signedInMember(browser, "owner");
  try {
    await owner.page.goto("/settings");
    await expect(owner.page.getByRole("link", { name: "Members" })).toBeVisible();
    await expect(owner.page.getByRole("link", { name: "Instance", exact: true })).toHaveCount(0);
    await expect(owner.page.getByRole("link", { name: "New team" })).toHaveCount(0);
    const response = await owner.page.goto("/settings/instance");
    expect(response?.status()).toBe(404);
    await owner.page.goto("/teams/new");
    await expect(
      owner.page.getByRole("alert").filter({ hasText: "You may not create a team" }),
    ).toContainText("only instance admins create teams");
  } finally {
    await owner.close();
  }
});

test("the Members page shows an instance admin a member's reset link once, and a team admin none", async ({
  page,
  browser,
}) => {
  const member = await signedInMember(browser, "member");
  const teamAdmin = await signedInMember(browser, "admin");
  try {
    await signIn(page);
    await page.goto("/settings/members");
    await page
      .locator(`tr[data-member="${member.email}"]`)
      .getByRole("button", { name: "Reset password" })
      .click();
    const link = (await page.getByTestId("reset-link").innerText()).trim();
    expect(link).toMatch(/\/reset\/pwr_[A-Za-z0-9_-]{43}$/);

    await teamAdmin.page.goto("/settings/members");
    await expect(teamAdmin.page.getByTestId("reset-note")).toContainText(
      "An instance admin issues them",
    );
    await expect(teamAdmin.page.getByRole("button", { name: "Reset password" })).toHaveCount(0);

    // The member sets a new password through the link; their session ends.
    const other = await browser.newContext();
    try {
      const reset = await other.newPage();
      await reset.goto(link);
      await reset.getByLabel("New password (at least 10 characters)").fill("member-password-2");
      await reset.getByLabel("New password again").fill("member-password-2");
      await reset.getByRole("button", { name: "Set password" }).click();
      await expect(reset.getByRole("status")).toHaveText(
        "Your password was changed. Sign in with the new one.",
      );
    } finally {
      await other.close();
    }
    await member.page.goto("/workflows");
    await expect(member.page).toHaveURL(/\/login/);
  } finally {
    await member.close();
    await teamAdmin.close();
  }
});

test("with sign-up open, the login page links to a sign-up page that makes an account in no team; closed, it says invitations only", async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto("/signup");
    await expect(page.getByRole("status")).toContainText("by invitation only");
    await page.goto("/login");
    await expect(page.getByRole("link", { name: "Create an account" })).toHaveCount(0);

    await db.instanceSettings.update({ where: { id: "instance" }, data: { openSignUp: true } });
    await page.goto("/login");
    await page.getByRole("link", { name: "Create an account" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    const email = `signed-up-${unique()}@e2e.local`;
    const form = page.getByRole("form", { name: "Create your account" });
    await form.getByLabel("Name").fill("Sid Signup");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel(/^Password/).fill("signup-password-1");
    await form.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByRole("heading", { name: "You are not in a team yet" })).toBeVisible();
    expect((await db.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).toBeNull();
  } finally {
    await db.instanceSettings.update({ where: { id: "instance" }, data: { openSignUp: false } });
    await context.close();
  }
});
