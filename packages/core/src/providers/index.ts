export { AGENT_IDS, AGENT_RUNTIME, AGENT_STAMP_FILE, locateAgent } from "./locate-agent";
export type { AgentId, LocateAgentOptions, LocatedAgent } from "./locate-agent";
export * from "./openai-compatible";
