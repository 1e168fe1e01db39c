/**
 * What the built app (`next start`) answers where Next.js itself would: a path whose
 * percent-encoding does not decode, and a method a route does not serve. Both get the
 * project's JSON error with a request id (the caller's own when sent), the 405 with Allow,
 * instead of a plain-text 500 and an empty 405.
 */
import { expect, test, type APIResponse } from "@playwright/test";

const errorOf = async (res: APIResponse) =>
  ((await res.json()) as { error: { code: string; message: string } }).error;

test("a path that does not decode is a JSON 400 with a request id, under the REST API and the webhooks", async ({
  request,
}) => {
  for (const [method, path] of [
    ["GET", "/api/v1/runs/%E0%A4%A"],
    ["POST", "/api/hooks/%E0%A4%A"],
    ["GET", "/api/v1/runs/%ZZ"],
    ["PUT", "/api/v1/variables/%FF"],
  ] as const) {
    const res = await request.fetch(path, { method, data: method === "GET" ? undefined : "{}" });
    expect(res.status(), `${method} ${path}`).toBe(400);
    expect(res.headers()["content-type"]).toMatch(/^application\/json/);
    expect(await errorOf(res)).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("percent-encoded"),
    });
    expect(res.headers()["x-request-id"]).toMatch(/^[A-Za-z0-9._:-]+$/);
  }
  const mine = await request.get("/api/v1/runs/%E0%A4%A", {
    headers: { "x-request-id": "req-edge-1" },
  });
  expect(mine.headers()["x-request-id"]).toBe("req-edge-1");
  // A page path that does not decode is a 400 too, not a server error.
  const page = await request.get("/runs/%E0%A4%A");
  expect(page.status()).toBe(400);
  expect(page.headers()["x-request-id"]).toBeTruthy();
  // Paths that decode are routed as before.
  expect((await request.get("/api/v1/runs/r%C3%A9")).status()).toBe(401);
  expect((await request.get("/api/v1/runs/abc%20def")).status()).toBe(401);
});

test("a method a route does not serve is a JSON 405 with Allow and a request id", async ({
  request,
}) => {
  const patch = await request.fetch("/api/v1/runs/abc", { method: "PATCH", data: "{}" });
  expect(patch.status()).toBe(405);
  expect(await errorOf(patch)).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
  expect(patch.headers().allow).toBe("GET, HEAD, OPTIONS");
  expect(patch.headers()["x-request-id"]).toBeTruthy();

  const put = await request.fetch("/api/v1/workflows", { method: "PUT", data: "{}" });
  expect(put.status()).toBe(405);
  expect(put.headers().allow).toBe("GET, HEAD, OPTIONS, POST");

  const options = await request.fetch("/api/v1/runs/abc/cancel", { method: "OPTIONS" });
  expect(options.status()).toBe(204);
  expect(options.headers().allow).toBe("OPTIONS, POST");

  const unknown = await request.fetch("/api/v1/no-such-thing", { method: "PATCH" });
  expect(unknown.status()).toBe(404);
  expect(await errorOf(unknown)).toMatchObject({ code: "NOT_FOUND" });

  for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
    const hook = await request.fetch("/api/hooks/trg_whatever", { method });
    expect(hook.status(), method).toBe(405);
    expect(await errorOf(hook)).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
    expect(hook.headers().allow).toBe("OPTIONS, POST");
    expect(hook.headers()["x-request-id"]).toBeTruthy();
  }
  for (const [path, allow] of [
    ["/api/connectors/oauth/callback?state=x&code=y", "GET, HEAD, OPTIONS"],
    ["/api/auth/session", "GET, HEAD, OPTIONS, POST"],
  ] as const) {
    const res = await request.fetch(path, { method: "DELETE" });
    expect(res.status(), path).toBe(405);
    expect(await errorOf(res)).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
    expect(res.headers().allow, path).toBe(allow);
    expect(res.headers()["x-request-id"], path).toBeTruthy();
  }
  const events = await request.fetch("/api/runs/abc/events", { method: "PATCH" });
  expect(events.status()).toBe(405);
  expect(events.headers().allow).toBe("GET, HEAD, OPTIONS");
});
