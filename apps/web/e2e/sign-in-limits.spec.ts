/**
 * Sign-in refusals as a person sees them: a wrong password, then too many attempts.
 */
import { expect, test } from "@playwright/test";

test("after too many failed sign-ins the form says how long to wait", async ({ page }) => {
  test.setTimeout(180_000);
  const email = `locked-${Date.now()}@e2e.local`;
  const attempt = async (password: string) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
  };
  await attempt("wrong-0");
  await expect(page.locator("form [role=alert]")).toHaveText("Wrong email or password.");

  // Nine more failures straight to the sign-in endpoint make ten for this account.
  await page.goto("/login");
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as {
    csrfToken: string;
  };
  const tries = await Promise.all(
    Array.from({ length: 9 }, (_, i) =>
      page.request.post("/api/auth/callback/credentials", {
        form: { email, password: `wrong-${i + 1}`, csrfToken },
        maxRedirects: 0,
      }),
    ),
  );
  for (const t of tries) expect(t.headers().location).toContain("code=credentials");

  await attempt("wrong-again");
  await expect(page.locator("form [role=alert]")).toHaveText(
    "Too many sign-in attempts. Try again in 15 minutes.",
  );
  const direct = await page.request.post("/api/auth/callback/credentials", {
    form: { email, password: "x", csrfToken },
    maxRedirects: 0,
  });
  expect(direct.headers().location).toContain("code=rate_limited");
});
