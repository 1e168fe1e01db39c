/**
 * What the gateway lets through and what it refuses, through real HTTP on loopback with
 * the scripted model (which records a fingerprint of every credential it receives) or a
 * small server of the test's own as the upstream: tokens are checked where each vendor's
 * CLI sends them and refused with 401 before anything goes upstream; the real key
 * replaces the token and never reaches the client, a log line or an error; the request
 * cannot choose where it goes; only vendor API paths are answered; bodies are capped;
 * upstream errors pass through and an unreachable or silent upstream is a prompt JSON
 * 502/504; the unix socket listener serves the same.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fingerprint } from "@switchyard/scripted-model";
import { afterEach, describe, expect, it } from "vitest";
import { parseEgressAllowList } from "../egress";
import { isAppError } from "../errors";
import {
  anthropicCall,
  cleanup,
  chatCall,
  closedPort,
  geminiCall,
  REAL_KEY,
  scripted,
  startHarness,
  startUpstream,
  upstreamBase,
  within,
} from "@switchyard/testing/gateway";

const later = cleanup();
afterEach(() => later.run());
const harness = async (options: Parameters<typeof startHarness>[0] = {}) =>
  later.add(await startHarness(options));
const model = async (
  script: Parameters<typeof scripted>[0] = {
    turns: [],
    rules: [{ match: { pathRegex: "." }, text: "ok" }],
  },
) => later.add(await scripted(script));

type ErrorJson = { type: string; error: { type: string; code: string; message: string } };
const errorOf = async (res: Response) => (await res.json()) as ErrorJson;

/** A raw HTTP/1.1 exchange, for request lines and headers fetch will not send. */
const raw = (port: number, text: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let out = "";
    socket.on("data", (d: Buffer) => (out += d.toString()));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
    socket.end(text);
  });

