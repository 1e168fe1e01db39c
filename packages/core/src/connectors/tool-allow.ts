/**
 * Which of a connector's tools a lane's runs may use. Its `tool_allow` holds, per lane and
 * for `*` (every lane), patterns of tools denied and, optionally, the only ones allowed. A
 * tool passes when the lane reaches the connector (the lane policy), no deny that applies
 * matches it, and it matches every allow list that applies, so a lane's own rule only
 * narrows the rule for every lane. The worker asks when it builds a step's catalog and
 * again at every call.
 */
import { z } from "zod";
import { ALL_LANES, mayReachConnector } from "../policy";

const MAX_PATTERNS = 64;
/** Tool names as MCP servers spell them (letters, digits, `_ - . : /`), at most 128 characters. */
const TOOL_NAME = /^[A-Za-z0-9_.:/-]{1,128}$/;
const TOOL_PATTERN = /^[A-Za-z0-9_.:/*-]{1,128}$/;

export const laneSchema = z
  .string()
  .min(1, "a lane name is not empty")
  .max(64, "a lane name has at most 64 characters")
  .regex(/^\S+$/, "a lane name has no spaces");

export const toolNameSchema = z
  .string()
  .regex(TOOL_NAME, "a tool name is 1 to 128 letters, digits, or _ - . : /");

const patterns = z
  .array(
    z.string().regex(TOOL_PATTERN, "a tool pattern is 1 to 128 letters, digits, _ - . : / or *"),
  )
  .max(MAX_PATTERNS, `at most ${MAX_PATTERNS} patterns`);

const laneRule = z.strictObject({
  /** Only tools matching one of these; an empty list would let none through. */
  allow: patterns
    .min(1, "an empty allow list lets no tool through: take the lane out of lanes instead")
    .optional(),
  deny: patterns.optional(),
});

/** `{ "<lane>" | "*": { allow?: patterns, deny?: patterns } }` */
export const toolAllowSchema = z.record(laneSchema, laneRule);

export type ToolAllow = z.output<typeof toolAllowSchema>;

/** What the tool check reads of a connector definition. */
export type LaneScope = {
  id: string;
  lanes: readonly string[];
  enabled: boolean;
  tool_allow: ToolAllow;
};

const escapeLiteral = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/**
 * A pattern as an anchored, case-insensitive regular expression that cannot backtrack
 * badly. `*` is any run of characters; everything else is literal. The pieces between two
 * stars are each matched at their first place after the previous one inside a lookahead
 * whose capture is then consumed: JavaScript never re-enters a lookahead on backtracking,
 * so each piece is placed once (first placement is always right for `*`-only globs), and
 * only the last star backtracks, over the length of the name.
 */
const compileToolPattern = (pattern: string): RegExp => {
  const pieces = pattern.split("*");
  if (pieces.length === 1) return new RegExp(`^${escapeLiteral(pattern)}$`, "i");
  const middle = pieces.slice(1, -1).filter((p) => p.length > 0);
  const placed = middle.map((p, i) => `(?=([\\s\\S]*?${escapeLiteral(p)}))\\${i + 1}`).join("");
  const source = `^${escapeLiteral(pieces[0]!)}${placed}[\\s\\S]*${escapeLiteral(pieces.at(-1)!)}$`;
  return new RegExp(source, "i");
};

const compiled = new Map<string, RegExp>();
const matches = (pattern: string, name: string): boolean => {
  let re = compiled.get(pattern);
  if (!re) {
    re = compileToolPattern(pattern);
    if (compiled.size < 4096) compiled.set(pattern, re);
  }
  return re.test(name);
};

/** Whether runs in `lane` may see and call `toolName` (the server's own name) of this connector. */
export const toolAllowed = (connector: LaneScope, lane: string, toolName: string): boolean => {
  if (mayReachConnector({ slug: connector.id, ...connector }, connector.id, lane)) return false;
  const rules = [
    connector.tool_allow[ALL_LANES],
    lane === ALL_LANES ? undefined : connector.tool_allow[lane],
  ];
  for (const rule of rules) {
    if (!rule) continue;
    if (rule.deny?.some((p) => matches(p, toolName))) return false;
    if (rule.allow && !rule.allow.some((p) => matches(p, toolName))) return false;
  }
  return true;
};
