/**
 * Everything the run engine needs from the outside world, as ports: processes, agents,
 * sub-workflows, variables and secrets, bundle files, the checkpoint store, events and
 * time. The worker implements them with the sandbox and Postgres, the CLI with local
 * processes and files, tests with real shells and in-memory stores.
 */
import type { Scrubber } from "../secrets/scrubber";
import type { McpProxyConfig, Workflow } from "./workflow-types";

export type ProcessRequest = {
  /** The state the process belongs to, and whether it is the step itself or one of its hooks. */
  stateName: string;
  purpose: "step" | "hook" | "workflow_hook";
  argv: string[];
  /** Only the workflow's own variables; the runner adds its base environment. */
  env: Record<string, string>;
  cwd?: string;
  stdin?: string;
  timeoutMs?: number;
  signal: AbortSignal;
};

export type ProcessOutcome = {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut?: boolean;
  cancelled?: boolean;
};

export type ProcessRunner = (request: ProcessRequest) => Promise<ProcessOutcome>;

export type AgentRequest = {
  stateName: string;
  provider: string;
  prompt: string;
  systemPrompt?: string;
  role?: string;
  options: Record<string, unknown>;
  outputFormat?: "json" | "text";
  mcpProxy?: McpProxyConfig;
  timeoutMs?: number;
  signal: AbortSignal;
};

export type AgentResult = {
  output: string;
  exitCode?: number;
  error?: string;
  tokensUsed?: number;
  tokensInput?: number;
  tokensOutput?: number;
  tokensEstimated?: boolean;
};

/** Runs agent steps through a provider; implemented by the providers module. */
export type AgentExecutor = { execute(request: AgentRequest): Promise<AgentResult> };

/** Finds a sub-workflow: by name within the team (worker) or by path next to the file (CLI). */
export type WorkflowResolver = {
  resolve(name: string, from: { file: string }): Promise<Workflow | undefined>;
  /** The bundle files of a workflow this resolver returned, when it has its own bundle. */
  filesOf?(workflow: Workflow): BundleFiles | undefined;
};

export type ResolvedVariables = { values: Record<string, string>; secrets: string[] };
/** Resolves `env` names: team variables and secrets in the worker, the user's environment in the CLI. */
export type VariablesPort = { resolve(names: string[]): Promise<ResolvedVariables> };

/**
 * Files of the workflow's bundle (scripts, prompt files, readFile), by path relative to the
 * workflow: undefined when absent; an AppError when present but refused (a local folder's
 * symlink or FIFO, say), which fails the step or the validation that asked.
 */
export type BundleFiles = { read(path: string): string | undefined };

export type CheckpointStore = { save(checkpoint: Checkpoint): Promise<void> };

export type Clock = { now(): number; sleep(ms: number, signal: AbortSignal): Promise<void> };

export type RunEvent =
  | { type: "run.started" | "run.resumed"; workflow: string; runId: string }
  | { type: "state.started"; state: string; kind: string }
  | {
      type: "state.finished";
      state: string;
      status: StateResult["status"];
      exitCode: number | null;
      attempts: number;
    }
  | { type: "step.retry"; state: string; attempt: number; delayMs: number; exitCode: number | null }
  | { type: "hook.finished"; state?: string; hook: string; exitCode: number | null }
  | { type: "log"; state?: string; message: string }
  | { type: "output"; state: string; stream: "stdout" | "stderr"; text: string }
  | { type: "run.finished"; status: RunStatus; errorCode?: string; errorMessage?: string };

export type EventSink = (event: RunEvent) => void;

export type StateResult = {
  status: "success" | "failure" | "cancelled";
  output: string;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  response?: unknown;
  json?: unknown;
  tokensUsed?: number;
  tokensInput?: number;
  tokensOutput?: number;
  tokensEstimated?: boolean;
  attempts: number;
  timedOut?: boolean;
  error?: string;
};

export type Cursor =
  | { kind: "chain"; at: string }
  | { kind: "loop"; index: number; body: number; items?: unknown[]; max: number; stopped?: boolean }
  | { kind: "parallel"; done: Record<string, boolean> }
  | { kind: "call"; child: Checkpoint }
  | { kind: "attempt"; attempt: number };

export type RunStatus = "succeeded" | "failed" | "cancelled";

/** Serialisable progress of one run: enough for any worker to continue exactly where it stopped. */
export type Checkpoint = {
  version: 1;
  runId: string;
  workflow: string;
  startedAt: number;
  inputs: Record<string, unknown>;
  context: Record<string, unknown>;
  results: Record<string, StateResult>;
  cursors: Record<string, Cursor>;
  transitions: number;
  startHooksDone: boolean;
  /** The last failure, for `error.*` in failure terminals and inline errors. */
  lastError?: { type: string; message: string; state?: string };
};

export type RunOutcome = {
  status: RunStatus;
  finalState?: string;
  errorCode?: string;
  errorMessage?: string;
  /** The exit status a numeric terminal or an inline error asked for. */
  exitStatus?: number;
  outputs: Record<string, unknown>;
  checkpoint: Checkpoint;
};

export type RunWorkflowDeps = {
  runProcess: ProcessRunner;
  signal: AbortSignal;
  /**
   * The run's scrubber: the engine adds the secrets it resolves and scrubs what it keeps
   * and reports with it; the caller scrubs what it stores and streams with the same one.
   */
  scrubber: Scrubber;
  runId?: string;
  inputs?: Record<string, unknown>;
  agents?: AgentExecutor;
  resolver?: WorkflowResolver;
  variables?: VariablesPort;
  files?: BundleFiles;
  store?: CheckpointStore;
  events?: EventSink;
  clock?: Clock;
  /** Continue from this checkpoint instead of starting afresh. */
  checkpoint?: Checkpoint;
  /** Bound on state transitions, so a cyclic workflow cannot run forever. */
  maxTransitions?: number;
  /** Bytes of stdout/stderr kept per step when a step has no `capture.max_size`. */
  outputCap?: number;
  random?: () => number;
  /** Names of the workflows above this one, for cycle and depth checks of call_workflow. */
  callStack?: string[];
};
