/**
 * Routes a final tool name to the provider that owns it, through a table built once at
 * startup: names are made safe and short, collisions are fatal (naming both sources), and
 * descriptions, schemas and results are held to the proxy's caps. Never splits a name.
 */
import { AppError } from "../errors";
import { toolNameFor } from "./tool-names";
import { utf8Head } from "./utf8-head";
import type { JsonObject, ToolCallContext, ToolProvider, ToolResult } from "./tool-provider";

export const DESCRIPTION_CAP = 4000;
/** Bytes of text one result may hold; under Read's READ_BYTE_CAP so a kept result can be read back. */
export const RESULT_TEXT_CAP = 4 * 1024 * 1024;

export type RoutedTool = {
  name: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
  source: string;
  /** The name the provider knows the tool by. */
  providerName: string;
  provider: ToolProvider;
};

const capDescription = (text: string): string =>
  text.length <= DESCRIPTION_CAP ? text : `${text.slice(0, DESCRIPTION_CAP - 1)}…`;

const normaliseSchema = (schema: JsonObject | undefined): JsonObject => {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return { type: "object" };
  return schema.type === "object" ? schema : { ...schema, type: "object" };
};

/**
 * Caps the text of a result at RESULT_TEXT_CAP UTF-8 bytes in total, with a note: a bound on
 * what one call may hold in memory. The proxy cuts far smaller results for the agent and
 * keeps the full text in a workspace file (see mcp/result-cap.ts), which Read can page
 * through because this bound is under Read's.
 */
export const capResult = (result: ToolResult, cap: number = RESULT_TEXT_CAP): ToolResult => {
  let used = 0;
  let cut = false;
  const content = result.content.map((block) => {
    if (block.type !== "text") return block;
    const size = Buffer.byteLength(block.text);
    if (used + size <= cap) {
      used += size;
      return block;
    }
    cut = true;
    const head = utf8Head(block.text, cap - used);
    used += Buffer.byteLength(head);
    return { ...block, text: head };
  });
  if (!cut) return result;
  const kept = content.filter((b) => b.type !== "text" || b.text.length > 0);
  kept.push({ type: "text", text: `\n[result truncated to ${cap.toLocaleString("en-US")} bytes]` });
  return { ...result, content: kept };
};

export class ToolRouter {
  private constructor(private readonly table: Map<string, RoutedTool>) {}

  /** `reserved` are names the proxy itself serves (tool_search, call_tool). */
  static build(providers: readonly ToolProvider[], reserved: readonly string[] = []): ToolRouter {
    const table = new Map<string, RoutedTool>();
    const reservedSet = new Set(reserved);
    for (const provider of providers) {
      for (const tool of provider.listTools()) {
        const name = toolNameFor(tool.name);
        const source = tool.source ?? provider.source;
        const previous = table.get(name);
        if (previous || reservedSet.has(name)) {
          const first = previous
            ? `${previous.source} (${previous.providerName})`
            : "the proxy itself";
          throw new AppError(
            "USER.MCP_PROXY.NAME_COLLISION",
            `tool name "${name}" is declared by both ${first} and ${source} (${tool.name})`,
          );
        }
        table.set(name, {
          name,
          description: capDescription(tool.description),
          inputSchema: normaliseSchema(tool.inputSchema),
          ...(tool.outputSchema ? { outputSchema: normaliseSchema(tool.outputSchema) } : {}),
          ...(tool.annotations ? { annotations: tool.annotations } : {}),
          source,
          providerName: tool.name,
          provider,
        });
      }
    }
    return new ToolRouter(table);
  }

  get(name: string): RoutedTool | undefined {
    return this.table.get(name);
  }

  list(): RoutedTool[] {
    return [...this.table.values()];
  }

  async call(tool: RoutedTool, args: JsonObject, ctx: ToolCallContext): Promise<ToolResult> {
    return capResult(await tool.provider.callTool(tool.providerName, args, ctx));
  }
}
