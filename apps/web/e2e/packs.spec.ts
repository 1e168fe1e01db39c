/**
 * Workflow packs in the browser and through the real REST route: a pack archive uploaded on
 * the Packs page is listed with its workflow, and that workflow is started by its
 * `<pack>/<workflow>` name over `/api/v1` (the `/` sent as `%2F`, as a script would), through
 * Next.js's own routing, not only the REST table.
 */
import { expect, test } from "@playwright/test";
import { createApiToken, createDb, teamBySlug, userIdByEmail, type Db } from "@switchyard/db";
import { MANIFEST, goodPack } from "@switchyard/testing/packs";
import { signIn } from "./sign-in";

let db: Db;
let token: string;

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  const team = await teamBySlug(db, "demo");
  token = (
    await createApiToken(db, {
      teamId: team.id,
      userId: await userIdByEmail(db, process.env.E2E_ADMIN_EMAIL!),
      name: "e2e-packs",
    })
  ).token;
});

test.afterAll(async () => {
  await db.$disconnect();
});

test("a pack uploaded on the Packs page runs by its pack/workflow name over REST", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/packs");
  await expect(page.getByRole("heading", { name: "Workflow packs" })).toBeVisible();
  await page.getByLabel("Pack archive (.tar.gz)").setInputFiles({
    name: "e2epack_1.0.0.tar.gz",
    mimeType: "application/gzip",
    buffer: goodPack(MANIFEST.replace("name: speckit", "name: e2epack")),
  });
  await expect(page.getByRole("status")).toContainText("Installed e2epack 1.0.0 (install 1)");
  await expect(page.getByRole("status")).toContainText("e2epack/specify v1");

  const started = await page.request.post("/api/v1/workflows/e2epack%2Fspecify/runs", {
    headers: { authorization: `Bearer ${token}` },
    data: { inputs: {} },
  });
  expect(started.status()).toBe(202);
  const { id } = (await started.json()) as { id: string };
  await page.goto(`/runs/${id}`);
  await expect(page.getByText("hello from the pack prompt")).toBeVisible({ timeout: 60_000 });
});
