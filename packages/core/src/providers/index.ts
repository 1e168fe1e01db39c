export { AGENT_IDS, AGENT_RUNTIME, AGENT_STAMP_FILE, locateAgent } from "./locate-agent";
export type { AgentId, LocateAgentOptions, LocatedAgent } from "./locate-agent";
export { scrubEvent } from "./agent-events";
export type { AgentStepEvent, RetryNotice } from "./agent-events";
export type { AgentExit, AgentProcess, AgentSpawn, AgentSpawnRequest } from "./agent-process";
export { writeLaunchFiles } from "./launch-files";
export type { LaunchFile } from "./launch-files";
export * from "./claude";
export * from "./openai-compatible";
