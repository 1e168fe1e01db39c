import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";
import { openSettings } from "./open-settings";

const KEY = "sk-ant-e2e-model-key-Q7xP";

test("an admin sets a vendor's key, which the page shows only as set with its last four characters", async ({
  page,
}) => {
  await signIn(page);
  await openSettings(page, "Models");
  await expect(page.getByRole("heading", { name: "Models" })).toBeVisible();
  const row = page.locator('tr[data-vendor="anthropic"]');
  await expect(row.locator("[data-key]")).toHaveText("not set");

  await row.getByRole("button", { name: "Set up" }).click();
  const form = page.getByRole("form", { name: "Anthropic access" });
  await form.getByLabel("API key").fill(KEY);
  await form.getByLabel("Endpoint").fill("https://user:pw@claude-gw.example.com");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.locator("p.error[role=alert]")).toContainText(
    "endpoint must not carry a user name or password",
  );

  await form.getByLabel("Endpoint").fill("");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(row.locator("[data-key]")).toHaveText("set ••••Q7xP");
  await expect(row).toContainText("default (https://api.anthropic.com)");
  await expect(page.getByRole("form", { name: "Anthropic access" })).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(KEY);
  await page.reload();
  await expect(row.locator("[data-key]")).toHaveText("set ••••Q7xP");
  expect(await page.content()).not.toContain(KEY);

  // an openai_compatible endpoint list, then removing access
  await page
    .locator('tr[data-vendor="openai_compatible"]')
    .getByRole("button", { name: "Set up" })
    .click();
  await page
    .getByLabel("Allowed endpoints, one per line")
    .fill("https://llm.example.com/v1/\nhttp://127.0.0.1:11434/v1");
  await page.getByRole("button", { name: "Save" }).click();
  const compatible = page.locator('tr[data-vendor="openai_compatible"]');
  await expect(compatible).toContainText("https://llm.example.com/v1");
  await expect(compatible).toContainText("http://127.0.0.1:11434/v1");
  await compatible.getByRole("button", { name: "Remove" }).click();
  await expect(compatible).toContainText("not configured");
});
