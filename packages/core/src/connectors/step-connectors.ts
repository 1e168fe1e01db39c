/**
 * Which connectors a step opens and which of their tools it sees, from its `mcp_proxy`:
 * every tool of each of its `connectors`, and only the exposed tools of a connector named
 * in `plugin_tools` alone (AWF's plugin operations; a connector in both gives all its tools).
 */
import type { McpProxyConfig } from "../workflow/model/workflow-types";

type StepConnectors = { slugs: string[]; expose: Record<string, string[]> };

export const stepConnectors = (
  proxy: Pick<McpProxyConfig, "connectors" | "pluginTools"> | undefined,
): StepConnectors => {
  const slugs = [...(proxy?.connectors ?? [])];
  const expose: Record<string, string[]> = {};
  for (const { plugin, expose: tools } of proxy?.pluginTools ?? []) {
    if (proxy?.connectors.includes(plugin)) continue;
    if (!Object.hasOwn(expose, plugin)) slugs.push(plugin);
    expose[plugin] = [...new Set([...(expose[plugin] ?? []), ...tools])];
  }
  return { slugs, expose };
};
