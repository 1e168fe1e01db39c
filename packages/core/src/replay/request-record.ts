/**
 * What an agent attempt started with, as stored on its StepRun (`agentRequest`) so a replay
 * can run it again: the prompt and options as the engine rendered them, scrubbed of the
 * run's secrets, and never a key (`options.api_key` is dropped; a replay takes the key its
 * provider is given then).
 */
import type { AgentVersionChoice } from "../providers/agent-versions";
import type { Scrubber } from "../secrets";
import type { AgentRequest, RenderedAgentRequest } from "../workflow";

/** The version of the stored shape. */
const AGENT_REQUEST_RECORD_VERSION = 1;

export type AgentRequestRecord = { v: typeof AGENT_REQUEST_RECORD_VERSION } & Pick<
  AgentRequest,
  | "stateName"
  | "provider"
  | "prompt"
  | "systemPrompt"
  | "role"
  | "options"
  | "outputFormat"
  | "mcpProxy"
  | "toolTimeoutMs"
  | "timeoutMs"
> & {
    /** The step whose session the attempt resumed (`conversation.continue_from`), for the run page. */
    continueFrom?: string;
  };

/** What a replay may change of the attempt it runs again. */
export type ReplayChanges = {
  provider?: string;
  model?: string;
  /** Which installed CLI runs it: the pinned one (scripts/agents.json) or the newest installed with `--latest`. */
  agentVersion?: AgentVersionChoice;
  prompt?: string;
  /** A call with no recording left: a tool error (default), or, for built-ins only, run live in the sandbox. */
  unmatched?: "error" | "live_builtins";
};

/** The stored record of an attempt's request: scrubbed, without its key. */
export const agentRequestRecord = (
  request: AgentRequest,
  scrubber: Pick<Scrubber, "scrubValue">,
): AgentRequestRecord => {
  const { api_key: _key, ...options } = request.options;
  return scrubber.scrubValue({
    v: AGENT_REQUEST_RECORD_VERSION,
    stateName: request.stateName,
    provider: request.provider,
    prompt: request.prompt,
    ...(request.systemPrompt === undefined ? {} : { systemPrompt: request.systemPrompt }),
    ...(request.role === undefined ? {} : { role: request.role }),
    options,
    ...(request.outputFormat ? { outputFormat: request.outputFormat } : {}),
    ...(request.mcpProxy ? { mcpProxy: request.mcpProxy } : {}),
    ...(request.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: request.toolTimeoutMs }),
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
    ...(request.conversation?.continueFrom
      ? { continueFrom: request.conversation.continueFrom.state }
      : {}),
  });
};

/** The request a replay runs: the recorded one with the replay's changes. */
export const replayedRequest = (
  record: AgentRequestRecord,
  changes: ReplayChanges,
): RenderedAgentRequest => ({
  stateName: record.stateName,
  provider: changes.provider ?? record.provider,
  prompt: changes.prompt ?? record.prompt,
  ...(record.systemPrompt === undefined ? {} : { systemPrompt: record.systemPrompt }),
  ...(record.role === undefined ? {} : { role: record.role }),
  options: changes.model ? { ...record.options, model: changes.model } : record.options,
  ...(record.outputFormat ? { outputFormat: record.outputFormat } : {}),
  ...(record.mcpProxy ? { mcpProxy: record.mcpProxy } : {}),
  ...(record.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: record.toolTimeoutMs }),
  ...(record.timeoutMs === undefined ? {} : { timeoutMs: record.timeoutMs }),
});