describe("the step token", () => {
  it("refuses a missing, wrong, misplaced or revoked token with 401 and a JSON error, and never calls upstream", async () => {
    const m = await model();
    const h = await harness();
    const claude = h.register("anthropic", m.url);
    const gpt = h.register("openai", `${m.url}/v1`);
    const url = `${claude.baseUrl}/v1/messages`;
    const body = JSON.stringify({ model: "m", max_tokens: 5, messages: [] });
    const tries: Array<[string, Record<string, string>, string?]> = [
      ["none", {}],
      ["wrong", { "x-api-key": "sygw_not-a-token-at-all-but-the-right-shape-aaaaa" }],
      ["one character more", { "x-api-key": `${claude.token}x` }],
      ["a prefix", { "x-api-key": claude.token.slice(0, -1) }],
      ["another registration's, of another vendor", { "x-api-key": gpt.token }],
      ["where Anthropic's CLI never puts it (?key=)", {}, `?key=${claude.token}`],
      ["the real key itself", { "x-api-key": REAL_KEY }],
    ];
    for (const [what, headers, query] of tries) {
      const res = await fetch(`${url}${query ?? ""}`, { method: "POST", headers, body });
      expect(res.status, what).toBe(401);
      const json = await errorOf(res);
      expect(json.error.code, what).toBe("UNAUTHORIZED");
      expect(json.error.type).toBe("authentication_error");
    }
    // OpenAI's CLIs send Bearer only
    const misplaced = await fetch(`${gpt.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "x-api-key": gpt.token },
      body: "{}",
    });
    expect(misplaced.status).toBe(401);
    await claude.revoke();
    const revoked = await anthropicCall("m", false).send(claude.baseUrl!, claude.token);
    expect(revoked.status).toBe(401);
    expect(m.requests).toEqual([]);
    expect(h.logs.join("\n")).not.toContain(claude.token);
  });

  it("serves a token only on its own vendor's paths", async () => {
    const m = await model();
    const h = await harness();
    const claude = h.register("anthropic", m.url);
    // Bearer is a place Anthropic's CLI may send its key, but chat/completions is not Anthropic's
    const bearer = await fetch(`${claude.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${claude.token}` },
      body: "{}",
    });
    expect(bearer.status).toBe(404);
    expect((await errorOf(bearer)).error.code).toBe("NOT_FOUND");
    expect(m.requests).toEqual([]);
  });
});

describe("the real key", () => {
  const cases = [
    {
      name: "Anthropic x-api-key",
      vendor: "anthropic" as const,
      header: "x-api-key",
      query: "",
      send: (t: string) => ({ "x-api-key": t }),
      path: "/v1/messages",
      expect: { header: "x-api-key" },
    },
    {
      name: "Anthropic Bearer",
      vendor: "anthropic" as const,
      header: "authorization",
      query: "",
      send: (t: string) => ({ authorization: `Bearer ${t}` }),
      path: "/v1/messages",
      expect: { header: "x-api-key" },
    },
    {
      name: "OpenAI Bearer",
      vendor: "openai" as const,
      header: "authorization",
      query: "",
      send: (t: string) => ({ authorization: `Bearer ${t}` }),
      path: "/v1/chat/completions",
      expect: { header: "authorization", scheme: "Bearer" },
    },
    {
      name: "Gemini x-goog-api-key",
      vendor: "gemini" as const,
      header: "x-goog-api-key",
      query: "",
      send: (t: string) => ({ "x-goog-api-key": t }),
      path: "/v1beta/models/gemini-2.5-flash:generateContent",
      expect: { header: "x-goog-api-key" },
    },
    {
      name: "Gemini ?key=",
      vendor: "gemini" as const,
      header: "",
      query: "key",
      send: () => ({}),
      path: "/v1beta/models/gemini-2.5-flash:generateContent",
      expect: { header: "x-goog-api-key" },
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))(
    "%s: the upstream gets the real key in the vendor's header and no other credential; the client never sees it",
    async (_name, c) => {
      const m = await model();
      const h = await harness();
      const reg = h.register(c.vendor, upstreamBase(m, c.vendor));
      const url = `${h.gateway.origin}${c.path}${c.query ? `?alt=json&key=${reg.token}` : ""}`;
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...c.send(reg.token),
          cookie: "session=abc",
          "x-auth-token": "planted",
          "proxy-authorization": "Basic cGxhbnRlZA==",
          "openai-organization": "org-someone-else",
          "x-forwarded-for": "10.9.8.7",
          "anthropic-version": "2023-06-01",
        },
        body: JSON.stringify({
          model: "m",
          messages: [{ role: "user", content: "hi" }],
          contents: [],
        }),
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(m.requests).toHaveLength(1);
      const seen = m.requests[0]!;
      expect(seen.auth).toEqual([{ ...c.expect, fingerprint: fingerprint(REAL_KEY) }]);
      for (const gone of [
        "cookie",
        "x-auth-token",
        "proxy-authorization",
        "openai-organization",
        "x-forwarded-for",
      ])
        expect(seen.headers, gone).not.toHaveProperty(gone);
      expect(seen.headers["anthropic-version"]).toBe("2023-06-01");
      expect(seen.path).not.toContain("key=");
      if (c.query) expect(seen.path).toContain("alt=json");
      expect(text).not.toContain(REAL_KEY);
      expect(JSON.stringify([...res.headers])).not.toContain(REAL_KEY);
      expect(h.logs.join("\n")).not.toContain(REAL_KEY);
    },
  );

  it("is scrubbed from an upstream error that echoes it, while the error's status and headers pass through", async () => {
    const upstream = await startUpstream((req, res) => {
      req.resume();
      const key = String(req.headers["x-api-key"]);
      res.writeHead(401, { "content-type": "application/json", "x-echo": key, "retry-after": "3" });
      res.end(
        JSON.stringify({
          type: "error",
          error: { type: "authentication_error", message: `invalid x-api-key ${key}` },
        }),
      );
    });
    later.add(upstream);
    const h = await harness();
    const reg = h.register("anthropic", upstream.url);
    const res = await anthropicCall("m", false).send(reg.baseUrl!, reg.token);
    expect(res.status).toBe(401);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(res.headers.get("x-echo")).toBe("[REDACTED]");
    const json = await errorOf(res);
    expect(json.error.message).toBe("invalid x-api-key [REDACTED]");
  });

  it("goes only to the registration's endpoint: no absolute-form target, no Host header trust", async () => {
    const m = await model();
    const h = await harness();
    const reg = h.register("anthropic", m.url);
    const body = JSON.stringify({ model: "m", max_tokens: 5, messages: [] });
    const absolute = await raw(
      h.gateway.port!,
      `POST http://evil.invalid/v1/messages HTTP/1.1\r\nhost: evil.invalid\r\nx-api-key: ${reg.token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 400 /);
    expect(m.requests).toEqual([]);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${h.gateway.origin}/v1/messages`,
        {
          method: "POST",
          headers: {
            host: "evil.invalid",
            "x-api-key": reg.token,
            "content-type": "application/json",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(status).toBe(200);
    expect(m.requests[0]!.headers.host).toBe(new URL(m.url).host);
  });
});

describe("what it answers", () => {
  it("answers Claude Code's probes itself and 404s every path that is not a vendor API, forwarding none", async () => {
    const m = await model();
    const h = await harness();
    const reg = h.register("anthropic", m.url);
    for (const probe of ["/", "/api/hello"]) {
      const res = await fetch(`${h.gateway.origin}${probe}`, { method: "HEAD" });
      expect(res.status, probe).toBe(200);
    }
    const auth = { "x-api-key": reg.token };
    const refused: Array<[string, string]> = [
      ["GET", "/"],
      ["GET", "/admin"],
      ["POST", "/v1/embeddings"],
      ["GET", "/v1/messages"],
      ["POST", "/v1/files"],
      ["GET", "/v1/models/../../admin"],
      ["GET", "/v1/models/%2e%2e"],
      ["POST", "/v1/messages/../complete"],
      ["POST", "/v1beta/models/gemini:deleteEverything"],
    ];
    for (const [method, p] of refused) {
      const res = await raw(
        h.gateway.port!,
        `${method} ${p} HTTP/1.1\r\nhost: x\r\nx-api-key: ${reg.token}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
      );
      expect(res, `${method} ${p}`).toMatch(/^HTTP\/1\.1 404 /);
      expect(res).toContain('"code":"NOT_FOUND"');
    }
    expect(m.requests).toEqual([]);
    // the model list is a vendor API, so it goes through
    const models = await fetch(`${reg.baseUrl}/v1/models`, { headers: auth });
    expect(models.status).toBe(200);
    expect(m.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]);
  });

  it("refuses a body over the cap with 413, by its length or as it streams, forwarding nothing", async () => {
    const m = await model();
    const h = await harness({ maxBodyBytes: 1024 });
    const reg = h.register("anthropic", m.url);
    const big = JSON.stringify({
      model: "m",
      messages: [{ role: "user", content: "x".repeat(2000) }],
    });
    const declared = await fetch(`${reg.baseUrl}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": reg.token, "content-type": "application/json" },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect((await errorOf(declared)).error.code).toBe("PAYLOAD_TOO_LARGE");
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${reg.baseUrl}/v1/messages`,
        { method: "POST", headers: { "x-api-key": reg.token, "transfer-encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 4; i++) req.write("x".repeat(512));
      req.end();
    });
    expect(chunked).toBe(413);
    expect(m.requests).toEqual([]);
    // just under the cap goes through
    const small = await anthropicCall("m", false).send(reg.baseUrl!, reg.token);
    expect(small.status).toBe(200);
  });
});

