import { expect, test, type Page } from "@playwright/test";
import { createDb, ensureMember, teamBySlug, type Db } from "@switchyard/db";

/**
 * Single sign-on through a real OpenID Connect issuer (the test issuer global-setup starts,
 * oidc-provider on 127.0.0.1): the login page offers it, the browser goes there, signs in on
 * its form and comes back. A new person gets an account of their own and no team yet; a
 * verified email of an existing member links to that member; an unverified one is refused.
 */
let db: Db;
test.beforeAll(() => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
});
test.afterAll(async () => {
  await db.$disconnect();
});

/**
 * The app at localhost, not 127.0.0.1: Next.js gives the auth routes a loopback request's URL
 * as localhost, so the callback the issuer sends the browser to, and the cookies of the round
 * trip, are on localhost.
 */
const app = (path: string) => `http://localhost:${process.env.E2E_PORT}${path}`;

const unique = () => Math.random().toString(36).slice(2, 10);

/** From the login page through the issuer's form and back; claims are what the issuer will say. */
const signInThroughIssuer = async (page: Page, claims: { sub: string; email: string; name: string; verified: boolean }) => {
  await page.goto(app("/login"));
  await page.getByRole("button", { name: "Continue with Test IdP" }).click();
  await expect(page).toHaveURL(new RegExp(`^${process.env.E2E_OIDC_ISSUER!}/interaction/`));
  const form = page.getByRole("form", { name: "Test issuer sign-in" });
  await form.getByLabel("Subject").fill(claims.sub);
  await form.getByLabel("Email", { exact: true }).fill(claims.email);
  await form.getByLabel("Name").fill(claims.name);
  if (claims.verified) await form.getByLabel("Email verified").check();
  await form.getByRole("button", { name: "Sign in to the test issuer" }).click();
};

test("a new person signs in through the issuer and is asked to create a team or use an invitation", async ({ page }) => {
  const id = unique();
  await signInThroughIssuer(page, { sub: `new-${id}`, email: `new-${id}@idp.example`, name: "Nova Newcomer", verified: true });
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole("heading", { name: "You are not in a team yet" })).toBeVisible();
  await expect(page.getByText(`new-${id}@idp.example`)).toBeVisible();
  await page.getByRole("link", { name: "Create a team" }).click();
  await expect(page).toHaveURL(/\/teams\/new$/);
});

test("a verified email of an existing member signs in as that member, in their team", async ({ page }) => {
  const id = unique();
  const email = `member-${id}@e2e.local`;
  const team = await teamBySlug(db, "demo");
  await ensureMember(db, team.id, { email, name: "Mara Member", role: "member" });
  await signInThroughIssuer(page, { sub: `member-${id}`, email, name: "Mara at the IdP", verified: true });
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.locator(".team-name, select[aria-label='Team']").first()).toContainText("Demo team");
  await expect(page.getByRole("heading", { name: "You are not in a team yet" })).toHaveCount(0);
  // The team's pages work for them: the workflow list shows the demo team's workflow.
  await page.goto(app("/workflows"));
  await expect(page.getByRole("link", { name: "hello-world" }).first()).toBeVisible();
});

test("an unverified email that belongs to an existing account is refused, and the login page says why", async ({ page }) => {
  const id = unique();
  const email = `taken-${id}@e2e.local`;
  const team = await teamBySlug(db, "demo");
  await ensureMember(db, team.id, { email, name: "Tai Taken", role: "member" });
  await signInThroughIssuer(page, { sub: `imposter-${id}`, email, name: "Not Tai", verified: false });
  await expect(page).toHaveURL(/\/login\?error=oidc/);
  const refusal = page.getByRole("alert").filter({ hasText: "Single sign-on refused" });
  await expect(refusal).toContainText("an account with this email exists, and the sign-in service has not verified the address");
  // Nobody was signed in.
  await page.goto(app("/overview"));
  await expect(page).toHaveURL(/\/login/);
});
