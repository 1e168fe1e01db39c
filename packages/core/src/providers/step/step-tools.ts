/**
 * What a step's proxy serves: the workflow's `mcp_proxy` block and the connectors resolved
 * for it, and every tool name that may come of it.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ConnectorHost, LaneGate } from "../../connectors/connector-host";
import { AppError } from "../../errors";
import type { ReplayPlan } from "../../replay/replay-book";
import { BUILTIN_NAMES, CALL_TOOL, TOOL_SEARCH, type CatalogEntry } from "../../tools";
import type { McpProxyConfig } from "../../workflow/model/workflow-types";

/** A step's connector tools, resolved before launch (buildStepCatalog), and what serves them. */
export type StepConnectors = {
  host: ConnectorHost;
  /** Asked again at every call, so a connector disabled or a lane removed stops calls in running steps. */
  gate: LaneGate;
  lane: string;
  catalog: readonly CatalogEntry[];
  /** The connectors' credentials, scrubbed from results, records and spans by the channel. */
  secrets: readonly string[];
  /** Tools (final names) the connectors' definitions list first under tool search. */
  initialTools?: readonly string[];
};

/** What the step's proxy serves: the workflow's `mcp_proxy` block, and the connectors resolved for it. */
export type StepTools = {
  toolSearch: boolean;
  /** With tool search: the tools listed from the start (default: the built-ins). */
  initialTools: readonly string[];
  connectors?: StepConnectors;
};

/** The step's tools as its `mcp_proxy` block asks (none given: the six built-ins, all listed). */
export const stepToolsOf = (
  mcpProxy: McpProxyConfig | undefined,
  connectors?: StepConnectors,
): StepTools => ({
  toolSearch: mcpProxy?.toolSearch ?? false,
  // The workflow's list wins; else the built-ins and what each connector lists first.
  initialTools:
    mcpProxy?.initialTools.length || !connectors?.initialTools?.length
      ? (mcpProxy?.initialTools ?? [])
      : [...BUILTIN_NAMES, ...connectors.initialTools],
  ...(connectors ? { connectors } : {}),
});

/** Every name the step's proxy may offer: the built-ins, the connectors' tools, and with tool search its two tools. */
export const stepToolNames = (tools: StepTools | undefined): string[] => [
  ...BUILTIN_NAMES,
  ...(tools?.connectors?.catalog.map((e) => e.name) ?? []),
  ...(tools?.toolSearch ? [TOOL_SEARCH, CALL_TOOL] : []),
];

/** A host that runs nothing: a step without connectors, or a replay. */
export const noConnectors: ConnectorHost = {
  listTools: () => Promise.resolve([]),
  callTool: (): Promise<CallToolResult> =>
    Promise.reject(new AppError("USER.MCP_PROXY.UNKNOWN_CONNECTOR", "this step has no connectors")),
  close: () => Promise.resolve(),
};

/**
 * A replay's connector tools: the recorded attempt's catalog, listed as it was, served by no
 * connector (its calls are answered from the recording; no connector is opened).
 */
export const replayConnectors = (plan: ReplayPlan): StepConnectors => ({
  host: noConnectors,
  gate: { allows: () => false },
  lane: "",
  catalog: plan.catalog ?? [],
  secrets: [],
});
