export {
  buildClaudeLaunch,
  CLAUDE_ARGUMENT_BYTES,
  CLAUDE_MCP_SERVER,
  CLAUDE_TOOL_PREFIX,
} from "./build-claude-launch";
export type { ClaudeLaunch, ClaudeLaunchInput } from "./build-claude-launch";
export { buildClaudeMcpConfig } from "./claude-mcp-config";
export type { ClaudeMcpConfigInput } from "./claude-mcp-config";
export { readClaudeOptions } from "./claude-options";
export type { ClaudeOptions } from "./claude-options";
export { claudeResultCode, parseClaudeStream } from "./parse-claude-stream";
export type {
  ClaudeResultEvent,
  ClaudeStreamParser,
  ClaudeStreamSummary,
  ClaudeUsage,
} from "./parse-claude-stream";
export { runClaude } from "./run-claude";
export type { RunClaudeInput } from "./run-claude";
export { claudeCli } from "./claude-cli";
