/**
 * Workflow packs in the browser and through the real REST route: a pack archive uploaded on
 * the Packs page is listed with its workflow, and that workflow is started by its
 * `<pack>/<workflow>` name over `/api/v1` (the `/` sent as `%2F`, as a script would), through
 * Next.js's own routing, not only the REST table. Uploading a new version updates the pack
 * (a new workflow version, which the next run uses); removing it is refused while one of its
 * runs has not ended, and then takes its workflows away.
 */
import { expect, test, type Page } from "@playwright/test";
import { createApiToken, createDb, teamBySlug, userIdByEmail, type Db } from "@switchyard/db";
import { MANIFEST, SPECIFY, goodPack, nextPackVersion, tarGz } from "@switchyard/testing/packs";
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

/** Starts the pack workflow `name` over REST, as a script would; the run's id. */
const startByName = async (page: Page, name: string) => {
  const started = await page.request.post(`/api/v1/workflows/${encodeURIComponent(name)}/runs`, {
    headers: { authorization: `Bearer ${token}` },
    data: { inputs: {} },
  });
  expect(started.status()).toBe(202);
  return ((await started.json()) as { id: string }).id;
};

const upload = (page: Page, name: string, buffer: Buffer) =>
  page.getByLabel("Pack archive (.tar.gz)").setInputFiles({
    name,
    mimeType: "application/gzip",
    buffer,
  });

test("a pack updated on the Packs page runs its new version; removing it waits for its runs", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/packs");
  const manifest = MANIFEST.replace("name: speckit", "name: e2eupd");
  await upload(page, "e2eupd_1.0.0.tar.gz", goodPack(manifest));
  await expect(page.getByRole("status")).toContainText("Installed e2eupd 1.0.0 (install 1)");

  // The new version: another script and prompt; its workflow becomes version 2.
  await upload(page, "e2eupd_1.1.0.tar.gz", nextPackVersion(manifest));
  await expect(page.getByRole("status")).toContainText("Installed e2eupd 1.1.0 (install 2)");
  await expect(page.getByRole("status")).toContainText("e2eupd/specify v2");
  const row = page.getByRole("row").filter({ hasText: "e2eupd/specify" });
  await expect(row).toContainText("1.1.0");
  await expect(row).toContainText("(install 2)");
  const id = await startByName(page, "e2eupd/specify");
  await page.goto(`/runs/${id}`);
  await expect(page.getByText("v2 says the new prompt")).toBeVisible({ timeout: 60_000 });

  // A pack with a run still going is not removed; once the run ends, it is, workflows and all.
  await page.goto("/packs");
  await upload(
    page,
    "e2esleep_1.0.0.tar.gz",
    tarGz([
      { path: "manifest.yaml", content: MANIFEST.replace("name: speckit", "name: e2esleep") },
      {
        path: "workflows/specify.yaml",
        content: SPECIFY.replace("script_file: scripts/hello.sh", "command: sleep 60"),
      },
    ]),
  );
  await expect(page.getByRole("status")).toContainText("Installed e2esleep 1.0.0 (install 1)");
  const sleeping = await startByName(page, "e2esleep/specify");
  const sleepRow = page.getByRole("row").filter({ hasText: "e2esleep/specify" });
  page.once("dialog", (d) => void d.accept());
  await sleepRow.getByRole("button", { name: "Remove" }).click();
  await expect(
    page.getByRole("region", { name: "Install a pack" }).getByRole("alert"),
  ).toContainText('"e2esleep/specify" has a run that has not ended');
  await expect(sleepRow).toBeVisible();

  const cancelled = await page.request.post(`/api/v1/runs/${sleeping}/cancel`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(cancelled.ok()).toBe(true);
  await expect(async () => {
    const run = await page.request.get(`/api/v1/runs/${sleeping}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await run.json()) as { status: string }).status).toBe("cancelled");
  }).toPass({ timeout: 60_000 });

  page.once("dialog", (d) => void d.accept());
  await sleepRow.getByRole("button", { name: "Remove" }).click();
  await expect(sleepRow).toHaveCount(0);
  await expect(page.getByRole("link", { name: "e2esleep/specify" })).toHaveCount(0);
  const gone = await page.request.post(
    `/api/v1/workflows/${encodeURIComponent("e2esleep/specify")}/runs`,
    {
      headers: { authorization: `Bearer ${token}` },
      data: { inputs: {} },
    },
  );
  expect(gone.status()).toBe(404);
});
