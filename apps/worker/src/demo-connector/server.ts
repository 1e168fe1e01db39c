/**
 * The demo connector: a small stdio MCP server shipped with Switchyard, so a first run can
 * show an agent calling a connector with nothing installed and no account anywhere. The
 * worker bundles it at boot and hosts it like any stdio connector, in a sandbox of its own
 * (docs/connectors.md, "The demo connector"). Its tools work on what they are given only:
 * no files, no network.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

/** Words, lines and characters of a text, as a person would count them. */
const textStats = (text: string) => ({
  words: text.split(/\s+/).filter(Boolean).length,
  lines: text === "" ? 0 : text.replace(/\n$/, "").split("\n").length,
  characters: [...text].length,
});

const server = new McpServer({ name: "switchyard-demo", version: "1.0.0" });

server.registerTool(
  "text_stats",
  {
    description: "Count the words, lines and characters of a text.",
    inputSchema: { text: z.string().describe("The text to count.") },
  },
  ({ text }) => {
    const stats = textStats(text);
    return {
      content: [
        {
          type: "text",
          text: `${stats.words} words, ${stats.lines} lines, ${stats.characters} characters`,
        },
      ],
    };
  },
);

server.registerTool(
  "today",
  {
    description: "The current date (UTC), as YYYY-MM-DD.",
    inputSchema: {},
  },
  () => ({ content: [{ type: "text", text: new Date().toISOString().slice(0, 10) }] }),
);

await server.connect(new StdioServerTransport());
