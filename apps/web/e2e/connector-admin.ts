/**
 * What the connector specs share: the demo team, an admin's API token for the REST API and
 * the calls made with it, and an OAuth authorization server with an MCP server it protects,
 * both on 127.0.0.2, the one address the web app may reach (global-setup.ts).
 */
import { expect, type Page } from "@playwright/test";
import { createApiToken, createDb, teamBySlug, userIdByEmail } from "@switchyard/db";
import { startOAuthServer, startProtectedMcpServer } from "@switchyard/testing/oauth";

type PairOptions = Omit<
  Parameters<typeof startProtectedMcpServer>[0],
  "authorizationServer" | "host"
>;

export const openConnectorAdmin = async (tokenName: string) => {
  const db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  const teamId = (await teamBySlug(db, "demo")).id;
  const userId = await userIdByEmail(db, process.env.E2E_ADMIN_EMAIL!);
  const { token } = await createApiToken(db, { teamId, userId, name: tokenName });
  /** A REST call as the admin, from the page's own request context. */
  const rest = (page: Page, method: "POST", path: string, body: unknown) =>
    page.request.fetch(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      data: JSON.stringify(body),
      timeout: 30_000,
    });
  /** An http connector open to every lane, added through the API. */
  const addHttp = async (
    page: Page,
    connector: { id: string; url: string; auth: "none" | "oauth" },
  ) => {
    const definition = { ...connector, name: connector.id, transport: "http", lanes: ["*"] };
    const created = await rest(page, "POST", "/connectors", { definition });
    expect(created.status(), await created.text()).toBe(201);
  };
  return { db, teamId, rest, addHttp };
};

export const startProtectedPair = async (options: PairOptions = {}) => {
  const authServer = await startOAuthServer({ host: "127.0.0.2" });
  const mcp = await startProtectedMcpServer({
    ...options,
    authorizationServer: authServer,
    host: "127.0.0.2",
  });
  return {
    authServer,
    mcp,
    close: async () => {
      await mcp.close();
      await authServer.close();
    },
  };
};
