/**
 * The MCP config file Claude Code reads with `--mcp-config`: one stdio server, the step's
 * `switchyard mcp-serve`, started with the Node runtime and the switchyard bin. It holds
 * paths only, never a secret; the proxy's own config (workspace, catalog, channel) is a
 * separate file the worker writes.
 */
import { AppError } from "../../errors/app-error";
import { CLAUDE_MCP_SERVER, claudeToolTimeout } from "./build-claude-launch";

export type ClaudeMcpConfigInput = {
  /** The Node binary that runs the proxy, as the step sees it. */
  node: string;
  /** The switchyard bin script (packages/cli/bin/switchyard.mjs), as the step sees it. */
  switchyardBin: string;
  /** The proxy's config file, as the step sees it. */
  proxyConfigPath: string;
  /** The server's call limit (`timeout`, ms), which also lifts the 30 min silence limit. */
  toolTimeoutMs?: number;
};

export const buildClaudeMcpConfig = (input: ClaudeMcpConfigInput): string => {
  for (const [name, value] of Object.entries({
    node: input.node,
    switchyardBin: input.switchyardBin,
    proxyConfigPath: input.proxyConfigPath,
  }))
    if (!value.startsWith("/"))
      throw new AppError(
        "SYSTEM.CONFIG",
        `the MCP config needs an absolute ${name}, got ${JSON.stringify(value)}`,
      );
  const config = {
    mcpServers: {
      [CLAUDE_MCP_SERVER]: {
        type: "stdio",
        command: input.node,
        args: [input.switchyardBin, "mcp-serve", "--config", input.proxyConfigPath],
        ...(input.toolTimeoutMs === undefined
          ? {}
          : { timeout: claudeToolTimeout(input.toolTimeoutMs) }),
      },
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
};
