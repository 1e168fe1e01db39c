/**
 * Shapes tools/list entries and tools/call results for the protocol version the client
 * negotiated: structured content is always also given as text, and fields or content types
 * an older client does not know (outputSchema, resource links, audio) are turned into what
 * it does.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResult } from "../tools";

const atLeast = (version: string, minimum: string): boolean => version >= minimum;

type Block = ToolResult["content"][number];

const downgradeBlock = (block: Block, version: string): Block => {
  switch (block.type) {
    case "resource_link":
      if (atLeast(version, "2025-06-18")) return block;
      return {
        type: "text",
        text: `Resource: ${block.uri}${block.name ? ` (${block.name})` : ""}`,
      };
    case "audio":
      if (atLeast(version, "2025-03-26")) return block;
      return {
        type: "text",
        text: `[audio content of type ${block.mimeType} omitted: the client's protocol version does not support audio]`,
      };
    case "text":
    case "image":
    case "resource":
      return block;
  }
};

/** The tools/call result in a form a client of `version` understands. */
export const adaptResult = (result: ToolResult, version: string): ToolResult => {
  let content = result.content.map((b) => downgradeBlock(b, version));
  let adapted: ToolResult = content.every((b, i) => b === result.content[i])
    ? result
    : { ...result, content };
  if (adapted.structuredContent !== undefined) {
    const json = JSON.stringify(adapted.structuredContent);
    if (!content.some((b) => b.type === "text" && b.text === json)) {
      content = [...content, { type: "text", text: json }];
      adapted = { ...adapted, content };
    }
    if (!atLeast(version, "2025-06-18")) {
      const { structuredContent: _drop, ...rest } = adapted;
      adapted = rest;
    }
  }
  return adapted;
};

/** The tools/list entry without the fields a client of `version` does not know. */
export const adaptTool = (tool: Tool, version: string): Tool => {
  if (atLeast(version, "2025-06-18")) return tool;
  const { outputSchema: _o, title: _t, ...rest } = tool;
  if (atLeast(version, "2025-03-26")) return rest;
  const { annotations: _a, ...oldest } = rest;
  return oldest;
};