describe("upstream failures", () => {
  it("passes an upstream error through with its status, headers and body", async () => {
    const m = await model({
      turns: [{ error: { status: 429, headers: { "retry-after": "7" }, message: "slow down" } }],
    });
    const h = await harness();
    const reg = h.register("gemini", m.url);
    const res = await geminiCall("gemini-2.5-pro", "sse").send(reg.baseUrl!, reg.token);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(JSON.stringify(await res.json())).toContain("slow down");
    expect(reg.events).toEqual([]);
  });

  it("answers 502 with a clear JSON error at once when the upstream is unreachable", async () => {
    const port = await closedPort();
    const h = await harness();
    const reg = h.register("openai", `http://127.0.0.1:${port}/v1`);
    const res = await within(
      chatCall("gpt-4o", true).send(reg.baseUrl!, reg.token),
      10_000,
      "the 502",
    );
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({
      error: {
        code: "EXECUTION.MODEL_GATEWAY.UPSTREAM_UNREACHABLE",
        message: expect.stringContaining("ECONNREFUSED") as string,
      },
    });
    expect(text).not.toContain(REAL_KEY);
    expect(h.logs.some((line) => line.includes('"status":502'))).toBe(true);
    expect(h.logs.join("\n")).not.toContain(REAL_KEY);
  });

  it("answers 504 when the upstream accepts but never responds, and cuts a stream that goes silent", async () => {
    const upstream = await startUpstream((req, res) => {
      req.resume();
      if (req.url?.includes("chat")) return; // never answers
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `data: ${JSON.stringify({ type: "response.created", response: { model: "gpt-5" } })}\n\n`,
      ); // then nothing
    });
    later.add(upstream);
    const h = await harness({ timeouts: { responseMs: 300, idleMs: 300 } });
    const reg = h.register("openai", `${upstream.url}/v1`);
    const res = await within(
      chatCall("gpt-5", false).send(reg.baseUrl!, reg.token),
      10_000,
      "the 504",
    );
    expect(res.status).toBe(504);
    expect((await errorOf(res)).error.code).toBe("EXECUTION.MODEL_GATEWAY.UPSTREAM_TIMEOUT");
    const stream = await fetch(`${reg.baseUrl}/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${reg.token}` },
      body: JSON.stringify({ model: "gpt-5", input: "hi", stream: true }),
    });
    expect(stream.status).toBe(200);
    await expect(within(stream.text(), 10_000, "the cut")).rejects.toThrow(
      /terminated|aborted|other side closed/i,
    );
  });
});

