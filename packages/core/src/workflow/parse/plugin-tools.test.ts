/**
 * `mcp_proxy.plugin_tools` as AWF writes it, with team connectors as the plugins: read
 * into the step's proxy config, the plugin checked against the connector catalog at save
 * (UNKNOWN_PLUGIN, LANE_DENIED at the entry's line), a tool exposed twice a NAME_COLLISION,
 * and the step's connectors and exposed tools worked out for the worker.
 */
import { describe, expect, it } from "vitest";
import { stepConnectors } from "../../connectors/step-connectors";
import { parseWorkflow } from "./parse-workflow";
import { validateWorkflow, type ConnectorCatalog } from "./validate-workflow";

const source = (entries: string, extra = "") => `name: plugins
lane: ops
states:
  initial: a
  a:
    type: agent
    provider: claude
    prompt: hi
    mcp_proxy:
      enable: true
      intercept_builtins: false
${extra}      plugin_tools:
${entries}    on_success: done
  done: { type: terminal }
`;

const catalog: ConnectorCatalog = {
  check: async (ids) =>
    Object.fromEntries(
      ids.map((id) => [id, id === "files" ? "ok" : id === "closed" ? "denied" : "unknown"]),
    ),
};

describe("plugin_tools", () => {
  it("reads each connector and the tools it exposes", () => {
    const { workflow, errors } = parseWorkflow(
      source("        - plugin: files\n          expose: [echo, fingerprint]\n"),
      "w.yaml",
    );
    expect(errors).toEqual([]);
    const a = workflow?.states.get("a");
    expect(a?.kind === "agent" && a.mcpProxy?.pluginTools).toEqual([
      { plugin: "files", expose: ["echo", "fingerprint"] },
    ]);
  });

  it("refuses a plugin that is no team connector, or one closed to the lane, at its line", async () => {
    const result = await validateWorkflow(
      source(
        "        - plugin: files\n          expose: [echo]\n        - plugin: k8s\n          expose: [get]\n        - plugin: closed\n          expose: [x]\n",
      ),
      "w.yaml",
      { catalog },
    );
    expect(result.errors.map((e) => [e.code, e.location?.line, e.message])).toEqual([
      [
        "USER.MCP_PROXY.UNKNOWN_PLUGIN",
        15,
        `states.a.mcp_proxy.plugin_tools[1].plugin: plugin 'k8s' not found: the team has no connector "k8s"`,
      ],
      [
        "USER.MCP_PROXY.LANE_DENIED",
        17,
        'states.a.mcp_proxy.plugin_tools[2].plugin: connector "closed" is not open to lane "ops"',
      ],
    ]);
  });

  it("refuses an exposed tool the connector did not list when last connected to, at its line", async () => {
    const known: ConnectorCatalog = {
      ...catalog,
      tools: async (ids) =>
        Object.fromEntries(ids.map((id) => [id, id === "files" ? ["echo", "read"] : undefined])),
    };
    const result = await validateWorkflow(
      source("        - plugin: files\n          expose: [echo, fingerprint]\n"),
      "w.yaml",
      { catalog: known },
    );
    expect(result.errors.map((e) => [e.code, e.location?.line, e.message])).toEqual([
      [
        "USER.MCP_PROXY.UNKNOWN_OPERATION",
        14,
        "states.a.mcp_proxy.plugin_tools[0].expose[1]: operation 'fingerprint' not found in plugin 'files' (its tools when last connected to: echo, read)",
      ],
    ]);
    // A connector never connected to is checked when the step starts, not here.
    const unknown = await validateWorkflow(
      source("        - plugin: files\n          expose: [fingerprint]\n"),
      "w.yaml",
      { catalog: { ...catalog, tools: async () => ({}) } },
    );
    expect(unknown.errors).toEqual([]);
  });

  it("refuses a tool exposed twice, and an entry without tools", () => {
    const { errors } = parseWorkflow(
      source(
        "        - plugin: files\n          expose: [echo]\n        - plugin: files\n          expose: [echo]\n        - plugin: other\n",
      ),
      "w.yaml",
    );
    expect(errors.map((e) => e.code)).toEqual([
      "USER.MCP_PROXY.NAME_COLLISION",
      "WORKFLOW.VALIDATION.MISSING_FIELD",
    ]);
  });

  it("opens plugin connectors with only their exposed tools, all tools of a listed connector", () => {
    expect(
      stepConnectors({
        connectors: ["github"],
        pluginTools: [
          { plugin: "files", expose: ["echo"] },
          { plugin: "github", expose: ["list"] },
          { plugin: "files", expose: ["fingerprint"] },
        ],
      }),
    ).toEqual({ slugs: ["github", "files"], expose: { files: ["echo", "fingerprint"] } });
    expect(stepConnectors(undefined)).toEqual({ slugs: [], expose: {} });
  });
});
