/**
 * The egress fetch against real HTTP servers on loopback addresses: one stands for a
 * server a team may reach (on 127.0.0.2, which the allow-list names), one for an internal
 * service it must not reach (on 127.0.0.1). Every refusal happens before a byte reaches
 * the internal one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEgressFetch, type EgressFetch, type EgressLimits } from "./egress-fetch";
import { parseEgressAllowList } from "./egress-policy";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const listen = async (host: string, handler: Handler) => {
  const hits: { url: string; headers: IncomingMessage["headers"] }[] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? "", headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, hits, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
};

let internal: Awaited<ReturnType<typeof listen>>;
let allowedServer: Awaited<ReturnType<typeof listen>>;
const servers: Server[] = [];
const fetches: EgressFetch[] = [];
const LIMITS: EgressLimits = {
  connectMs: 2000,
  headersMs: 2000,
  idleMs: 2000,
  totalMs: 5000,
  maxBytes: 1024 * 1024,
  maxRedirects: 3,
};
const egress = (
  allow: string,
  limits: Partial<EgressLimits> = {},
  resolveAll?: Parameters<typeof createEgressFetch>[2],
) => {
  const f = createEgressFetch(parseEgressAllowList(allow), { ...LIMITS, ...limits }, resolveAll);
  fetches.push(f);
  return f;
};

beforeAll(async () => {
  internal = await listen("127.0.0.1", (_req, res) => res.end("internal secrets"));
  allowedServer = await listen("127.0.0.2", (req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    if (u.pathname === "/to-internal")
      return void res.writeHead(302, { location: `${internal.origin}/admin` }).end();
    if (u.pathname === "/to-self") return void res.writeHead(307, { location: "/echo" }).end();
    if (u.pathname === "/to-other")
      return void res.writeHead(302, { location: `${u.searchParams.get("to")}/echo` }).end();
    if (u.pathname === "/hang") return; // never answers
    if (u.pathname === "/big") {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, "a");
      for (let i = 0; i < 40; i++) res.write(chunk);
      return void res.end();
    }
    if (u.pathname === "/slow-body") {
      res.writeHead(200);
      res.write("start");
      return; // then silence
    }
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({ method: req.method, authorization: req.headers.authorization ?? null }),
    );
  });
  servers.push(internal.server, allowedServer.server);
});
afterEach(async () => {
  await Promise.all(fetches.splice(0).map((f) => f.close()));
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe("the egress fetch", () => {
  it("refuses loopback and private destinations unless the operator lists them", async () => {
    const before = internal.hits.length;
    await expect(egress("")(`${internal.origin}/`)).rejects.toMatchObject({
      code: "USER.EGRESS.DENIED",
    });
    await expect(
      egress("")(`http://localhost:${new URL(internal.origin).port}/`),
    ).rejects.toMatchObject({ code: "USER.EGRESS.DENIED" });
    await expect(
      egress("127.0.0.2")(`https://localhost:${new URL(internal.origin).port}/`),
    ).rejects.toMatchObject({ code: "USER.EGRESS.DENIED", details: { reason: "loopback" } });
    await expect(
      egress("127.0.0.2")(`http://[::ffff:127.0.0.1]:${new URL(internal.origin).port}/`),
    ).rejects.toMatchObject({ code: "USER.EGRESS.DENIED" });
    expect(internal.hits.length).toBe(before);
    const res = await egress("127.0.0.2/32")(`${allowedServer.origin}/echo`);
    expect(await res.json()).toEqual({ method: "GET", authorization: null });
  });

  it("judges every redirect again: a listed server cannot send the request on to an internal one", async () => {
    const before = internal.hits.length;
    await expect(egress("127.0.0.2")(`${allowedServer.origin}/to-internal`)).rejects.toMatchObject({
      code: "USER.EGRESS.DENIED",
    });
    expect(internal.hits.length).toBe(before);
    const same = await egress("127.0.0.2")(`${allowedServer.origin}/to-self`, {
      method: "POST",
      body: "x",
      headers: { authorization: "Bearer kept" },
    });
    expect(await same.json()).toEqual({ method: "POST", authorization: "Bearer kept" });
  });

  it("drops credentials on a redirect to another origin", async () => {
    const other = await listen("127.0.0.3", (req, res) =>
      res.end(JSON.stringify({ authorization: req.headers.authorization ?? null })),
    );
    servers.push(other.server);
    const res = await egress("127.0.0.2,127.0.0.3")(
      `${allowedServer.origin}/to-other?to=${encodeURIComponent(other.origin)}`,
      { headers: { authorization: "Bearer secret-token" } },
    );
    expect(await res.json()).toEqual({ authorization: null });
  });

  it("judges the address it connects to, so a name that resolves elsewhere the next time gains nothing", async () => {
    const port = new URL(internal.origin).port;
    const answers = [["127.0.0.2"], ["127.0.0.1"]];
    let lookups = 0;
    const f = egress(
      "127.0.0.2",
      {},
      {
        resolveAll: (hostname) => {
          expect(hostname).toBe("rebind.example");
          return Promise.resolve(
            (answers[lookups++] ?? ["127.0.0.1"]).map((address) => ({ address, family: 4 })),
          );
        },
      },
    );
    // First lookup: the listed address, where nothing listens on this port: refused by the OS, not by the rule.
    await expect(f(`https://rebind.example:${port}/`)).rejects.toMatchObject({
      code: "EXECUTION.EGRESS.UNREACHABLE",
    });
    const before = internal.hits.length;
    await expect(f(`https://rebind.example:${port}/`)).rejects.toMatchObject({
      code: "USER.EGRESS.DENIED",
      details: { host: "rebind.example", reason: "loopback" },
    });
    expect(internal.hits.length).toBe(before);
    expect(lookups).toBe(2);
  });

  it("bounds the wait for headers, a silent body and the answer's size, naming only the host", async () => {
    const hang = egress("127.0.0.2", { headersMs: 300, totalMs: undefined });
    await expect(hang(`${allowedServer.origin}/hang`)).rejects.toMatchObject({
      code: "EXECUTION.EGRESS.TIMEOUT",
      message: "127.0.0.2 did not answer in time",
    });
    const total = egress("127.0.0.2", { headersMs: 0, totalMs: 300 });
    await expect(total(`${allowedServer.origin}/hang`)).rejects.toMatchObject({
      code: "EXECUTION.EGRESS.TIMEOUT",
    });
    const silent = await egress("127.0.0.2", { idleMs: 300, totalMs: undefined })(
      `${allowedServer.origin}/slow-body`,
    );
    await expect(silent.text()).rejects.toMatchObject({ code: "EXECUTION.EGRESS.TIMEOUT" });
    const big = await egress("127.0.0.2", { maxBytes: 1024 * 1024 })(`${allowedServer.origin}/big`);
    await expect(big.text()).rejects.toMatchObject({ code: "EXECUTION.EGRESS.TOO_LARGE" });
  });

  it("leaves the caller's own abort as the caller's", async () => {
    const controller = new AbortController();
    const pending = egress("127.0.0.2", { headersMs: 0, totalMs: undefined })(
      `${allowedServer.origin}/hang`,
      { signal: controller.signal },
    );
    controller.abort(new Error("stopped by the caller"));
    await expect(pending).rejects.toThrow("stopped by the caller");
  });

  it("fetches only http and https", async () => {
    await expect(egress("127.0.0.0/8")("file:///etc/passwd")).rejects.toMatchObject({
      code: "USER.EGRESS.DENIED",
      details: { reason: "scheme" },
    });
  });
});