describe("the egress rule", () => {
  it("forwards only to upstream addresses the rule allows, judged at connect time, and says so with 403", async () => {
    const m = await model();
    const strict = await harness({ egress: parseEgressAllowList("") });
    const port = new URL(m.url).port;
    for (const base of [m.url, `http://localhost:${port}`, `http://[::ffff:127.0.0.1]:${port}`]) {
      const reg = strict.register("anthropic", base);
      const res = await within(
        anthropicCall("claude-sonnet-4-5", false).send(reg.baseUrl!, reg.token),
        10_000,
        "the refusal",
      );
      expect(res.status, base).toBe(403);
      expect((await errorOf(res)).error.code).toBe("USER.EGRESS.DENIED");
    }
    expect(m.requests).toHaveLength(0);
    // The operator's list names loopback: the same upstream is reached.
    const listed = await harness({ egress: parseEgressAllowList("127.0.0.0/8,localhost") });
    const reg = listed.register("anthropic", `http://localhost:${port}`);
    const res = await anthropicCall("claude-sonnet-4-5", false).send(reg.baseUrl!, reg.token);
    expect(res.status).toBe(200);
  });
});

describe("listeners and registration", () => {
  it("serves the same API on its unix socket", async () => {
    const m = await model();
    const dir = await mkdtemp(path.join(tmpdir(), "gw-sock-"));
    later.defer(() => rm(dir, { recursive: true, force: true }));
    const socketPath = path.join(dir, "gateway.sock");
    const h = await harness({ tcp: false, socketPath });
    expect(h.gateway.origin).toBeNull();
    const reg = h.register("anthropic", m.url);
    expect(reg.baseUrl).toBeNull();
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          socketPath,
          path: "/v1/messages",
          method: "POST",
          headers: { "x-api-key": reg.token, "content-type": "application/json" },
        },
        (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end(
        JSON.stringify({
          model: "claude-haiku-4-5",
          max_tokens: 5,
          messages: [{ role: "user", content: "hi" }],
        }),
      );
    });
    expect(reply.status, reply.body).toBe(200);
    expect(m.requests[0]!.auth[0]!.fingerprint).toBe(fingerprint(REAL_KEY));
    expect(reg.events[0]).toMatchObject({ model: "claude-haiku-4-5", complete: true });
  });

  it("refuses a bad registration naming the field, never showing the key, and any once closed", async () => {
    const h = await harness();
    const bad: Array<[string, Parameters<typeof h.gateway.register>[0]["upstream"]]> = [
      ["upstream.baseUrl", { baseUrl: "file:///etc/passwd", apiKey: REAL_KEY }],
      ["upstream.baseUrl", { baseUrl: "https://user:pw@api.example.com", apiKey: REAL_KEY }],
      ["upstream.baseUrl", { baseUrl: "https://api.example.com/?x=1", apiKey: REAL_KEY }],
      [
        "upstream.apiKey",
        { baseUrl: "https://api.example.com", apiKey: `${REAL_KEY}\r\nx-evil: 1` },
      ],
      ["upstream.apiKey", { baseUrl: "https://api.example.com", apiKey: "" }],
      [
        "upstream.headers.host",
        { baseUrl: "https://api.example.com", apiKey: REAL_KEY, headers: { host: "evil" } },
      ],
    ];
    for (const [field, upstream] of bad) {
      let caught: unknown;
      try {
        h.gateway.register({ vendor: "anthropic", upstream, meter: () => undefined });
      } catch (error) {
        caught = error;
      }
      expect(isAppError(caught), field).toBe(true);
      if (!isAppError(caught)) continue;
      expect(caught.code).toBe("USER.INPUT.VALIDATION_FAILED");
      expect(caught.location).toEqual({ path: field });
      expect(caught.message).not.toContain(REAL_KEY);
    }
    await h.close();
    expect(() =>
      h.gateway.register({
        vendor: "openai",
        upstream: { baseUrl: "https://api.openai.com/v1", apiKey: REAL_KEY },
        meter: () => undefined,
      }),
    ).toThrow(expect.objectContaining({ code: "SYSTEM.MODEL_GATEWAY.CLOSED" }) as Error);
  });
});
