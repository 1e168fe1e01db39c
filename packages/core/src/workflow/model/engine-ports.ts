/**
 * Everything the run engine needs from the outside world, as ports: processes, agents,
 * the record of step attempts, sub-workflows, variables and secrets, bundle files, the
 * checkpoint store, events and time. The worker implements them with the sandbox and
 * Postgres, the CLI with local processes, files and the terminal, tests with real shells
 * and in-memory stores.
 */
import type { ErrorCode } from "../../errors/error-codes";
import type { BudgetAmounts } from "../../governance/budget-limits";
import type { Scrubber } from "../../secrets/scrubber";
import type { McpProxyConfig, SkillRef, Workflow } from "./workflow-types";

/** Where a state sits in a run: enough to tell apart the attempts of every state. */
export type StepPath = {
  /** The workflow the state belongs to. */
  workflow: string;
  /**
   * The state's key in that workflow: the states around it and its loop iterations, from
   * the top (`/fan/each/2/build` is build in iteration 2 of each, a branch of fan); "" for
   * the workflow's own hooks.
   */
  key: string;
  /** The iterations of the loops around the state in that workflow, outermost first. */
  loop: number[];
  /** The call_workflow states the workflow was called through, outermost first. */
  calls: Omit<StepPath, "calls">[];
};

/** What identifies an attempt of a step or agent, on its request and on its record. */
export type AttemptOf = {
  /** Counted by the engine from 1 for each run of the state, across retries and resumes; 1 for hooks. */
  attempt: number;
  path: StepPath;
};

export type ProcessRequest = AttemptOf & {
  /** The state the process belongs to, and whether it is the step itself or one of its hooks. */
  stateName: string;
  purpose: "step" | "hook" | "workflow_hook";
  /** The recorder's id for a step's attempt (a StepRun id in the worker); none for hooks. */
  attemptId?: string;
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
  /** The signal that ended the process, when it did not exit by itself. */
  signal?: string | null;
};

export type ProcessRunner = (request: ProcessRequest) => Promise<ProcessOutcome>;

export type AgentRequest = AttemptOf & {
  stateName: string;
  /**
   * The recorder's id for this attempt (a StepRun id in the worker); without a recorder that
   * gives ids (`switchyard run`), `a<attempt>-<6 hex>` made by the engine.
   */
  attemptId: string;
  provider: string;
  prompt: string;
  systemPrompt?: string;
  role?: string;
  options: Record<string, unknown>;
  outputFormat?: "json" | "text";
  mcpProxy?: McpProxyConfig;
  /** `tool_timeout`: how long the agent waits for one tool call; unset, the executor's default. */
  toolTimeoutMs?: number;
  /** The step's own spend limits (`budget:`); the worker adds its workflow's, lane's and team's. */
  budget?: BudgetAmounts;
  /** `mode: conversation`: the attempt is one turn of a chat; its session is kept for the next. */
  chat?: boolean;
  timeoutMs?: number;
  /**
   * AWF's session tracking (`conversation:`): the step's session is kept for a later step
   * (`keep`); `continueFrom` is the earlier step of the same workflow whose session it
   * resumes, checked by the engine to have one (ConversationState).
   */
  conversation?: { keep: true; continueFrom?: { state: string; sessionId: string } };
  signal: AbortSignal;
};

/** One recorded message of a session-tracked or conversation step (AWF's `state.conversation.turns`), scrubbed. */
export type ConversationTurn = { role: "user" | "assistant"; content: string };

/**
 * What a session-tracked or `mode: conversation` agent step leaves in its state (AWF's
 * `state.conversation`): the provider's session id ("" when it gave none, as for
 * openai_compatible), the turns so far (a continued session's earlier turns first), their
 * count, the tokens across the session, how it stopped (a conversation always says; a
 * session-tracked step only when it failed), and the provider and step it continued from.
 * The session itself is stored with the run.
 */
export type ConversationState = {
  session_id: string;
  turns: ConversationTurn[];
  total_turns: number;
  total_tokens: number;
  stopped_by?: StoppedBy;
  provider: string;
  continued_from?: string;
};

