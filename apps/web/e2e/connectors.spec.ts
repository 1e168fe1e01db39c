/**
 * Settings → Connectors in a browser: an admin adds a stdio connector (a credential typed
 * into an argument is refused at that field), sets its team credential (shown by
 * fingerprint, never by value, not even in the page's HTML), calls its tool through the
 * worker from the console and switches it off; a member sees the page read-only and
 * connects their own account where each member uses theirs; the audit log lists it all.
 */
import { createHash } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import {
  connectorCredentialForUse,
  createApiToken,
  createDb,
  ensureMember,
  hashPassword,
  markConnectorCredentialNeedsReconnect,
  teamBySlug,
  userIdByEmail,
  type Db,
} from "@switchyard/db";
import { ECHO_SERVER_FILE } from "./echo-connector";
import { signIn } from "./sign-in";
import { openSettings } from "./open-settings";

const TEAM_KEY = "e2e-echo-team-key-51c9";
const OWN_KEY = "e2e-notes-own-key-7d30";
const MEMBER = { email: "morgan@e2e.local", password: "morgan-e2e-password" };
const fingerprint = (value: string) =>
  createHash("sha256").update(value).digest("hex").slice(0, 12);

let db: Db;
let teamId: string;
let adminToken: string;

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  teamId = (await teamBySlug(db, "demo")).id;
  const adminId = await userIdByEmail(db, process.env.E2E_ADMIN_EMAIL!);
  adminToken = (await createApiToken(db, { teamId, userId: adminId, name: "e2e-connectors" }))
    .token;
  // A worker restarted after a failure runs this again.
  await ensureMember(db, teamId, {
    email: MEMBER.email,
    name: "Morgan Member",
    role: "member",
    passwordHash: await hashPassword(MEMBER.password),
  });
});
test.afterAll(async () => {
  await db.$disconnect();
});

const openConnectors = async (page: Page) => {
  await openSettings(page, "Connectors");
  await expect(page.getByRole("heading", { name: "Connectors", level: 1 })).toBeVisible();
};

test("an admin adds a stdio connector, sets its credential by fingerprint only, calls it from the console and switches it off", async ({
  page,
}) => {
  await signIn(page);
  await openConnectors(page);
  const linear = page.locator('[data-catalog="linear"]');
  await expect(linear).toContainText("Issues, projects, teams and comments in Linear.");
  await expect(linear.getByRole("link", { name: "Docs for Linear" })).toHaveAttribute(
    "href",
    "https://linear.app/docs/mcp",
  );

  // A catalog entry set up with an API key: it moves to the team's connectors, open to every lane.
  await page.getByRole("button", { name: "Set up Stripe" }).click();
  const setUp = page.getByRole("form", { name: "Set up Stripe" });
  await setUp.getByLabel("An API key or token").check();
  await setUp.getByRole("button", { name: "Set up" }).click();
  const stripe = page.locator('[data-connector="stripe"]');
  await expect(stripe).toContainText("catalog");
  await expect(stripe).toContainText("sign-in: bearer");
  await expect(stripe.locator("[data-lanes]")).toHaveText("every lane");
  await expect(page.locator('[data-catalog="stripe"]')).toHaveCount(0);

  await page.getByRole("button", { name: "Add a connector" }).click();
  const form = page.getByRole("form", { name: "Add a connector" });
  await form.getByLabel("Id", { exact: true }).fill("echo");
  await form.getByLabel("Name", { exact: true }).fill("Echo");
  await form.getByLabel("Command").fill("node");
  const args = form.getByLabel("Arguments, one per line");
  await args.fill("--token\nghp_abcdefghijklmnopqrstuvwxyz0123456789");
  await form.getByLabel(/^Credential variable/).fill("ECHO_TOKEN");
  await form.getByRole("button", { name: "Add connector" }).click();
  // Refused at the field the server names, saying where a credential goes instead.
  await expect(args).toHaveAttribute("aria-invalid", "true");
  await expect(args).toHaveAccessibleDescription(/args\[1\] looks like a secret.*ECHO_TOKEN/);
  await expect(form.getByLabel("Command")).not.toHaveAttribute("aria-invalid", "true");

  // A program given inline, not from the connectors folder, is refused at the command.
  await args.fill("-e\nrequire('child_process').execSync('id')");
  await form.getByRole("button", { name: "Add connector" }).click();
  await expect(form.getByLabel("Command")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Command")).toHaveAccessibleDescription(
    /runs only a script from the connectors folder/,
  );

  await args.fill(`/opt/connectors/${ECHO_SERVER_FILE}`);
  await form.getByRole("button", { name: "Add connector" }).click();
  await expect(form).toHaveCount(0);
  const card = page.locator('[data-connector="echo"]');
  await expect(card).toContainText("stdio");
  await expect(card.locator("[data-lanes]")).toHaveText("operator");
  await expect(card.locator("[data-credential-missing]")).toContainText("Not set");

  const credential = card.getByRole("form", { name: "Team credential of Echo" });
  await credential.getByLabel("API key or token").fill(TEAM_KEY);
  await credential.getByRole("button", { name: "Set credential" }).click();
  await expect(card.locator("[data-fingerprint]")).toHaveText(fingerprint(TEAM_KEY));
  await expect(card.locator("[data-credential]")).toContainText("you");
  await expect(credential.getByLabel("API key or token")).toHaveValue("");
  expect(await page.content()).not.toContain(TEAM_KEY);
  await page.reload();
  await expect(card.locator("[data-fingerprint]")).toHaveText(fingerprint(TEAM_KEY));
  expect(await page.content()).not.toContain(TEAM_KEY);

  // The console: a bad argument text is refused at its field, then a real call through the worker.
  const consoleForm = page.getByRole("form", { name: "Connector console" });
  await consoleForm.getByLabel("Connector").selectOption("echo");
  await consoleForm.getByLabel("Tool", { exact: true }).fill("echo");
  const callArgs = consoleForm.getByLabel("Arguments (JSON)");
  await callArgs.fill("[1, 2]");
  await consoleForm.getByRole("button", { name: "Call" }).click();
  await expect(callArgs).toHaveAccessibleDescription(/arguments are a JSON object/);
  await callArgs.fill('{"say": "hello"}');
  await consoleForm.getByRole("button", { name: "Call" }).click();
  await expect(page.getByTestId("console-result")).toContainText('echo {\\"say\\":\\"hello\\"}', {
    timeout: 60_000,
  });

  // Pointed elsewhere (an environment the server reads its upstream from), its credential must be set again, saying why.
  await card.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("form", { name: "Change Echo" });
  await edit.getByLabel(/^Environment/).fill("UPSTREAM_URL=https://elsewhere.example");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toHaveCount(0);
  await expect(card.locator("[data-credential]")).toContainText("needs reconnect");
  await expect(card.locator("[data-reconnect-reason]")).toContainText("changed since it was set");
  await credential.getByLabel("API key or token").fill(TEAM_KEY);
  await credential.getByRole("button", { name: "Replace" }).click();
  await expect(card.locator("[data-credential]")).toContainText("active");

  await card.getByRole("switch", { name: "Enabled" }).uncheck();
  await expect(card.locator("[data-enabled]")).toHaveText("disabled");
  // A disabled connector is refused by the worker, with the code and message shown.
  await consoleForm.getByRole("button", { name: "Call" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "disabled" })).toContainText(
    "USER.MCP_PROXY.UNKNOWN_CONNECTOR",
    { timeout: 60_000 },
  );
  await expect(page.getByTestId("console-result")).toHaveCount(0);

  await openSettings(page, "Audit log");
  const log = page.getByRole("table", { name: "Audit log" });
  for (const action of [
    "connector.create",
    "connector.credential.set",
    "connector.console.call",
    "connector.update",
  ])
    await expect(
      log.locator(`tr[data-action="${action}"][data-target="echo"]`).first(),
    ).toBeVisible();
  await expect(
    log.locator('tr[data-action="connector.credential.set"][data-target="echo"]').first(),
  ).toContainText(fingerprint(TEAM_KEY));
  expect(await page.content()).not.toContain(TEAM_KEY);
});

