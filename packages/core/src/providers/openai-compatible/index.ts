export { checkBaseUrl } from "./check-base-url";
export type { CheckedBaseUrl } from "./check-base-url";
export { readChatOptions } from "./chat-options";
export type { ChatOptions } from "./chat-options";
export { DEFAULT_CHAT_LIMITS } from "./post-chat-completion";
export type { ChatLimits } from "./post-chat-completion";
export { DEFAULT_OPENAI_COMPATIBLE_LIMITS, runOpenAiCompatible } from "./run-openai-compatible";
export type {
  OpenAiSession,
  OpenAiCompatibleLimits,
  OpenAiCompatibleResult,
  RunOpenAiCompatibleInput,
} from "./run-openai-compatible";
export { toolProxyFromClient, toolResultText } from "./tool-proxy";
export type { ProxyTool, ProxyToolResult, ToolProxy } from "./tool-proxy";
