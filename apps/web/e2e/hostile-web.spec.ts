/**
 * Hostile input against the built dashboard: the session cookie's flags, a cookie-authenticated
 * mutation forged from another site (refused, nothing changed), and markup/script payloads in a
 * workflow's YAML, a run's inputs and a step's output rendered as text on every page that shows
 * them (workflow editor and graph, runs list, run page with output, graph and events): no script
 * runs, no dialog opens, the payload is visible as text.
 */
import { expect, test, type Page } from "@playwright/test";
import {
  createApiToken,
  createDb,
  saveWorkflowVersion,
  teamBySlug,
  userIdByEmail,
  type Db,
} from "@switchyard/db";
import { signIn } from "./sign-in";

const IMG = "<img src=x onerror=window.__xss=1>";
const SCRIPT = "<script>window.__xss=1</script>";
const SVG = '"><svg onload=window.__xss=1>';
const JS_URL = "javascript:window.__xss=1";

const HOSTILE = `name: xss-probe
description: '${IMG} ${SVG.replace(/'/g, "''")} ${JS_URL}'
inputs:
  - name: payload
    type: string
    description: '${SCRIPT}'
    default: '${IMG}'
states:
  initial: shout
  shout:
    type: step
    description: '${SVG}'
    command: |
      printf '%s\\n' '${IMG}' '${SCRIPT}' '${SVG}' '${JS_URL}'
      printf '%s\\n' "{{.inputs.payload}}"
    on_success: done
  done:
    type: terminal
    message: '${SCRIPT} ${JS_URL}'
`;

let db: Db;
let token: string;
let workflowId: string;

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  const team = await teamBySlug(db, "demo");
  workflowId = (
    await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "xss-probe",
      files: { "workflow.yaml": HOSTILE },
    })
  ).workflowId;
  token = (
    await createApiToken(db, {
      teamId: team.id,
      userId: await userIdByEmail(db, process.env.E2E_ADMIN_EMAIL!),
      name: "e2e-hostile",
    })
  ).token;
});
test.afterAll(async () => {
  await db?.$disconnect();
});

/** Fails the test on any dialog, and lets `clean` check that no payload ran. */
const watch = (page: Page) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return async () => {
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
    // No element the payloads would have made exists outside text.
    expect(await page.locator('img[src="x"], svg[onload], a[href^="javascript:"]').count()).toBe(0);
  };
};

test("the session cookie is HttpOnly, SameSite=Lax or Strict, on Path=/", async ({ page }) => {
  await signIn(page);
  const cookie = (await page.context().cookies()).find((c) => /session-token$/.test(c.name));
  expect(cookie).toBeDefined();
  expect(cookie!.httpOnly).toBe(true);
  expect(["Lax", "Strict"]).toContain(cookie!.sameSite);
  expect(cookie!.path).toBe("/");
  // Over plain http the cookie cannot be Secure; next-auth sets Secure (and the __Secure- prefix) over https.
});

test("a cookie-authenticated mutation forged from another site is refused and changes nothing; the dashboard's own works", async ({
  page,
}) => {
  await signIn(page);
  const names = async () => {
    const res = await page.request.get("/api/trpc/tokens.list");
    expect(res.status()).toBe(200);
    return JSON.stringify(await res.json());
  };
  const forged: Record<string, string>[] = [
    { origin: "https://evil.example", "content-type": "application/json" },
    { "sec-fetch-site": "cross-site", "content-type": "application/json" },
    { origin: "https://evil.example", "content-type": "text/plain" },
  ];
  for (const headers of forged) {
    const res = await page.request.post("/api/trpc/tokens.create", {
      headers,
      data: JSON.stringify({ json: { name: "forged-token" } }),
    });
    expect(res.status(), JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
    expect(res.status(), JSON.stringify(headers)).toBeLessThan(500);
  }
  expect(await names()).not.toContain("forged-token");

  // The REST API does not take the session cookie at all, from any origin.
  const rest = await page.request.post("/api/v1/tokens", {
    headers: { origin: "https://evil.example" },
    data: { name: "forged-rest" },
  });
  expect(rest.status()).toBe(401);
  // A Bearer token works without an Origin (scripts), as before.
  const bearer = await page.request.post("/api/v1/tokens", {
    headers: { authorization: `Bearer ${token}` },
    data: { name: "bearer-ok" },
  });
  expect(bearer.status()).toBe(201);

  // The dashboard's own mutation (same origin, from the page) still works.
  const base = new URL(page.url()).origin;
  const own = await page.evaluate(async (origin) => {
    const res = await fetch(`${origin}/api/trpc/tokens.create`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ json: { name: "own-token" } }),
    });
    return res.status;
  }, base);
  expect(own).toBe(200);
  expect(await names()).toContain("own-token");
});

test("markup in workflow YAML, run inputs and step output is shown as text on every page, and never runs", async ({
  page,
}) => {
  const clean = watch(page);
  await signIn(page);

  await page.goto(`/workflows/${workflowId}`);
  await expect(page.locator(".cm-content").first()).toContainText(IMG);
  await expect(page.getByTestId("state-graph").locator('[data-state="shout"]')).toHaveCount(1);
  await expect(page.getByText(IMG, { exact: false }).first()).toBeVisible();
  await clean();

  const started = await page.request.post(`/api/v1/workflows/${workflowId}/runs`, {
    headers: { authorization: `Bearer ${token}` },
    data: { inputs: { payload: `${SVG} ${SCRIPT}` } },
  });
  expect(started.status()).toBe(202);
  const { id } = (await started.json()) as { id: string };

  await page.goto(`/runs/${id}`);
  await expect(page.locator("h1 .badge")).toHaveText("succeeded", { timeout: 60_000 });
  const output = page.locator('[data-step="shout"]').getByTestId("step-output");
  for (const text of [IMG, SCRIPT, SVG, JS_URL]) await expect(output).toContainText(text);
  await expect(page.getByTestId("json-inputs")).toContainText("svg onload");
  await expect(page.getByTestId("run-events")).toContainText("run.finished");
  await expect(page.getByTestId("step-timeline")).toContainText("shout");
  await clean();

  await page.goto("/runs");
  await expect(page.locator(`tr[data-run="${id}"]`)).toBeVisible();
  await clean();

  await page.goto("/workflows");
  await expect(page.getByRole("link", { name: "xss-probe" })).toBeVisible();
  await clean();
});
