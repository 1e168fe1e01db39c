/**
 * The step's connector tools as a ToolProvider. The proxy holds only their descriptions (as
 * resolved by the worker); every call goes out through the injected caller, which is the
 * step channel in production, so no connector transport or credential lives in the sandbox.
 */
import type {
  JsonObject,
  ToolCallContext,
  ToolDescriptor,
  ToolProvider,
  ToolResult,
} from "./tool-provider";

export type CatalogEntry = {
  /** Final tool name in this step. */
  name: string;
  description: string;
  inputSchema?: JsonObject;
  outputSchema?: JsonObject;
  connector: string;
  /** The connector's own name for the tool. */
  tool: string;
};

type ConnectorCaller = (
  name: string,
  args: JsonObject,
  ctx: ToolCallContext,
) => Promise<ToolResult>;

/** A step's connector tools from its catalog, as a tool provider. */
export class CatalogTools implements ToolProvider {
  readonly source = "catalog";

  constructor(
    private readonly entries: readonly CatalogEntry[],
    private readonly caller: ConnectorCaller,
  ) {}

  listTools(): ToolDescriptor[] {
    return this.entries.map((e) => ({
      name: e.name,
      description: e.description,
      inputSchema: e.inputSchema ?? { type: "object" },
      ...(e.outputSchema ? { outputSchema: e.outputSchema } : {}),
      source: e.connector,
    }));
  }

  callTool(name: string, args: JsonObject, ctx: ToolCallContext): Promise<ToolResult> {
    return this.caller(name, args, ctx);
  }
}