export type AgentResult = {
  output: string;
  exitCode?: number;
  error?: string;
  /** The code of `error`, from the table (EXECUTION.AGENT_FAILED when absent). */
  errorCode?: ErrorCode;
  tokensUsed?: number;
  tokensInput?: number;
  tokensOutput?: number;
  tokensEstimated?: boolean;
  /** What the attempt's model requests cost, as the gateway metered them (USD). */
  costUsd?: number;
  /** The agent CLI's session id, to find its own logs. */
  sessionId?: string;
  /** The version of the agent CLI that ran the attempt (CLI providers). */
  agentVersion?: string;
  /**
   * The attempt stopped to wait for a person and kept its session, to go on from later
   * (providers/step/attempt-governance.ts, SuspendedState): not an end.
   */
  suspended?: { kind: string; sessionId?: string; state: unknown };
  /**
   * A session-tracked step's session, kept for a later `continue_from` (a CLI's files, or
   * openai_compatible's messages): the worker stores it sealed with the run.
   */
  kept?: { kind: string; sessionId?: string; state: unknown };
  /**
   * A conversation's turn ended and its session was kept (the same form as `suspended`), for
   * the turn that goes on from it with a person's next message.
   */
  chatSession?: { kind: string; sessionId?: string; state: unknown };
  /** How a conversation ended (AWF's `stopped_by`): a person's exit, or an error. */
  stoppedBy?: StoppedBy;
  /**
   * A conversation's turns (scrubbed): the prompt, each reply, each person's message but the
   * one that ended it. Absent: the attempt's prompt and its output are the turns.
   */
  chatTurns?: ConversationTurn[];
};

/** How a conversation stopped (AWF's `stopped_by`). */
type StoppedBy = "user_exit" | "error";

/** Runs agent steps through a provider; implemented by the providers module. */
export type AgentExecutor = {
  execute(request: AgentRequest): Promise<AgentResult>;
  /**
   * A `mode: conversation` step's whole chat is one call of `execute`, which bounds each of
   * its turns by the step's timeout itself (AWF's per-turn timeout): the engine does not
   * bound the chat as a whole. Unset: each call is one turn, bounded by the engine.
   */
  timesChatTurns?: boolean;
};

/** An operation state's attempt, its inputs rendered: what the OperationPort is given. */
export type OperationRequest = AttemptOf & {
  stateName: string;
  operation: string;
  inputs: Record<string, unknown>;
  /** The workflow's `env`, resolved (GITHUB_TOKEN for github operations). */
  env: Record<string, string>;
  /**
   * The run's name, age, each finished state's Output and its status so far (`failure` once a
   * state of it failed), for notify.send's webhook payload.
   */
  workflow: {
    name: string;
    durationMs: number;
    outputs: Record<string, string>;
    status: "success" | "failure";
  };
  timeoutMs?: number;
  signal: AbortSignal;
};

/**
 * What an operation answered: its outputs (AWF's, by name), or why it failed. `retryable`
 * marks a failure AWF retries under `retry:` (http.request's retryable_status_codes).
 * `summary` is a line for people (method, URL and status), shown with the attempt.
 */
export type OperationResult = {
  outputs: Record<string, unknown>;
  error?: { code: ErrorCode; message: string };
  summary?: string;
};

/** Runs built-in operations (http, notify, github); the worker and the CLI each provide one. */
export type OperationPort = { execute(request: OperationRequest): Promise<OperationResult> };

export type AttemptStarted = AttemptOf & {
  state: string;
  kind: "process" | "agent" | "operation";
  /** The provider an agent attempt runs, the operation an operation attempt runs. */
  provider?: string;
};

export type AttemptFinished = {
  status: "succeeded" | "failed" | "cancelled";
  exitCode: number | null;
  /** Scrubbed and whole: capture.max_size bounds what the state keeps, not what is recorded. */
  stdout: string;
  stderr: string;
  /** An agent's answer (a process's is its stdout). */
  output?: string;
  tokensUsed?: number;
  tokensInput?: number;
  tokensOutput?: number;
  tokensEstimated?: boolean;
  costUsd?: number;
  sessionId?: string;
  /** The version of the agent CLI that ran it. */
  agentVersion?: string;
  /** Why the attempt failed or was cancelled; the message scrubbed. */
  error?: { code: ErrorCode; message: string };
  /** A session-tracked or conversation step's `state.conversation`, as its state has it. */
  conversation?: ConversationState;
};

/** What attemptStarted returns, given back to attemptFinished. */
type AttemptHandle = { id: string };

/**
 * Records every attempt of a step or agent as the engine starts and ends it: StepRun rows
 * in the worker, the step's output on the terminal in the CLI. An attempt that cannot be
 * recorded fails its state with the recorder's error.
 */
