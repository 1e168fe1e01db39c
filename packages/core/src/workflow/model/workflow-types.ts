/**
 * The parsed shape of a workflow as the validator checks it and the engine runs it. The
 * reader (read-workflow.ts) is the only producer; every field is already typed and
 * defaulted, so the engine never looks at YAML.
 */
import type { ApprovalRule } from "../../governance/approval-rules";
import type { BudgetAmounts } from "../../governance/budget-limits";
export type SourceRef = { line?: number; column?: number; path: string };

type TerminalStatus = "success" | "failure";
type Backoff = "constant" | "linear" | "exponential";
type ParallelStrategy = "all_succeed" | "any_succeed" | "best_effort";
export type InputType = "string" | "integer" | "number" | "boolean" | "array";

export type RetryPolicy = {
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs?: number;
  backoff: Backoff;
  multiplier: number;
  jitter: number;
  retryableExitCodes: number[];
};

/** `on_failure: {message, status}`: end the run here with this message and exit status. */
export type InlineError = { message: string; status: number };

export type Transition = { when?: string; goto: string };

export type HookAction =
  { kind: "command"; command: string; timeoutMs?: number } | { kind: "log"; message: string };

export type Capture = { stdout?: string; stderr?: string; maxSize?: number };

export type PluginTools = { plugin: string; expose: string[] };

export type McpProxyConfig = {
  enable: boolean;
  interceptBuiltins: boolean;
  connectors: string[];
  initialTools: string[];
  toolSearch: boolean;
  /**
   * AWF's `plugin_tools`: a connector (the plugin) and the tools of it (its operations) the
   * agent sees, named `<connector>_<tool>`; a connector also in `connectors` gives all its tools.
   */
  pluginTools?: PluginTools[];
  /** Tool calls of this step that wait for a person's approval, on top of the lane's (a Switchyard extension). */
  approve?: ApprovalRule[];
};

/** One entry of an agent step's `skills:`: a name found in the discovery folders, or a bundle folder. */
export type SkillRef =
  | { name: string; path?: undefined; source: SourceRef }
  | {
      name?: undefined;
      path: string;
      source: SourceRef;
    };

/** Fields every executable state shares (step, agent, parallel, loops, call_workflow). */
export type StateCommon = {
  name: string;
  description?: string;
  onSuccess?: string;
  onFailure?: string | InlineError;
  transitions: Transition[];
  continueOnError: boolean;
  timeoutMs?: number;
  /** `timeout: "{{.inputs.timeout}}"`: resolved when the state runs (seconds or a duration). */
  timeoutTemplate?: string;
  retry?: RetryPolicy;
  capture?: Capture;
  hooks: { pre: HookAction[]; post: HookAction[] };
  source: SourceRef;
};

export type StepState = StateCommon & {
  kind: "step";
  /** Exactly one of command and scriptFile is set. */
  command?: string;
  scriptFile?: string;
  dir?: string;
};

export type AgentState = StateCommon & {
  kind: "agent";
  /** AWF's interactive loop: after each reply the step waits for a person's next message. */
  mode?: "conversation";
  provider: string;
  prompt?: string;
  promptFile?: string;
  systemPrompt?: string;
  role?: string;
  options: Record<string, unknown>;
  outputFormat?: "json" | "text";
  mcpProxy?: McpProxyConfig;
  /**
   * `tool_timeout` (a Switchyard extension): how long the agent waits for one tool call
   * before giving up on it (the CLI's own MCP tool timeout). Unset: long enough for a call
   * held for approval.
   */
  toolTimeoutMs?: number;
  /** The step's own spend limits (a Switchyard extension): cost, tokens, calls per tool pattern. */
  budget?: BudgetAmounts;
  /** Skills whose text goes before the prompt, in this order (AWF's `skills:`). */
  skills?: SkillRef[];
  /**
   * AWF's session tracking: present (even `{}`), the step keeps its CLI session for a later
   * step; `continueFrom` resumes the session of that earlier step of the same workflow.
   */
  conversation?: { continueFrom?: string; continueFromSource?: SourceRef };
};

/**
 * `type: operation` (or `type: step` with `operation:`): a built-in operation with its
 * inputs, strings among them rendered as templates when the state runs.
 */
export type OperationState = StateCommon & {
  kind: "operation";
  operation: string;
  inputs: Record<string, unknown>;
};

export type TerminalState = {
  kind: "terminal";
  name: string;
  status: TerminalStatus;
  /** A numeric `status` in AWF's form: failure with this process exit status. */
  exitStatus?: number;
  message?: string;
  source: SourceRef;
};

export type ParallelState = StateCommon & {
  kind: "parallel";
  branches: string[];
  strategy: ParallelStrategy;
  maxConcurrent?: number;
};

export type LoopCommon = {
  body: string[];
  /** A number, or a template resolved when the loop starts. */
  maxIterations: number | string;
  breakWhen?: string;
  onComplete?: string;
};

export type ForEachState = StateCommon & LoopCommon & { kind: "for_each"; items: string };
export type WhileState = StateCommon & LoopCommon & { kind: "while"; condition: string };

export type CallWorkflowState = StateCommon & {
  kind: "call_workflow";
  workflow: string;
  inputs: Record<string, string>;
  outputs: Record<string, string>;
};

export type State =
  | StepState
  | AgentState
  | OperationState
  | TerminalState
  | ParallelState
  | ForEachState
  | WhileState
  | CallWorkflowState;

export type ExecutableState = Exclude<State, TerminalState>;

export type InputDefinition = {
  name: string;
  type: InputType;
  required: boolean;
  default?: unknown;
  description?: string;
  validation: {
    pattern?: string;
    enum?: unknown[];
    min?: number;
    max?: number;
    fileExists?: boolean;
    fileExtension?: string[];
  };
};

export type OutputDefinition = { name: string; from: string };

type WorkflowHooks = {
  workflowStart: HookAction[];
  workflowEnd: HookAction[];
  workflowError: HookAction[];
  workflowCancel: HookAction[];
};

export type Workflow = {
  name: string;
  description: string;
  version?: string;
  author?: string;
  tags: string[];
  lane?: string;
  file: string;
  inputs: InputDefinition[];
  outputs: OutputDefinition[];
  /** Names resolved through the variables port, with optional literal or template values. */
  env: { name: string; value?: string }[];
  hooks: WorkflowHooks;
  initial: string;
  states: Map<string, State>;
};
