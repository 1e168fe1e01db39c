export { BuiltinTools, BUILTIN_NAMES } from "./builtin-tools";
export { writeAtomically } from "./builtin-write";
export { CatalogTools } from "./catalog-tools";
export type { CatalogEntry } from "./catalog-tools";
export { Confinement, PathRefused } from "./confine-path";
export { sandboxShellRunner } from "./shell-runner";
export type { ShellRequest, ShellResult, ShellRunner } from "./shell-runner";
export { createSandboxedShell } from "./sandboxed-shell";
export type { SandboxedShellOptions } from "./sandboxed-shell";
export {
  connectorToolName,
  MAX_TOOL_NAME_LENGTH,
  sanitizeToolName,
  toolNameFor,
} from "./tool-names";
export { toolError, ToolFailure, toolText } from "./tool-provider";
export type {
  JsonObject,
  ToolCallContext,
  ToolDescriptor,
  ToolProvider,
  ToolResult,
} from "./tool-provider";
export { capResult, DESCRIPTION_CAP, RESULT_TEXT_CAP, ToolRouter } from "./tool-router";
export type { RoutedTool } from "./tool-router";
export { utf8Head } from "./utf8-head";
export { CALL_TOOL, META_TOOLS, TOOL_SEARCH, ToolSearch } from "./tool-search";