export type StepRecorder = {
  attemptStarted(attempt: AttemptStarted): Promise<AttemptHandle>;
  attemptFinished(handle: AttemptHandle, end: AttemptFinished): Promise<void>;
  /**
   * The recorded end of this attempt from before the run was resumed, if it finished then:
   * a worker that stopped between storing an attempt's end and saving the checkpoint past
   * it leaves the attempt done and the checkpoint before it. The engine takes that end
   * instead of running the attempt a second time.
   */
  earlier?(attempt: AttemptStarted): AttemptFinished | undefined;
  /**
   * The attempt stopped to wait for a person (RunParked): its row waits with the run instead
   * of ending, and the attempt that resumes it later continues the same row.
   */
  attemptSuspended?(handle: AttemptHandle, waitId: string): Promise<void>;
};

/** Finds a sub-workflow: by name within the team (worker) or by path next to the file (CLI). */
export type WorkflowResolver = {
  resolve(name: string, from: { file: string }): Promise<Workflow | undefined>;
  /** The bundle files of a workflow this resolver returned, when it has its own bundle. */
  filesOf?(workflow: Workflow): BundleFiles | undefined;
};

type ResolvedVariables = { values: Record<string, string>; secrets: string[] };
/** Resolves `env` names: team variables and secrets in the worker, the user's environment in the CLI. */
export type VariablesPort = { resolve(names: string[]): Promise<ResolvedVariables> };

/**
 * Files of the workflow's bundle (scripts, prompt files, readFile), by path relative to the
 * workflow: undefined when absent; an AppError when present but refused (a local folder's
 * symlink or FIFO, say), which fails the step or the validation that asked.
 */
export type BundleFiles = {
  read(path: string): string | undefined;
  /** The files under a folder, relative to it, sorted; absent where the files cannot be listed. */
  list?(dir: string): string[];
};

export type FoundSkill = {
  /** The folder's name (never the front matter's `name`, as in AWF). */
  name: string;
  /** The folder in the bundle, relative to the workflow file. */
  dir: string;
  /** SKILL.md without its front matter. */
  body: string;
  /** The folder's other files, relative to it, sorted. */
  resources: string[];
  warnings: { code: ErrorCode; message: string }[];
};
export type SkillProblem = { code: ErrorCode; message: string };

/**
 * Where a run or a validation finds a step's skills: the workflow's bundle by default
 * (findSkill), the person's discovery folders in `switchyard run`.
 */
export type SkillFinder = { find(ref: SkillRef): FoundSkill | SkillProblem };

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
  /** A session-tracked agent step's session (AWF's `state.conversation`). */
  conversation?: ConversationState;
};

type Cursor =
  /** `visit`: the how-many-th time the chain enters `at` (a cycle brings a run back to a state). */
  | { kind: "chain"; at: string; visit?: number }
  | { kind: "loop"; index: number; body: number; items?: unknown[]; max: number; stopped?: boolean }
  | { kind: "parallel"; done: Record<string, boolean> }
  | { kind: "call"; child: Checkpoint }
  | { kind: "attempt"; attempt: number };

type RunStatus = "succeeded" | "failed" | "cancelled";

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
  /**
   * How many times each chain has entered each of its states (`<chain key>/<state>`), so a
   * state a cycle comes back to runs under a key of its own (`/fix@2`): its attempts are
   * told apart from the earlier visits', also after a resume. Absent in older checkpoints.
   */
  visits?: Record<string, number>;
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
  /** Runs `operation` states; without one such a state fails. */
  operations?: OperationPort;
  recorder?: StepRecorder;
  resolver?: WorkflowResolver;
  variables?: VariablesPort;
  files?: BundleFiles;
  /** Where agent steps' skills are found; default: the bundle (`files`). */
  skills?: SkillFinder;
  store?: CheckpointStore;
  events?: EventSink;
  clock?: Clock;
  /** Continue from this checkpoint instead of starting afresh. */
  checkpoint?: Checkpoint;
  /**
   * Bound on state transitions, so a cyclic workflow cannot run forever.
   * @default 10_000
   */
  maxTransitions?: number;
  /**
   * Bytes of stdout/stderr kept per step when a step has no `capture.max_size`.
   * @default 1024 * 1024 (1 MiB)
   */
  outputCap?: number;
  random?: () => number;
  /** Names of the workflows above this one, for cycle and depth checks of call_workflow. */
  callStack?: string[];
  /** The call_workflow state this run was called from, which the paths of its steps start with. */
  calledFrom?: StepPath;
};
