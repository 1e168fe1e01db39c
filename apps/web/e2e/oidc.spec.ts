import { expect, test, type Page } from "@playwright/test";
import {
  createApiToken,
  createDb,
  createInvitation,
  ensureMember,
  teamBySlug,
  userIdByEmail,
  type Db,
} from "@switchyard/db";

/**
 * Single sign-on through a real OpenID Connect issuer (the test issuer global-setup starts,
 * oidc-provider on 127.0.0.1): the login page offers it, the browser goes there, signs in on
 * its form and comes back, through the web app's own sign-in routes. Someone new is refused
 * while the installation takes new people by invitation only (the login page says why),
 * and gets in through an invitation link (joining its team) or once sign-up is open; a
 * verified email of an existing member links to that member; an unverified one is refused;
 * and a verified email takes over an account someone else made with it through an unbound
 * invitation, whose password, session and API token stop working.
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

type Claims = { sub: string; email: string; name: string; verified: boolean };

/** On the issuer's form: who the browser claims to be, sent. */
const claimAtIssuer = async (page: Page, claims: Claims) => {
  await expect(page).toHaveURL(new RegExp(`^${process.env.E2E_OIDC_ISSUER!}/interaction/`));
  const form = page.getByRole("form", { name: "Test issuer sign-in" });
  await form.getByLabel("Subject").fill(claims.sub);
  await form.getByLabel("Email", { exact: true }).fill(claims.email);
  await form.getByLabel("Name").fill(claims.name);
  if (claims.verified) await form.getByLabel("Email verified").check();
  await form.getByRole("button", { name: "Sign in to the test issuer" }).click();
};

/** From the login page through the issuer's form and back; claims are what the issuer will say. */
const signInThroughIssuer = async (page: Page, claims: Claims) => {
  await page.goto(app("/login"));
  await page.getByRole("button", { name: "Continue with Test IdP" }).click();
  await claimAtIssuer(page, claims);
};

/** The installation's settings for one test (read fresh on every request), put back after. */
const withSettings = async (
  patch: { openSignUp?: boolean; teamCreation?: "instance_admins" | "anyone" },
  body: () => Promise<void>,
) => {
  await db.instanceSettings.update({ where: { id: "instance" }, data: patch });
  try {
    await body();
  } finally {
    await db.instanceSettings.update({
      where: { id: "instance" },
      data: { openSignUp: false, teamCreation: "instance_admins" },
    });
  }
};

const unboundInvitation = async () => {
  const team = await teamBySlug(db, "demo");
  return createInvitation(db, {
    teamId: team.id,
    createdById: await userIdByEmail(db, process.env.E2E_ADMIN_EMAIL!),
    role: "member",
    expiresAt: new Date(Date.now() + 3_600_000),
  });
};

test("someone new is refused while the installation takes new people by invitation only, and the login page says why", async ({
  page,
}) => {
  const id = unique();
  await signInThroughIssuer(page, {
    sub: `stranger-${id}`,
    email: `stranger-${id}@idp.example`,
    name: "Sam Stranger",
    verified: true,
  });
  await expect(page).toHaveURL(/\/login\?error=oidc/);
  await expect(page.getByRole("alert").filter({ hasText: "Single sign-on refused" })).toContainText(
    "this installation takes new people by invitation only",
  );
  expect(await db.user.count({ where: { email: `stranger-${id}@idp.example` } })).toBe(0);
  await page.goto(app("/overview"));
  await expect(page).toHaveURL(/\/login/);
});

test("someone new signs in through the issuer from an invitation link and lands in its team", async ({
  page,
}) => {
  const id = unique();
  const invitation = await unboundInvitation();
  await page.goto(app(`/invite/${invitation.token}`));
  await expect(page.getByTestId("invite-team")).toHaveText("Demo team");
  await page.getByRole("button", { name: "Continue with Test IdP" }).click();
  await claimAtIssuer(page, {
    sub: `invited-${id}`,
    email: `invited-${id}@idp.example`,
    name: "Ivy Invited",
    verified: true,
  });
  await expect(page).toHaveURL(/\/overview$/);
  // The invitation served this sign-in only: the browser no longer holds it.
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain(
    "switchyard-invitation",
  );
  await expect(page.getByText(`invited-${id}@idp.example`)).toBeVisible();
  await expect(page.getByRole("heading", { name: "You are not in a team yet" })).toHaveCount(0);
  await page.goto(app("/workflows"));
  await expect(page.getByRole("link", { name: "hello-world" }).first()).toBeVisible();
});

test("with open sign-up someone new gets an account of their own and no team, and is told whom to ask for one", async ({
  page,
}) => {
  await withSettings({ openSignUp: true }, async () => {
    const id = unique();
    await signInThroughIssuer(page, {
      sub: `new-${id}`,
      email: `new-${id}@idp.example`,
      name: "Nova Newcomer",
      verified: true,
    });
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByRole("heading", { name: "You are not in a team yet" })).toBeVisible();
    await expect(page.getByText(`new-${id}@idp.example`)).toBeVisible();
    // Teams are made by instance admins here: no way to make one is offered, and the page says whom to ask.
    await expect(page.getByRole("link", { name: "Create a team" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "New team" })).toHaveCount(0);
    await expect(page.getByText("only instance admins create teams")).toBeVisible();
    await page.goto(app("/teams/new"));
    await expect(
      page.getByRole("alert").filter({ hasText: "You may not create a team" }),
    ).toContainText("only instance admins create teams");
  });
});

