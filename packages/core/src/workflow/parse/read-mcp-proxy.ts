/**
 * Reads an agent step's `mcp_proxy` block with AWF's own error codes
 * (USER.MCP_PROXY.*). Switchyard has no plugin system, so any `plugin_tools` entry is
 * UNKNOWN_PLUGIN; connector ids are checked later against the catalog port.
 */
import { isMap, isScalar } from "yaml";
import type { McpProxyConfig } from "../model/workflow-types";
import { MCP_PROXY_KEYS } from "./vocabulary";
import { report, sourceOf, type YamlReader } from "./yaml-reader";

export const readMcpProxy = (r: YamlReader): McpProxyConfig => {
  r.checkKeys(MCP_PROXY_KEYS, {}, "USER.MCP_PROXY.UNKNOWN_KEY");
  const pluginTools = r.seq("plugin_tools") ?? [];
  for (const { node, path } of pluginTools) {
    const plugin = isMap(node) ? node.get("plugin") : isScalar(node) ? node.value : undefined;
    report(
      r.diag,
      "error",
      "USER.MCP_PROXY.UNKNOWN_PLUGIN",
      `plugin ${JSON.stringify(plugin ?? "?")} does not exist: Switchyard has no plugins; hand tools to agents as connectors`,
      sourceOf(r.diag, node, path),
    );
  }
  const config: McpProxyConfig = {
    enable: r.bool("enable", false),
    interceptBuiltins: r.bool("intercept_builtins", true),
    connectors: r.strList("connectors") ?? [],
    initialTools: r.strList("initial_tools") ?? [],
    toolSearch: r.bool("tool_search", false),
  };
  for (const [key, list] of [
    ["connectors", config.connectors],
    ["initial_tools", config.initialTools],
  ] as const) {
    const seen = new Set<string>();
    for (const name of list) {
      if (seen.has(name))
        r.error("USER.MCP_PROXY.NAME_COLLISION", `"${name}" is listed twice in ${key}`, key);
      seen.add(name);
    }
  }
  if (
    config.enable &&
    !config.interceptBuiltins &&
    config.connectors.length === 0 &&
    pluginTools.length === 0
  ) {
    r.error(
      "USER.MCP_PROXY.EMPTY_PROXY",
      "the proxy is enabled with intercept_builtins: false and no connectors, so it has nothing to serve",
    );
  }
  return config;
};