test("a member sees connectors read-only and connects their own account where each member uses theirs", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/v1/connectors", {
    headers: { authorization: `Bearer ${adminToken}` },
    data: {
      definition: {
        id: "notes",
        name: "Notes",
        transport: "stdio",
        command: "node",
        args: ["/opt/connectors/notes.js"],
        credential_env: "NOTES_TOKEN",
        credential_mode: "member",
        lanes: ["*"],
      },
    },
  });
  expect(created.status()).toBe(201);

  // What the worker marks when a grant is gone shows as a badge.
  const echo = await connectorCredentialForUse(db, { teamId, slug: "echo", owner: "team" });
  await markConnectorCredentialNeedsReconnect(db, echo!.id);

  await page.goto("/login");
  await page.getByLabel("Email").fill(MEMBER.email);
  await page.getByLabel("Password").fill(MEMBER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/overview$/);
  await openConnectors(page);

  await expect(page.locator('[data-connector="echo"] [data-credential]')).toContainText(
    "needs reconnect",
  );
  const card = page.locator('[data-connector="notes"]');
  await expect(card.locator("[data-lanes]")).toHaveText("every lane");
  await expect(page.getByRole("button", { name: "Add a connector" })).toHaveCount(0);
  await expect(page.getByRole("switch")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Set up/ })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Connector console" })).toHaveCount(0);
  await expect(page.getByRole("form", { name: /^Team credential/ })).toHaveCount(0);

  const own = card.getByRole("form", { name: "Your account on Notes" });
  await own.getByLabel("API key or token").fill(OWN_KEY);
  await own.getByRole("button", { name: "Connect my account" }).click();
  await expect(card.locator("[data-fingerprint]")).toHaveText(fingerprint(OWN_KEY));
  await expect(card).toContainText("1 member has connected theirs");
  expect(await page.content()).not.toContain(OWN_KEY);
  await card.getByRole("button", { name: "Revoke mine" }).click();
  await expect(card.locator("[data-credential-missing]")).toHaveText(
    "You have not connected your account.",
  );

  await openSettings(page, "Lanes");
  await expect(page.locator('tr[data-lane="operator"]')).toBeVisible();
  await expect(page.getByRole("button", { name: "Add a lane" })).toHaveCount(0);
  await openSettings(page, "Audit log");
  await expect(page.getByRole("status")).toHaveText("Only admins see the audit log.");
});
