/**
 * A protected MCP server of an authorization server, set up as a team's http connector that
 * signs in with OAuth (with a pre-registered client id where given), through the dashboard
 * caller of an admin. The server is closed by `closers`.
 */
import { startProtectedMcpServer, type ResourceAuthority } from "@switchyard/testing/oauth";
import type { dashboardCaller } from "./dashboard-caller";

export const createOAuthConnector = async (
  admin: () => ReturnType<typeof dashboardCaller>,
  closers: (() => Promise<unknown>)[],
  connector: { id: string; authority: ResourceAuthority; clientId?: string | undefined },
) => {
  const { id, authority, clientId } = connector;
  const mcp = await startProtectedMcpServer({ authorizationServer: authority });
  closers.push(() => mcp.close());
  await admin().connectors.create({
    definition: {
      id,
      name: id,
      transport: "http",
      url: mcp.url,
      auth: "oauth",
      ...(clientId ? { oauth_client_id: clientId } : {}),
    },
  });
  return mcp;
};
