/**
 * Operation states on the run page, run by the real worker: an `http.request` state shows the
 * request it made and its outputs, a later state reads them through `states.X.Response`, and
 * `notify.send` with the `desktop` backend shows its notification (a `notify.desktop` run
 * event) with its title, message and priority. The API the request reaches is a small server
 * on loopback, which the worker's egress allow-list names in the browser tests.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { createDb, saveWorkflowVersion, teamBySlug, type Db } from "@switchyard/db";
import { signIn } from "./sign-in";

let db: Db;
let api: Server;
let base: string;

test.beforeAll(async () => {
  db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  api = createServer((req, res) => {
    res.writeHead(req.url === "/build/7" ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(req.url === "/build/7" ? { build: 7, result: "green" } : {}));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => api.close(resolve));
  await db.$disconnect();
});

test("an operation state shows its request and outputs, and notify.send's desktop notification", async ({
  page,
}) => {
  const team = await teamBySlug(db, "demo");
  const name = `operations-${Math.random().toString(36).slice(2, 8)}`;
  await saveWorkflowVersion(db, {
    teamId: team.id,
    name,
    files: {
      "workflow.yaml": `name: ${name}
states:
  initial: fetch
  fetch:
    type: operation
    operation: http.request
    inputs: { method: GET, url: "${base}/build/7" }
    on_success: tell
  tell:
    type: operation
    operation: notify.send
    inputs:
      backend: desktop
      title: "Build checked"
      message: "build answered {{.states.fetch.Response.status_code}}"
      priority: high
    on_success: done
  done:
    type: terminal
    status: success
`,
    },
  });
  await signIn(page);
  await page.goto("/workflows");
  await page.locator(`tr[data-workflow="${name}"]`).getByRole("button", { name: "Run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/);
  await expect(page.locator("h1 .badge")).toHaveText("succeeded");

  const fetch = page.locator('[data-step="fetch"]');
  await expect(fetch.getByTestId("operation-name")).toHaveText("http.request");
  await expect(fetch.getByTestId("operation-requests")).toContainText(`GET ${base}/build/7 → 200`);
  // The outputs fold open: AWF's status_code, body and headers.
  await fetch.getByText("Outputs").click();
  const outputs = fetch.getByTestId("operation-outputs");
  await expect(outputs).toContainText('"status_code": 200');
  await expect(outputs).toContainText('\\"result\\":\\"green\\"');
  await expect(outputs).toContainText('"Content-Type": "application/json"');

  const tell = page.locator('[data-step="tell"]');
  await expect(tell.getByTestId("operation-name")).toHaveText("notify.send");
  await tell.getByText("Outputs").click();
  await expect(tell.getByTestId("operation-outputs")).toContainText('"status": "delivered"');
  // No desktop on a server: the notification is shown on the run's page.
  const shown = page.getByTestId("desktop-notification");
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute("data-priority", "high");
  await expect(shown).toContainText("Build checked");
  await expect(shown).toContainText("build answered 200");
  await expect(shown).toContainText("notify.send from tell");
});
