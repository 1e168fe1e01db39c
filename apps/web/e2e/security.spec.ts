/**
 * Security headers on pages and API routes, a page that runs under its nonce CSP without
 * a violation, and request bodies over their limit refused with 413 and a code.
 */
import { expect, test, type APIResponse } from "@playwright/test";
import { signIn } from "./sign-in";
import { openSettings } from "./open-settings";

const commonHeaders = (res: APIResponse) => {
  const h = res.headers();
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBe("same-origin");
  expect(h["x-frame-options"]).toBe("DENY");
  return h;
};

test("a page carries a nonce CSP without inline scripts, and HSTS only over https", async ({
  request,
}) => {
  const res = await request.get("/login");
  expect(res.status()).toBe(200);
  const h = commonHeaders(res);
  const csp = h["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).not.toContain("unsafe-eval");
  expect(h["strict-transport-security"]).toBeUndefined();

  // Every inline script of the page carries this response's nonce.
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
  const html = await res.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  // A fresh nonce each time.
  expect((await request.get("/login")).headers()["content-security-policy"]).not.toBe(csp);

  const overHttps = await request.get("/login", { headers: { "x-forwarded-proto": "https" } });
  expect(overHttps.headers()["strict-transport-security"]).toBe(
    "max-age=63072000; includeSubDomains",
  );
});

test("tRPC and REST routes carry the security headers and a CSP that loads nothing", async ({
  request,
}) => {
  const trpc = await request.get("/api/trpc/system.workers");
  expect(trpc.status()).toBe(401);
  const rest = await request.get("/api/v1/openapi.json");
  expect(rest.status()).toBe(200);
  for (const res of [trpc, rest]) {
    const h = commonHeaders(res);
    expect(h["content-security-policy"]).toBe(
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
  }
});

test("the dashboard runs under its CSP without a single violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
  });
  await signIn(page);
  await page.goto("/workflows");
  await expect(page.getByRole("link", { name: "hello-world" })).toBeVisible();
  await page.getByRole("link", { name: "Runs" }).click();
  await expect(page.getByRole("heading", { name: "Runs" })).toBeVisible();
  await openSettings(page, "Account");
  await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();
  expect(violations).toEqual([]);
});

test("bodies over their limit get 413 with PAYLOAD_TOO_LARGE on tRPC and REST", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/workflows");
  const big = "x".repeat(1024 * 1024 + 10);
  const trpc = await page.request.post("/api/trpc/tokens.create", {
    data: { json: { name: big } },
  });
  expect(trpc.status()).toBe(413);
  const trpcError = (
    (await trpc.json()) as { error: { json: { message: string; data: { appCode: string } } } }
  ).error.json;
  expect(trpcError).toMatchObject({
    message: "the request body is larger than 1 MiB",
    data: { appCode: "PAYLOAD_TOO_LARGE" },
  });

  const created = await page.request.post("/api/trpc/tokens.create", {
    data: { json: { name: "e2e-limits" } },
  });
  const { token } = ((await created.json()) as { result: { data: { json: { token: string } } } })
    .result.data.json;
  const headers = { authorization: `Bearer ${token}` };
  const rest = await page.request.post("/api/v1/workflows/none/runs", {
    headers,
    data: { inputs: { big } },
  });
  expect(rest.status()).toBe(413);
  expect(await rest.json()).toMatchObject({
    error: { code: "PAYLOAD_TOO_LARGE", message: "the request body is larger than 1 MiB" },
  });
  const bundle = await page.request.post("/api/v1/workflows/validate", {
    headers,
    data: { files: { "workflow.yaml": "x".repeat(7 * 1024 * 1024) } },
  });
  expect(bundle.status()).toBe(413);
});
