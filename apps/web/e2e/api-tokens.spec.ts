import { expect, test } from "@playwright/test";
import { createApiToken, createDb, ensureMember, teamBySlug } from "@switchyard/db";
import { signIn } from "./sign-in";
import { openSettings } from "./open-settings";

test("a token made in the dashboard drives the REST API until it is revoked", async ({
  page,
  request,
}) => {
  await signIn(page);
  await openSettings(page, "API tokens");
  await page.getByLabel("Token name").fill("e2e-ci");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").innerText()).trim();
  expect(token).toMatch(/^sy_[0-9a-f]{8}_/);

  const headers = { authorization: `Bearer ${token}` };
  const list = await request.get("/api/v1/workflows", { headers });
  expect(list.status()).toBe(200);
  const { workflows } = (await list.json()) as { workflows: { id: string; name: string }[] };
  const hello = workflows.find((w) => w.name === "hello-world")!;
  const started = await request.post(`/api/v1/workflows/${hello.id}/runs`, { headers, data: {} });
  expect(started.status()).toBe(202);
  const { id } = (await started.json()) as { id: string };
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/v1/runs/${id}`, { headers })).json()) as {
            status: string;
          }
        ).status,
      { timeout: 20_000 },
    )
    .toBe("succeeded");

  await page.reload();
  await expect(page.locator('tr[data-token="e2e-ci"] td[data-last-used]')).not.toHaveText("never");
  await page.locator('tr[data-token="e2e-ci"]').getByRole("button", { name: "Revoke" }).click();
  await expect(page.locator('tr[data-token="e2e-ci"]')).toHaveCount(0);
  // Listed among the revoked ones, with why.
  await expect(page.locator('tr[data-revoked-token="e2e-ci"] [data-why]')).toHaveText(
    "Revoked by Demo admin",
  );
  expect((await request.get("/api/v1/workflows", { headers })).status()).toBe(401);
});

test("an admin sees who made each token and revokes a member's", async ({ page, request }) => {
  const db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  try {
    const team = await teamBySlug(db, "demo");
    const memberId = await ensureMember(db, team.id, {
      email: "casey@e2e.local",
      name: "Casey Member",
      role: "member",
    });
    const { token } = await createApiToken(db, {
      teamId: team.id,
      userId: memberId,
      name: "casey-laptop",
    });
    const headers = { authorization: `Bearer ${token}` };
    expect((await request.get("/api/v1/workflows", { headers })).status()).toBe(200);

    await signIn(page);
    await openSettings(page, "API tokens");
    const row = page.locator('tr[data-token="casey-laptop"]');
    await expect(row.locator("[data-made-by]")).toContainText("Casey Member");
    await expect(row.locator("[data-made-by]")).toContainText("casey@e2e.local");
    await row.getByRole("button", { name: "Revoke" }).click();
    await expect(row).toHaveCount(0);
    expect((await request.get("/api/v1/workflows", { headers })).status()).toBe(401);
  } finally {
    await db.$disconnect();
  }
});
