/**
 * Sessions end when the password changes, everywhere; a user in two teams switches
 * between them in the header and sees only the chosen team's workflows.
 */
import { expect, test, type Page } from "@playwright/test";
import { createDb, hashPassword, saveWorkflowVersion, type Db } from "@switchyard/db";
import { openSettings } from "./open-settings";

let db: Db;

test.beforeAll(() => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
});
test.afterAll(async () => {
  await db.$disconnect();
});

const user = async (
  email: string,
  password: string,
  teams: { slug: string; name: string; workflow: string }[],
) => {
  const u = await db.user.create({
    data: { email, name: email, passwordHash: await hashPassword(password) },
  });
  for (const t of teams) {
    const team = await db.team.upsert({
      where: { slug: t.slug },
      create: { slug: t.slug, name: t.name },
      update: {},
    });
    await db.membership.create({ data: { teamId: team.id, userId: u.id, role: "member" } });
    await db.lane.upsert({
      where: { teamId_name: { teamId: team.id, name: "default" } },
      create: {
        teamId: team.id,
        name: "default",
        saveRoles: ["owner", "admin", "member"],
        startRoles: ["owner", "admin", "member"],
      },
      update: {},
    });
    await saveWorkflowVersion(db, {
      teamId: team.id,
      name: t.workflow,
      description: "",
      lane: "default",
      files: {
        "workflow.yaml": `name: ${t.workflow}\nstates:\n  initial: a\n  a:\n    type: step\n    command: echo hi\n`,
      },
      createdById: u.id,
    });
  }
  return u;
};

const signInAs = async (page: Page, email: string, password: string) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/overview$/);
};

test("a user in two teams switches teams in the header and sees only that team's workflows", async ({
  page,
}) => {
  await user("two-teams@e2e.local", "two-teams-password", [
    { slug: "e2e-north", name: "North team", workflow: "north-only" },
    { slug: "e2e-south", name: "South team", workflow: "south-only" },
  ]);
  await signInAs(page, "two-teams@e2e.local", "two-teams-password");
  await page.goto("/workflows");
  await expect(page.getByRole("link", { name: "north-only" })).toBeVisible();
  await expect(page.getByRole("link", { name: "south-only" })).toHaveCount(0);

  await page.getByLabel("Team").selectOption({ label: "South team" });
  await page.getByRole("button", { name: "Switch team" }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await expect(page.getByRole("link", { name: "south-only" })).toBeVisible();
  await expect(page.getByRole("link", { name: "north-only" })).toHaveCount(0);
  // The choice is kept in the session.
  await page.reload();
  await expect(page.getByLabel("Team")).toHaveValue(/.+/);
  await expect(page.getByRole("link", { name: "south-only" })).toBeVisible();
  await expect(page.getByRole("link", { name: "hello-world" })).toHaveCount(0);
});

test("changing the password ends the user's other sessions and this one", async ({ browser }) => {
  await user("changer@e2e.local", "changer-password-1", [
    { slug: "e2e-changer", name: "Changer team", workflow: "changer-flow" },
  ]);
  const here = await (await browser.newContext()).newPage();
  const elsewhere = await (await browser.newContext()).newPage();
  await signInAs(here, "changer@e2e.local", "changer-password-1");
  await signInAs(elsewhere, "changer@e2e.local", "changer-password-1");
  expect((await elsewhere.request.get("/api/trpc/workflows.list")).status()).toBe(200);

  await openSettings(here, "Account");
  await here.getByLabel("Current password").fill("changer-password-1");
  await here.getByLabel("New password", { exact: true }).fill("changer-password-2");
  await here.getByLabel("New password again").fill("changer-password-2");
  await here.getByRole("button", { name: "Change password" }).click();
  await expect(here.getByRole("status")).toHaveText(
    "Your password was changed. Sign in with the new one.",
  );

  expect((await elsewhere.request.get("/api/trpc/workflows.list")).status()).toBe(401);
  await elsewhere.goto("/workflows");
  await expect(elsewhere).toHaveURL(/\/login/);
  await signInAs(here, "changer@e2e.local", "changer-password-2");
  await here.goto("/workflows");
  await expect(here.getByRole("link", { name: "changer-flow" })).toBeVisible();
});
