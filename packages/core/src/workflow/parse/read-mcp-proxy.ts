/**
 * Reads an agent step's `mcp_proxy` block with AWF's own error codes
 * (USER.MCP_PROXY.*). A `plugin_tools` entry names a team connector (the plugin) and the
 * tools it exposes (the operations); connector ids are checked later against the catalog
 * port, the tools when the step starts. `approve` (a
 * Switchyard extension) lists the step's own approval rules, each checked as the lanes API
 * checks a lane's (USER.APPROVAL.RULE_INVALID at the rule's field); a rule on built-ins where
 * `intercept_builtins: false` leaves them to the CLI is USER.APPROVAL.BUILTINS_NOT_INTERCEPTED.
 */
import { isMap, isScalar, isSeq } from "yaml";
import { checkApprovalRule } from "../../governance/check-rule";
import { stepApprovalRules } from "../../governance/step-rules";
import type { ApprovalRule } from "../../governance/approval-rules";
import type { McpProxyConfig, PluginTools } from "../model/workflow-types";
import { MCP_PROXY_KEYS } from "./vocabulary";
import { deref, locate, report, sourceOf, YamlReader } from "./yaml-reader";

const RULE_INVALID = "USER.APPROVAL.RULE_INVALID";

/** The rules of `approve`, the valid ones; every problem reported at its rule's field. */
const readApprove = (r: YamlReader): ApprovalRule[] | undefined => {
  const node = r.raw("approve");
  if (node === undefined || (isScalar(node) && node.value === null)) return undefined;
  if (!isSeq(node)) {
    r.error(
      RULE_INVALID,
      `"approve" must be a list of rules: - { tool, command?, outside? }`,
      "approve",
    );
    return undefined;
  }
  const rules: ApprovalRule[] = [];
  node.items.forEach((raw, i) => {
    const item = deref(r.diag, raw);
    const path = `${r.at("approve")}[${i}]`;
    const rule = isMap(item) ? new YamlReader(r.diag, item, path) : undefined;
    const checked = checkApprovalRule(
      rule ? Object.fromEntries(rule.keys().map((k) => [k, rule.scalar(k)])) : undefined,
    );
    if (checked.ok) {
      rules.push(checked.rule);
      return;
    }
    const at = checked.field === undefined ? path : `${path}.${checked.field}`;
    const where =
      rule && checked.field !== undefined && rule.has(checked.field)
        ? rule.where(checked.field)
        : sourceOf(r.diag, item ?? node, at);
    report(r.diag, "error", RULE_INVALID, checked.message, { ...where, path: at });
  });
  return rules;
};

/** `plugin_tools`: each entry a connector id and the tool names it exposes; a name once per step. */
const readPluginTools = (r: YamlReader): PluginTools[] => {
  const out: PluginTools[] = [];
  const seen = new Map<string, string>();
  for (const { node, path } of r.seq("plugin_tools") ?? []) {
    if (!isMap(node)) {
      report(
        r.diag,
        "error",
        "WORKFLOW.VALIDATION.INVALID_VALUE",
        "a plugin_tools entry is {plugin: <connector>, expose: [<tool>, ...]}",
        sourceOf(r.diag, node, path),
      );
      continue;
    }
    const entry = new YamlReader(r.diag, node, path);
    entry.checkKeys(["plugin", "expose"], {}, "USER.MCP_PROXY.UNKNOWN_KEY");
    const plugin = entry.str("plugin", true);
    const expose = entry.strList("expose");
    if (!expose || expose.length === 0)
      entry.error(
        "WORKFLOW.VALIDATION.MISSING_FIELD",
        `"expose" lists the tools of the connector the agent may use`,
        entry.has("expose") ? "expose" : undefined,
      );
    if (plugin === undefined) continue;
    for (const tool of expose ?? []) {
      const name = `${plugin}_${tool}`;
      if (seen.has(name))
        entry.error(
          "USER.MCP_PROXY.NAME_COLLISION",
          `"${name}" is exposed twice (${seen.get(name)} and ${path})`,
          "expose",
        );
      seen.set(name, path);
    }
    out.push({ plugin, expose: expose ?? [] });
  }
  return out;
};

export const readMcpProxy = (r: YamlReader, stateName?: string): McpProxyConfig => {
  r.checkKeys(MCP_PROXY_KEYS, {}, "USER.MCP_PROXY.UNKNOWN_KEY");
  const pluginTools = readPluginTools(r);
  const config: McpProxyConfig = {
    enable: r.bool("enable", false),
    interceptBuiltins: r.bool("intercept_builtins", true),
    connectors: r.strList("connectors") ?? [],
    initialTools: r.strList("initial_tools") ?? [],
    toolSearch: r.bool("tool_search", false),
  };
  if (pluginTools.length > 0) config.pluginTools = pluginTools;
  const approve = readApprove(r);
  if (approve) config.approve = approve;
  const refused = stepApprovalRules([], { name: stateName, mcpProxy: config });
  if ("error" in refused) {
    const path = refused.error.location?.path ?? r.at("approve");
    report(
      r.diag,
      "error",
      refused.error.code,
      refused.error.message,
      locate(r.diag, path, r.where("approve")),
    );
  }
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
