/**
 * Connecting a connector over OAuth cannot be turned against the network the web app sits
 * in. The operator's allow-list names 127.0.0.2 only (where the "outside" servers of this
 * test listen); 127.0.0.1 stands for an internal service. Whatever a connector's URL, its
 * 401, its resource metadata or a redirect names, nothing reaches the internal service; an
 * open and a closed internal port answer the same; what a remote server sends never appears
 * in an error; a server that never answers ends the request in bounded time.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { openSeededDatabase, type SeededDatabase } from "./helpers/seeded-database";

process.env.AUTH_URL = "http://127.0.0.1:3999";

type Hit = { method: string; url: string };
const servers: Server[] = [];
const serve = async (
  host: string,
  handler: (req: IncomingMessage, res: ServerResponse, origin: string) => void,
) => {
  const hits: Hit[] = [];
  let origin = "";
  const server = createServer((req, res) => {
    hits.push({ method: req.method ?? "", url: req.url ?? "" });
    handler(req, res, origin);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  servers.push(server);
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { origin, hits };
};
const json = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

let seeded: SeededDatabase;
let redis: Redis;
let internal: Awaited<ReturnType<typeof serve>>;
let closedPort: number;
const egress = webEgress(parseEgressAllowList("127.0.0.2/32"));
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);
const admin = () =>
  dashboardCaller(
    { db: seeded.db, redis, keyring, prefix: `egress-${Date.now()}`, egress },
    seeded.adminId,
  );

/** An OAuth connector for `url`, then the attempt to connect it: the error it ends with. */
let count = 0;
const connectError = async (url: string) => {
  const id = `c${++count}`;
  const started = Date.now();
  const error = await admin()
    .connectors.create({
      definition: { id, name: id, transport: "http", url, auth: "oauth", lanes: ["*"] },
    })
    .then(() => admin().connectors.beginOAuth({ id, scope: "team" }))
    .then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string; cause?: { code?: string } },
    );
  return { error, ms: Date.now() - started };
};
const appCode = (error: unknown) =>
  (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;

beforeAll(async () => {
  seeded = await openSeededDatabase();
  redis = new Redis(process.env.REDIS_URL!);
  internal = await serve("127.0.0.1", (_req, res) => json(res, 200, { secret: "INTERNAL-ONLY" }));
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  redis?.disconnect();
  await seeded?.close();
});

describe("OAuth discovery under the egress rule", () => {
  it("refuses a connector URL on an internal address, open port or closed, before any request (when it is saved already)", async () => {
    const open = await connectError(`${internal.origin}/mcp`);
    const closed = await connectError(`http://127.0.0.1:${closedPort}/mcp`);
    const named = await connectError(`http://localhost:${new URL(internal.origin).port}/mcp`);
    for (const { error } of [open, closed, named])
      expect(appCode(error)).toBe("USER.EGRESS.DENIED");
    // Same words for an open and a closed port: no port scanning through the dashboard.
    expect(open.error!.message.replace(/:\d+/, "")).toBe(closed.error!.message.replace(/:\d+/, ""));
    expect(internal.hits).toEqual([]);
  });

  it("refuses what a listed server names on an internal address: resource metadata, an authorization server, a redirect", async () => {
    const outside = await serve("127.0.0.2", (req, res, origin) => {
      const path = new URL(req.url ?? "/", origin).pathname;
      if (path === "/announces-internal-metadata")
        return json(
          res,
          401,
          {},
          {
            "www-authenticate": `Bearer resource_metadata="${internal.origin}/.well-known/oauth-protected-resource"`,
          },
        );
      if (path === "/names-internal-as")
        return json(
          res,
          401,
          {},
          {
            "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/names-internal-as"`,
          },
        );
      if (path === "/.well-known/oauth-protected-resource/names-internal-as")
        return json(res, 200, {
          resource: `${origin}/names-internal-as`,
          authorization_servers: [internal.origin],
        });
      if (path === "/redirects-inside")
        return void res.writeHead(307, { location: `${internal.origin}/mcp` }).end();
      json(res, 404, {});
    });
    for (const path of [
      "/announces-internal-metadata",
      "/names-internal-as",
      "/redirects-inside",
    ]) {
      const { error } = await connectError(`${outside.origin}${path}`);
      expect(appCode(error), path).toBe("USER.EGRESS.DENIED");
    }
    expect(internal.hits).toEqual([]);
    expect(outside.hits.length).toBeGreaterThan(0);
  });

  it("never repeats what a remote server sent in an error", async () => {
    const leaky = await serve("127.0.0.2", (req, res, origin) => {
      const path = new URL(req.url ?? "/", origin).pathname;
      if (path === "/mcp")
        return json(
          res,
          401,
          {},
          { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` },
        );
      if (path === "/prm")
        return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      if (path === "/.well-known/oauth-authorization-server")
        return json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
        });
      if (path === "/register")
        return json(res, 400, {
          error: "invalid_client_metadata",
          error_description: "REMOTE-DESCRIPTION-TEXT",
        });
      json(res, 404, {});
    });
    const refused = await connectError(`${leaky.origin}/mcp`);
    expect(refused.error?.message).toContain("invalid_client_metadata");
    expect(refused.error?.message).not.toContain("REMOTE-DESCRIPTION-TEXT");

    const broken = await serve("127.0.0.2", (req, res, origin) => {
      const path = new URL(req.url ?? "/", origin).pathname;
      if (path === "/mcp")
        return json(
          res,
          401,
          {},
          { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` },
        );
      if (path === "/prm")
        return json(res, 200, {
          resource: { "RAW-BODY-OBJECT": "x" },
          authorization_servers: "RAW-BODY-FIELD",
        });
      json(res, 404, {});
    });
    const invalid = await connectError(`${broken.origin}/mcp`);
    expect(appCode(invalid.error)).toBe("USER.CONNECTOR.OAUTH_DISCOVERY_FAILED");
    expect(invalid.error?.message).toMatch(/invalid or missing/);
    expect(invalid.error?.message).not.toContain("RAW-BODY");
  });

  it("ends a discovery whose server never answers in bounded time", async () => {
    const silent = await serve("127.0.0.2", () => undefined);
    const { error, ms } = await connectError(`${silent.origin}/mcp`);
    expect(appCode(error)).toBe("EXECUTION.CONNECTOR_UNAVAILABLE");
    expect(error?.message).toContain("did not answer in time");
    expect(ms).toBeLessThan(30_000);
  });
});
