/**
 * Connecting an http connector over OAuth in the real web app (`next start`, where the
 * global fetch is Next.js's own): discovery that must look past 404s (resource metadata
 * only at the root URL, an authorization server that publishes only OpenID metadata, as
 * oidc-provider does) completes, the browser is sent to the authorization server and comes
 * back connected. A connector pointing at an internal address (127.0.0.1 here; the web app's
 * allow-list names only 127.0.0.2, see global-setup.ts) is refused before anything reaches it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { connectorCredentialForUse, TEAM_OWNER, type Db } from "@switchyard/db";
import type { ProtectedMcpServer } from "@switchyard/testing/oauth";
import { openConnectorAdmin, startProtectedPair } from "./connector-admin";
import { signIn } from "./sign-in";

let db: Db;
let teamId: string;
let rest: Awaited<ReturnType<typeof openConnectorAdmin>>["rest"];
let pair: Awaited<ReturnType<typeof startProtectedPair>>;
let mcp: ProtectedMcpServer;
let internal: Server;
const internalHits: string[] = [];
let internalUrl: string;

test.beforeAll(async () => {
  ({ db, teamId, rest } = await openConnectorAdmin("e2e-connector-oauth"));
  pair = await startProtectedPair({ metadataAtRoot: true, announceMetadata: false });
  mcp = pair.mcp;
  internal = createServer((req, res) => {
    internalHits.push(`${req.method} ${req.url}`);
    res.end("internal");
  });
  await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/mcp`;
});
test.afterAll(async () => {
  await pair?.close();
  internal?.closeAllConnections();
  await new Promise((r) => internal?.close(r));
  await db?.$disconnect();
});

test("an admin connects a connector over OAuth: discovery past 404s completes and the browser comes back connected", async ({
  page,
}) => {
  const created = await rest(page, "POST", "/connectors", {
    definition: {
      id: "tracker",
      name: "Tracker",
      transport: "http",
      url: mcp.url,
      auth: "oauth",
      lanes: ["*"],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await signIn(page);
  await page.goto("/settings/connectors");
  const card = page.locator('[data-connector="tracker"]');
  await card.getByRole("button", { name: "Connect with OAuth" }).click();
  // To the authorization server (which approves at once) and back to the Connectors page.
  await expect(page).toHaveURL(/\/settings\/connectors\?connector=tracker&connected=team/, {
    timeout: 30_000,
  });
  await expect(page.getByText("Connected tracker (the team's account).")).toBeVisible();
  const stored = await connectorCredentialForUse(db, {
    teamId,
    slug: "tracker",
    owner: TEAM_OWNER,
  });
  expect(stored?.kind).toBe("oauth");
  expect(mcp.unauthorized).toBeGreaterThan(0);
});

test("a connector on an internal address is refused before any request reaches it, when it is saved and when it is connected", async ({
  page,
}) => {
  // Saved through the API: refused at its URL.
  const created = await rest(page, "POST", "/connectors", {
    definition: {
      id: "intranet",
      name: "Intranet",
      transport: "http",
      url: internalUrl,
      auth: "oauth",
      lanes: ["*"],
    },
  });
  expect(created.status()).toBe(400);
  expect(
    ((await created.json()) as { error: { code: string; location: { path: string } } }).error,
  ).toMatchObject({ code: "USER.EGRESS.DENIED", location: { path: "url" } });
  // A listed server that names an internal one as its authorization server: refused when connecting.
  const pointing = createServer((req, res) => {
    const origin = `http://127.0.0.2:${(pointing.address() as AddressInfo).port}`;
    if (req.url === "/mcp") {
      res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` }).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        resource: `${origin}/mcp`,
        authorization_servers: [internalUrl.replace(/\/mcp$/, "")],
      }),
    );
  });
  await new Promise<void>((resolve) => pointing.listen(0, "127.0.0.2", resolve));
  try {
    const url = `http://127.0.0.2:${(pointing.address() as AddressInfo).port}/mcp`;
    const made = await rest(page, "POST", "/connectors", {
      definition: {
        id: "pointer",
        name: "Pointer",
        transport: "http",
        url,
        auth: "oauth",
        lanes: ["*"],
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    await signIn(page);
    await page.goto("/settings/connectors");
    const card = page.locator('[data-connector="pointer"]');
    await card.getByRole("button", { name: "Connect with OAuth" }).click();
    // Refused by the egress guard before anything is sent (no hit below). Its words reach the
    // card as the guard's own or, after other specs ran in the same web process, as the
    // discovery's "reading … failed" naming the address.
    await expect(card.getByRole("alert")).toContainText(
      /Switchyard does not send requests to 127\.0\.0\.1|metadata of http:\/\/127\.0\.0\.1:\d+ failed/,
    );
  } finally {
    pointing.closeAllConnections();
    await new Promise((r) => pointing.close(r));
  }
  expect(internalHits).toEqual([]);
});
