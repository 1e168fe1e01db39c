/**
 * Resolves a step's connector tools before launch: checks the lane gate for each connector,
 * lists its tools through the ConnectorHost, keeps only the exposed ones of a connector the
 * step names in `plugin_tools` (an exposed tool it does not list is UNKNOWN_OPERATION), names
 * them `<connector>_<tool>` (safe, short, stable, AWF's `<plugin>_<operation>`) and fails on
 * any collision, so a step never starts with an ambiguous catalog.
 */
import { AppError } from "../errors";
import { BUILTIN_NAMES, connectorToolName, type CatalogEntry } from "../tools";
import type { ConnectorHost, LaneGate } from "./connector-host";

type BuildStepCatalogInput = {
  host: ConnectorHost;
  gate: LaneGate;
  lane: string;
  connectors: readonly string[];
  /** Names already taken in the step (the built-ins by default). */
  reserved?: readonly string[];
  /**
   * Connectors of which the step sees only some tools (AWF's `plugin_tools`: the connector's
   * tools it exposes); each must be one the connector lists.
   */
  expose?: Readonly<Record<string, readonly string[]>>;
};

type StepCatalog = {
  catalog: CatalogEntry[];
  unavailable: { connector: string; reason: string }[];
};

export const buildStepCatalog = async (input: BuildStepCatalogInput): Promise<StepCatalog> => {
  const taken = new Map<string, string>(
    (input.reserved ?? BUILTIN_NAMES).map((n) => [n, "builtin"]),
  );
  const catalog: CatalogEntry[] = [];
  const unavailable: StepCatalog["unavailable"] = [];
  for (const connector of input.connectors) {
    if (!(await input.gate.allows(connector, input.lane))) {
      throw new AppError(
        "USER.MCP_PROXY.LANE_DENIED",
        `lane "${input.lane}" may not reach connector "${connector}"`,
      );
    }
    let tools;
    try {
      tools = await input.host.listTools(connector);
    } catch (error) {
      if (error instanceof AppError && error.code === "USER.MCP_PROXY.UNKNOWN_CONNECTOR")
        throw error;
      unavailable.push({
        connector,
        reason: error instanceof Error ? error.message : String(error),
      });
      continue;
    }
    const exposed =
      input.expose && Object.hasOwn(input.expose, connector) ? input.expose[connector] : undefined;
    if (exposed) {
      const listed = new Set(tools.map((t) => t.name));
      const missing = exposed.filter((t) => !listed.has(t));
      if (missing.length > 0)
        throw new AppError(
          "USER.MCP_PROXY.UNKNOWN_OPERATION",
          `operation '${missing[0]}' not found in plugin '${connector}' (its tools: ${[...listed].sort().join(", ") || "none"})`,
        );
      tools = tools.filter((t) => exposed.includes(t.name));
    }
    for (const tool of tools) {
      const name = connectorToolName(connector, tool.name);
      const previous = taken.get(name);
      if (previous) {
        throw new AppError(
          "USER.MCP_PROXY.NAME_COLLISION",
          `tool name "${name}" is declared by both ${previous} and ${connector} (${tool.name})`,
        );
      }
      taken.set(name, `${connector} (${tool.name})`);
      catalog.push({
        name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        connector,
        tool: tool.name,
      });
    }
  }
  return { catalog, unavailable };
};

/** The catalog in the snake_case shape of the mcp-serve config file. */
export const catalogForConfig = (catalog: readonly CatalogEntry[]) =>
  catalog.map((e) => ({
    name: e.name,
    description: e.description,
    ...(e.inputSchema ? { input_schema: e.inputSchema } : {}),
    ...(e.outputSchema ? { output_schema: e.outputSchema } : {}),
    connector: e.connector,
    tool: e.tool,
  }));