test("with open sign-up and team creation open to anyone, someone new creates a team", async ({
  page,
}) => {
  await withSettings({ openSignUp: true, teamCreation: "anyone" }, async () => {
    const id = unique();
    await signInThroughIssuer(page, {
      sub: `founder-${id}`,
      email: `founder-${id}@idp.example`,
      name: "Fay Founder",
      verified: true,
    });
    await expect(page.getByRole("heading", { name: "You are not in a team yet" })).toBeVisible();
    await page.getByRole("link", { name: "Create a team" }).click();
    await expect(page).toHaveURL(/\/teams\/new$/);
    await page.getByLabel("Team name").fill(`Founded ${id}`);
    await page.getByRole("button", { name: "Create team" }).click();
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.locator(".team-name, select[aria-label='Team']").first()).toContainText(
      `Founded ${id}`,
    );
  });
});

test("a verified email takes over the account someone else made with it through an unbound invitation", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const id = unique();
  const email = `owner-${id}@corp.example`;
  // The squatter, in a browser of their own, signs up through a link that names no email, with the owner's address.
  const invitation = await unboundInvitation();
  const squatterContext = await browser.newContext();
  try {
    const squatter = await squatterContext.newPage();
    await squatter.goto(`/invite/${invitation.token}`);
    await squatter.getByLabel("Name").fill("Not The Owner");
    await squatter.getByLabel("Email").fill(email);
    await squatter.getByLabel(/^Password/).fill("squatter-password-1");
    await squatter.getByRole("button", { name: "Create account and join" }).click();
    await expect(squatter).toHaveURL(/\/overview$/);
    const userId = await userIdByEmail(db, email);
    const { token } = await createApiToken(db, {
      teamId: (await teamBySlug(db, "demo")).id,
      userId,
      name: "squatter-ci",
    });
    expect(
      (
        await request.get("/api/v1/workflows", { headers: { authorization: `Bearer ${token}` } })
      ).status(),
    ).toBe(200);

    // The address's owner signs in through the issuer, which verified it.
    await signInThroughIssuer(page, {
      sub: `owner-${id}`,
      email,
      name: "The Owner",
      verified: true,
    });
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByText(email)).toBeVisible();

    // Whoever made the account keeps nothing of it.
    await squatter.goto("/workflows");
    await expect(squatter).toHaveURL(/\/login/);
    await squatter.getByLabel("Email").fill(email);
    await squatter.getByLabel("Password").fill("squatter-password-1");
    await squatter.getByRole("button", { name: "Sign in" }).click();
    await expect(squatter.getByRole("alert").filter({ hasText: "Wrong" })).toHaveText(
      "Wrong email or password.",
    );
    expect(
      (
        await request.get("/api/v1/workflows", { headers: { authorization: `Bearer ${token}` } })
      ).status(),
    ).toBe(401);
    expect(
      await db.auditLog.count({
        where: { teamId: null, action: "account.claim", targetId: userId },
      }),
    ).toBe(1);
  } finally {
    await squatterContext.close();
  }
});

test("a verified email of an existing member signs in as that member, in their team", async ({
  page,
}) => {
  const id = unique();
  const email = `member-${id}@e2e.local`;
  const team = await teamBySlug(db, "demo");
  await ensureMember(db, team.id, { email, name: "Mara Member", role: "member" });
  await signInThroughIssuer(page, {
    sub: `member-${id}`,
    email,
    name: "Mara at the IdP",
    verified: true,
  });
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.locator(".team-name, select[aria-label='Team']").first()).toContainText(
    "Demo team",
  );
  await expect(page.getByRole("heading", { name: "You are not in a team yet" })).toHaveCount(0);
  // The team's pages work for them: the workflow list shows the demo team's workflow.
  await page.goto(app("/workflows"));
  await expect(page.getByRole("link", { name: "hello-world" }).first()).toBeVisible();
});

test("an unverified email that belongs to an existing account is refused, and the login page says why", async ({
  page,
}) => {
  const id = unique();
  const email = `taken-${id}@e2e.local`;
  const team = await teamBySlug(db, "demo");
  await ensureMember(db, team.id, { email, name: "Tai Taken", role: "member" });
  await signInThroughIssuer(page, {
    sub: `imposter-${id}`,
    email,
    name: "Not Tai",
    verified: false,
  });
  await expect(page).toHaveURL(/\/login\?error=oidc/);
  const refusal = page.getByRole("alert").filter({ hasText: "Single sign-on refused" });
  await expect(refusal).toContainText(
    "an account with this email exists, and the sign-in service has not verified the address",
  );
  // Nobody was signed in.
  await page.goto(app("/overview"));
  await expect(page).toHaveURL(/\/login/);
});
