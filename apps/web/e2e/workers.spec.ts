/**
 * Agent CLI versions in the dashboard. The Workers page, reached from the worker count in
 * the header: the e2e worker with its sandbox level and the agent CLIs of its agents folder,
 * each at its installed version and none marked as drifted from scripts/agents.json (the
 * worker runs the pinned installs). A run whose worker staged a drifted CLI (its stored
 * `agent.version_drift` event, written here) says so on its page.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { createDb, type Db } from "@switchyard/db";
import { runHelloWorld } from "./main-pages";
import { signIn } from "./sign-in";

let db: Db;
test.beforeAll(() => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
});
test.afterAll(async () => {
  await db.$disconnect();
});

const PINS = JSON.parse(
  readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../scripts/agents.json"),
    "utf8",
  ),
) as { agents: Record<string, { version: string }> };

test("the Workers page lists the worker and the version of each agent CLI it holds", async ({
  page,
}) => {
  await signIn(page);
  await page.getByTestId("worker-status").click();
  await expect(page.getByRole("heading", { name: "Workers", level: 1 })).toBeVisible();
  const rows = page.getByTestId("workers").locator("tbody tr");
  await expect(rows).not.toHaveCount(0);
  const row = rows.first();
  await expect(row.getByRole("cell").nth(2)).toHaveText(/strict|namespaces|none/);
  for (const [agent, pin] of Object.entries(PINS.agents)) {
    const cli = row.locator(`li[data-agent="${agent}"]`);
    await expect(cli).toHaveAttribute("data-drift", "no");
    await expect(cli).toContainText(
      new RegExp(`${pin.version.replace(/\./g, "\\.")}|not installed`),
    );
  }
});

test("a run whose worker staged a drifted CLI says which version ran", async ({ page }) => {
  await signIn(page);
  const runId = (await runHelloWorld(page)).split("/").at(-1)!;
  await expect(page.getByTestId("version-drift")).toHaveCount(0);
  const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
  const last = await db.runEvent.findFirst({ where: { runId }, orderBy: { seq: "desc" } });
  const pinned = PINS.agents.codex!.version;
  await db.runEvent.create({
    data: {
      teamId: run.teamId,
      runId,
      seq: (last?.seq ?? 0) + 1,
      type: "agent.version_drift",
      payload: { cli: "codex", pinned, installed: "0.170.9" },
    },
  });
  await page.reload();
  await expect(page.getByTestId("version-drift")).toHaveText(
    `codex 0.170.9 ran this run's steps: the worker's install is not the pinned ${pinned} (scripts/agents.json).`,
  );
  await expect(page.getByTestId("run-events")).toContainText("agent.version_drift");
});
