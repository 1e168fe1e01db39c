/**
 * Tool names that every MCP client accepts: `[A-Za-z0-9_-]`, at most 47 characters so that
 * `mcp__switchyard__<name>` fits Claude's 64. Long names keep a readable head and end in a
 * stable hash of the full original, so the same tool gets the same name in every step.
 */
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME_LENGTH = 47;
const HASH_LENGTH = 8;

export const sanitizeToolName = (raw: string): string => {
  const cleaned = raw.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/_{2,}/g, "_");
  return cleaned.length > 0 ? cleaned : "tool";
};

/** The final, routable name of a tool; `raw` is e.g. `<connector>_<tool>`. */
export const toolNameFor = (raw: string): string => {
  const clean = sanitizeToolName(raw);
  if (clean.length <= MAX_TOOL_NAME_LENGTH) return clean;
  const hash = createHash("sha256").update(raw).digest("hex").slice(0, HASH_LENGTH);
  const head = clean.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1).replace(/[_-]+$/, "");
  return `${head}_${hash}`;
};

/** The name a connector tool gets in a step: `<connector>_<tool>`, made safe. */
export const connectorToolName = (connectorId: string, upstreamTool: string): string =>
  toolNameFor(`${connectorId}_${upstreamTool}`);
