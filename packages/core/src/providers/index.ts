export { AGENT_IDS, AGENT_RUNTIME, AGENT_STAMP_FILE, locateAgent } from "./locate-agent";
export type { AgentId, LocateAgentOptions, LocatedAgent } from "./locate-agent";
export { scrubEvent } from "./agent-events";
export type { AgentStepEvent, RetryNotice } from "./agent-events";
export type { AgentExit, AgentProcess, AgentSpawn, AgentSpawnRequest } from "./agent-process";
export { writeLaunchFiles } from "./launch-files";
export type { LaunchFile } from "./launch-files";
export * from "./claude";
export * from "./openai-compatible";
export {
  DEFAULT_MODEL_ENDPOINTS,
  MODEL_VENDORS,
  defaultModelEndpoint,
  isModelVendor,
  modelEndpointOf,
} from "./model-vendors";
export type { FirstPartyVendor, ModelVendor } from "./model-vendors";
export { checkModelEndpoint, checkModelKey } from "./model-access-input";
export { findBuiltCli, stageBuiltCli } from "./step/built-cli";
export type { BuiltCli } from "./step/built-cli";
export { stepToolNames, stepToolsOf } from "./step/step-tools";
export type { StepConnectors, StepTools } from "./step/step-tools";
export { openStepProxyClient, openStepProxy } from "./step/step-proxy";
export type {
  StepProxyClient,
  StepProxyClientOptions,
  StepProxy,
  StepProxyOptions,
} from "./step/step-proxy";
export { AGENTS_INSIDE, agentInPlace, stageAgent, stageTree } from "./step/stage-agent";
export type { StagedAgent } from "./step/stage-agent";
export { runCliStep } from "./step/cli-step";
export { createAgentExecutor } from "./step/agent-executor";
export type { SpanAttributes, StepSpan, StepTracer } from "./step-tracer";
export type { AgentExecutorPorts, AttemptSubscribers } from "./step/agent-executor";
export type { AttemptGovernance, SuspendedState } from "./step/attempt-governance";
export { spentOf, withSpentBefore } from "./step/spent-before";
export type { SpentBefore } from "./step/spent-before";
export { createAgentStaging } from "./step/agent-staging";
export type { AgentStaging, AgentStagingOptions, AgentVersionDrift } from "./step/agent-staging";
export { AGENT_PINS, installedAgentVersions } from "./agent-versions";
export type { AgentVersionChoice, InstalledAgentVersion } from "./agent-versions";
export type {
  CliLaunch,
  CliLaunchContext,
  CliProvider,
  CliRunInput,
  CliRunResult,
  CliStepInput,
  CliStepResult,
} from "./step/cli-step";
export type { SessionFile, SuspendedSession } from "./step/session-files";
export { CLI_PROVIDERS, VENDOR_ENV, VENDOR_LABELS } from "./cli-providers";
export type { CliProviderEntry } from "./cli-providers";
