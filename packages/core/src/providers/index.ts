export { AGENT_IDS, AGENT_RUNTIME, AGENT_STAMP_FILE, locateAgent } from "./locate-agent";
export type { AgentId, LocateAgentOptions, LocatedAgent } from "./locate-agent";
export { scrubEvent } from "./agent-events";
export type { AgentStepEvent, RetryNotice } from "./agent-events";
export * from "./openai-compatible";
