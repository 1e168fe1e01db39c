/**
 * The Workers page, reached from the worker count in the header: the e2e worker with its
 * sandbox level and the agent CLIs of its agents folder, each at its installed version and
 * none marked as drifted from scripts/agents.json (the worker runs the pinned installs).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

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
