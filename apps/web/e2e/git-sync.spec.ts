/**
 * Workflows from git in the browser: a repository served by a real git server (git
 * http-backend on 127.0.0.2, which the browser stack's egress list names) is linked on
 * Settings → Git, whose webhook secret shows once; Sync now lists each file, a bad one with
 * its line and column; the synced workflow's page says where to change it and its editor
 * offers no save. A push webhook through the real route is refused with a wrong signature and
 * syncs with the right one.
 */
import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { startGitServer, type GitServer } from "@switchyard/testing/git";
import { signIn } from "./sign-in";

let git: GitServer;

const flow = (name: string) =>
  `name: ${name}\nstates:\n  initial: run\n  run:\n    type: step\n    command: echo hi\n    on_success: done\n  done:\n    type: terminal\n`;

test.beforeAll(async () => {
  git = await startGitServer("127.0.0.2", "e2e-git-token-0123456789");
  git.create("e2e-flows", {
    "flows/e2e-git-flow.yaml": flow("e2e-git-flow"),
    "flows/e2e-git-bad.yaml": "name: e2e-git-bad\nstates:\n  initial: nowhere\n",
  });
});

test.afterAll(async () => {
  await git.close();
});

test("a repository linked on Settings → Git syncs its workflows, which are read-only in the editor", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/settings/git");
  await expect(page.getByRole("heading", { name: "Git", exact: true })).toBeVisible();
  await page.getByLabel("Repository URL").fill(git.url("e2e-flows"));
  await page.getByLabel("Folder").fill("flows");
  await page.getByLabel(/Access token/).fill("e2e-git-token-0123456789");
  await page.getByRole("button", { name: "Link repository" }).click();
  await expect(page.getByTestId("git-webhook-secret")).toContainText("gitwh_");
  await expect(page.getByRole("status")).toContainText("/api/hooks/git/");
  const secret = (await page.getByTestId("git-webhook-secret").textContent())!.trim();
  const hook = /\/api\/hooks\/git\/git_[0-9a-f]+/.exec(
    (await page.getByRole("status").textContent())!,
  )![0];

  const card = page.locator(`[data-git-source="${git.url("e2e-flows")}"]`);
  await expect(card.getByText("Never synced.")).toBeVisible();
  await card.getByRole("button", { name: "Sync now" }).click();
  await expect(card.getByTestId("git-last-status")).toHaveText("invalid");
  await expect(card.locator('[data-git-file="flows/e2e-git-flow.yaml"]')).toHaveAttribute(
    "data-status",
    "saved",
  );
  const bad = card.locator('[data-git-file="flows/e2e-git-bad.yaml"]');
  await expect(bad).toHaveAttribute("data-status", "invalid");
  await expect(bad).toContainText(/line \d+, column \d+/);
  await expect(page.getByText("e2e-git-token-0123456789")).toHaveCount(0);

  // A push webhook through the real route: a wrong signature is refused, the right one syncs.
  const body = JSON.stringify({ ref: "refs/heads/main" });
  const push = (signature: string) =>
    page.request.post(hook, {
      headers: {
        "content-type": "application/json",
        "x-github-event": "push",
        "x-hub-signature-256": `sha256=${signature}`,
      },
      data: body,
    });
  expect((await push("0".repeat(64))).status()).toBe(401);
  const accepted = await push(createHmac("sha256", secret).update(body).digest("hex"));
  expect(accepted.status()).toBe(202);
  expect(await accepted.json()).toEqual({ syncing: true });

  await card.getByRole("link", { name: "e2e-git-flow" }).click();
  await expect(page.getByTestId("from-git")).toContainText("flows/e2e-git-flow.yaml");
  await expect(page.getByTestId("git-read-only")).toContainText("read-only here");
  await expect(page.getByTestId("git-read-only")).toContainText(git.url("e2e-flows"));
  await expect(page.getByRole("button", { name: /^Save/ })).toHaveCount(0);
});
