/**
 * Which tools a step shows, and the two tools that reveal the rest: `tool_search` finds
 * tools by name and description and activates them (the caller then sends
 * notifications/tools/list_changed), `call_tool` runs any activated tool for clients that
 * ignore that notification. Without tool search every tool is active.
 */
import { AppError } from "../errors";
import type { RoutedTool, ToolRouter } from "./tool-router";
import type { JsonObject, ToolDescriptor } from "./tool-provider";

export const TOOL_SEARCH = "tool_search";
export const CALL_TOOL = "call_tool";
const SEARCH_LIMIT_MAX = 10;

export const META_TOOLS: ToolDescriptor[] = [
  {
    name: TOOL_SEARCH,
    description: [
      "Find more tools. Every word of `query` must appear in a tool's name or description (case-insensitive).",
      `Matching tools (at most \`limit\`, default 5, max ${SEARCH_LIMIT_MAX}) become available immediately and are returned with their input schemas;`,
      `call them directly, or through ${CALL_TOOL} if they do not appear in your tool list.`,
    ].join(" "),
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: 'Words to look for, e.g. "issue create".' },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: SEARCH_LIMIT_MAX,
          description: "Most tools to return (default 5).",
        },
      },
      required: ["query"],
    },
  },
  {
    name: CALL_TOOL,
    description: `Call a tool found with ${TOOL_SEARCH} by its name, with its arguments.`,
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "The tool's name as returned by tool_search." },
        arguments: {
          type: "object",
          description: "The tool's arguments, following its input schema.",
        },
      },
      required: ["name"],
    },
  },
];

type SearchMatch = { name: string; description: string; inputSchema: JsonObject };

export class ToolSearch {
  private readonly active = new Set<string>();

  constructor(
    private readonly router: ToolRouter,
    readonly enabled: boolean,
    initialTools: readonly string[] | undefined,
    defaultInitial: readonly string[] = [],
  ) {
    if (!enabled) return;
    for (const name of initialTools ?? defaultInitial) {
      if (!router.get(name)) {
        throw new AppError(
          "USER.MCP_PROXY.UNKNOWN_OPERATION",
          `initial_tools names "${name}", which is not a tool of this step`,
        );
      }
      this.active.add(name);
    }
  }

  isActive(name: string): boolean {
    return !this.enabled || this.active.has(name);
  }

  /** The routed tools currently shown in tools/list. */
  visible(): RoutedTool[] {
    return this.router.list().filter((t) => this.isActive(t.name));
  }

  /** Finds and activates tools; `changed` says whether the visible list grew. */
  search(query: string, limit = 5): { matches: SearchMatch[]; changed: boolean } {
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    const n = Math.max(1, Math.min(SEARCH_LIMIT_MAX, Math.floor(limit)));
    const found =
      terms.length === 0
        ? []
        : this.router
            .list()
            .filter((t) => {
              const hay = `${t.name} ${t.description}`.toLowerCase();
              return terms.every((term) => hay.includes(term));
            })
            .slice(0, n);
    let changed = false;
    for (const tool of found) {
      if (!this.active.has(tool.name)) {
        this.active.add(tool.name);
        changed = true;
      }
    }
    return {
      matches: found.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
      })),
      changed,
    };
  }
}
