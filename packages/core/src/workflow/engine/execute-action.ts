/**
 * Runs one attempt-level unit of work for the engine: a shell step (command or
 * script_file, through the process port with values passed as environment variables), an
 * agent step (through the AgentExecutor port) or a hook action. A step's or agent's
 * attempt is recorded through the StepRecorder port (record-attempt.ts). Retries,
 * transitions and checkpoints belong to the engine; this module only turns a state into a
 * StateResult.
 */
import { AppError } from "../../errors/app-error";
import type { ErrorCode } from "../../errors/error-codes";
import type { Scrubber } from "../../secrets/scrubber";
import type { EvalEnv } from "../expression/evaluate-expression";
import type {
  AgentExecutor,
  AgentRequest,
  AgentResult,
  AttemptFinished,
  AttemptOf,
  BundleFiles,
  ConversationState,
  EventSink,
  OperationPort,
  ProcessOutcome,
  ProcessRunner,
  SkillFinder,
  StateResult,
  StepPath,
  StepRecorder,
} from "../model/engine-ports";
import { recordAttempt, recordedStatus, resultStatus } from "./record-attempt";
import { renderShell, renderTemplate } from "../expression/template";
import type { AgentState, HookAction, StepState } from "../model/workflow-types";
import { findSkill } from "../skills/find-skill";
import { injectSkills } from "../skills/inject-skills";

export type ActionDeps = {
  runProcess: ProcessRunner;
  agents?: AgentExecutor;
  operations?: OperationPort;
  recorder?: StepRecorder;
  files?: BundleFiles;
  skills?: SkillFinder;
  events: EventSink;
  scrubber: Scrubber;
  env: Record<string, string>;
  outputCap: number;
};

const cap = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
const stripNewline = (text: string) => text.replace(/\r?\n$/, "");
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** argv for a script: its shebang's interpreter reading the program from stdin (`-`), else sh. */
const scriptArgv = (script: string): { argv: string[]; stdin?: string } => {
  const shebang = /^#!\s*(\S+)(.*)\n/.exec(script);
  if (!shebang) return { argv: ["/bin/sh", "-c", script] };
  const args = shebang[2]!.trim().split(/\s+/).filter(Boolean);
  return { argv: [shebang[1]!, ...args, "-"], stdin: script };
};

const processFailure = (
  result: ProcessOutcome,
  timeoutMs: number | undefined,
): { code: ErrorCode; message: string } | undefined => {
  if (result.timedOut)
    return {
      code: "EXECUTION.TIMEOUT",
      message: timeoutMs === undefined ? "timed out" : `timed out after ${timeoutMs} ms`,
    };
  if (result.cancelled) return { code: "EXECUTION.CANCELLED", message: "cancelled" };
  if (result.exitCode === 0) return undefined;
  return {
    code: "EXECUTION.COMMAND_FAILED",
    message: `exited with code ${result.exitCode ?? result.signal ?? null}`,
  };
};

export const runShellStep = async (
  deps: ActionDeps,
  state: StepState,
  scope: EvalEnv,
  signal: AbortSignal,
  at: AttemptOf,
): Promise<StateResult> => {
  let text = state.command ?? "";
  if (state.scriptFile !== undefined) {
    const content = deps.files?.read(state.scriptFile);
    if (content === undefined) {
      throw new AppError(
        "USER.INPUT.MISSING_FILE",
        `script_file "${state.scriptFile}" is not in the workflow bundle`,
      );
    }
    text = content;
  }
  const { script, env } =
    state.scriptFile === undefined
      ? renderShell(text, scope)
      : renderShell(text, scope, { script: true, file: state.scriptFile });
  const { argv, stdin } =
    state.scriptFile !== undefined
      ? scriptArgv(script)
      : { argv: ["/bin/sh", "-c", script], stdin: undefined };
  const request = {
    stateName: state.name,
    purpose: "step" as const,
    ...at,
    argv,
    stdin,
    env: { ...deps.env, ...env },
    cwd: state.dir === undefined ? undefined : renderTemplate(state.dir, scope),
    timeoutMs: state.timeoutMs,
    signal,
  };
  // The state's result from the attempt's record: what it printed, capped as the state says.
  const resultOf = (record: AttemptFinished): StateResult => {
    const max = state.capture?.maxSize ?? deps.outputCap;
    const stdout = cap(record.stdout, max);
    const output = stripNewline(stdout);
    return {
      status: resultStatus(record.status),
      output,
      stdout,
      stderr: cap(record.stderr, max),
      exitCode: record.exitCode,
      response: parseJson(output),
      attempts: at.attempt,
      timedOut: record.error?.code === "EXECUTION.TIMEOUT",
      error: record.error?.message,
    };
  };
  const start = { state: state.name, kind: "process" as const, ...at };
  return recordAttempt(
    deps,
    start,
    async (attemptId) => {
      const result = await deps.runProcess({ ...request, attemptId });
      const failed = processFailure(result, state.timeoutMs);
      const record: AttemptFinished = {
        status: result.cancelled ? "cancelled" : failed ? "failed" : "succeeded",
        exitCode: result.exitCode,
        // Scrubbed before the cap, so the cap never cuts a secret that scrubbing would then miss.
        stdout: deps.scrubber.scrub(result.stdout),
        stderr: deps.scrubber.scrub(result.stderr),
        error: failed,
      };
      return { result: resultOf(record), record };
    },
    resultOf,
  );
};

/** Renders every string inside provider options (`api_key: "{{.env.KEY}}"`). */
const renderDeep = (value: unknown, scope: EvalEnv): unknown => {
  if (typeof value === "string") return renderTemplate(value, scope);
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, scope));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(v, scope)]));
  return value;
};

/** An agent attempt's id where no recorder gives one (`switchyard run`): `a<attempt>-<6 hex>`. */
const localAttemptId = (attempt: number) =>
  `a${attempt}-${[...crypto.getRandomValues(new Uint8Array(3))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

const stripFences = (text: string): string => {
  const m = /```[\w-]*\r?\n([\s\S]*?)\r?\n?```/.exec(text);
  return (m ? m[1]! : text).trim();
};

/** An agent attempt's request, rendered: what the AgentExecutor is given, less the ids the recorder and engine add. */
export type RenderedAgentRequest = Omit<AgentRequest, "attemptId" | "signal" | keyof AttemptOf>;

/**
 * AWF's ContinueFrom rules: the step named has run in this run (its result is here), was
 * session-tracked, and has a session id or at least one turn (openai_compatible, which has no
 * server-side session, a turn); and it ran the same provider.
 */
const continuedSession = (
  from: string,
  provider: string,
  results: Readonly<Record<string, StateResult>>,
): ConversationState => {
  const target = Object.hasOwn(results, from) ? results[from]!.conversation : undefined;
  const hasTurns = (target?.turns.length ?? 0) > 0;
  const usable =
    target && (provider === "openai_compatible" ? hasTurns : target.session_id !== "" || hasTurns);
  if (!usable)
    throw new AppError(
      "EXECUTION.CONTINUE_FROM.NO_SESSION",
      `continue_from: step "${from}" has no session ID or conversation history to resume`,
    );
  if (target.provider !== provider)
    throw new AppError(
      "EXECUTION.CONTINUE_FROM.NO_SESSION",
      `continue_from: step "${from}" ran ${target.provider}, and a ${target.provider} session cannot be resumed by ${provider}`,
    );
  return target;
};

/**
 * The step's own session state. A session-tracked step's: the continued one's turns and
 * tokens, then this turn's. A `mode: conversation` step's: the turns the worker kept across
 * the chat (or the prompt and its reply), the whole chat's tokens, and how it stopped: a
 * failed attempt by `error`, else as the conversation says (`user_exit`: exit, quit, an
 * empty message or none in time).
 */
const conversationAfter = (
  request: Pick<RenderedAgentRequest, "provider" | "prompt" | "conversation">,
  before: ConversationState | undefined,
  outcome: AttemptOutcome,
  scrub: (text: string) => string,
): ConversationState => {
  const turns = outcome.chat?.chatTurns ?? [
    ...(before?.turns ?? []),
    { role: "user" as const, content: scrub(request.prompt) },
    ...(outcome.failed ? [] : [{ role: "assistant" as const, content: outcome.output }]),
  ];
  const stoppedBy = outcome.failed
    ? ("error" as const)
    : outcome.chat
      ? (outcome.chat.stoppedBy ?? "user_exit")
      : undefined;
  return {
    session_id: outcome.sessionId ?? "",
    turns,
    total_turns: turns.length,
    total_tokens: (before?.total_tokens ?? 0) + (outcome.tokensUsed ?? 0),
    ...(stoppedBy ? { stopped_by: stoppedBy } : {}),
    provider: request.provider,
    ...(request.conversation?.continueFrom
      ? { continued_from: request.conversation.continueFrom.state }
      : {}),
  };
};

/** What of an agent attempt's end its session state is made of. */
type AttemptOutcome = {
  output: string;
  sessionId?: string;
  tokensUsed?: number;
  failed: boolean;
  /** a conversation's: its turns and how it stopped */
  chat?: Pick<AgentResult, "chatTurns" | "stoppedBy">;
};

export const runAgentStep = (
  deps: ActionDeps,
  state: AgentState,
  scope: EvalEnv,
  signal: AbortSignal,
  at: AttemptOf,
  /** The results of the states of this workflow that ran so far (`continue_from` reads them). */
  results: Readonly<Record<string, StateResult>> = {},
): Promise<StateResult> => {
  const provider = renderTemplate(state.provider, scope);
  const from = state.conversation?.continueFrom;
  const before = from === undefined ? undefined : continuedSession(from, provider, results);
  let template = state.prompt ?? "";
  if (state.promptFile !== undefined) {
    const content = deps.files?.read(state.promptFile);
    if (content === undefined)
      throw new AppError(
        "USER.INPUT.MISSING_FILE",
        `prompt_file "${state.promptFile}" is not in the workflow bundle`,
      );
    template = content;
  }
  const skills = (state.skills ?? []).map((ref) => {
    const found = deps.skills
      ? deps.skills.find(ref)
      : deps.files
        ? findSkill(deps.files, ref)
        : undefined;
    if (!found || !("body" in found))
      throw new AppError(
        found?.code ?? "USER.SKILL.NOT_FOUND",
        found?.message ??
          `skill '${ref.name ?? ref.path}' not found: the run has no workflow bundle`,
      );
    return found;
  });
  return runAgentAttempt(
    deps,
    {
      stateName: state.name,
      provider,
      prompt: injectSkills(renderTemplate(template, scope), skills),
      systemPrompt:
        state.systemPrompt === undefined ? undefined : renderTemplate(state.systemPrompt, scope),
      role: state.role === undefined ? undefined : renderTemplate(state.role, scope),
      options: renderDeep(state.options, scope) as Record<string, unknown>,
      outputFormat: state.outputFormat,
      mcpProxy: state.mcpProxy,
      ...(state.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: state.toolTimeoutMs }),
      ...(state.budget ? { budget: state.budget } : {}),
      ...(state.mode === "conversation" ? { chat: true } : {}),
      timeoutMs: state.timeoutMs,
      ...(state.conversation
        ? {
            conversation: {
              keep: true as const,
              ...(from === undefined
                ? {}
                : { continueFrom: { state: from, sessionId: before!.session_id } }),
            },
          }
        : {}),
    },
    signal,
    at,
    before,
  );
};

/**
 * One attempt of a rendered agent request, recorded through the StepRecorder: the engine's
 * agent states, and a replay of a recorded attempt (which has its request already).
 */
export const runAgentAttempt = async (
  deps: Pick<ActionDeps, "agents" | "recorder" | "scrubber">,
  request: RenderedAgentRequest,
  signal: AbortSignal,
  at: AttemptOf,
  /** The session a `continue_from` step continues (its state), for this step's own. */
  continued?: ConversationState,
): Promise<StateResult> => {
  const agents = deps.agents;
  if (!agents)
    throw new AppError(
      "EXECUTION.AGENT_UNAVAILABLE",
      `no agent provider is configured to run "${request.stateName}"`,
    );
  const { provider, outputFormat, timeoutMs } = request;
  const start = { state: request.stateName, kind: "agent" as const, provider, ...at };
  const conversationOf = (outcome: AttemptOutcome): { conversation?: ConversationState } =>
    request.chat || request.conversation
      ? {
          conversation: conversationAfter(request, continued, outcome, (t) =>
            deps.scrubber.scrub(t),
          ),
        }
      : {};
  const adopt = (record: AttemptFinished): StateResult => {
    const status = resultStatus(record.status);
    const output = record.output ?? stripNewline(record.stdout);
    return {
      ...(record.conversation
        ? { conversation: record.conversation }
        : conversationOf({
            output,
            failed: status !== "success",
            ...(record.sessionId === undefined ? {} : { sessionId: record.sessionId }),
            ...(record.tokensUsed === undefined ? {} : { tokensUsed: record.tokensUsed }),
            ...(request.chat ? { chat: {} } : {}),
          })),
      status,
      output,
      stdout: record.stdout,
      stderr: "",
      exitCode: record.exitCode,
      response: parseJson(output),
      json: status === "success" && outputFormat === "json" ? parseJson(output) : undefined,
      tokensUsed: record.tokensUsed,
      tokensInput: record.tokensInput,
      tokensOutput: record.tokensOutput,
      tokensEstimated: record.tokensEstimated,
      attempts: at.attempt,
      error: status === "success" ? undefined : record.error?.message,
    };
  };
  return recordAttempt(
    deps,
    start,
    async (attemptId) => {
      const result = await agents.execute({
        ...request,
        ...at,
        signal,
        attemptId: attemptId ?? localAttemptId(at.attempt),
      });
      const raw = deps.scrubber.scrub(result.output);
      let output = outputFormat ? stripFences(raw) : raw;
      let json: unknown;
      let error = result.error === undefined ? undefined : deps.scrubber.scrub(result.error);
      let ok = (result.exitCode ?? 0) === 0 && result.error === undefined;
      if (ok && outputFormat === "json") {
        json = parseJson(output);
        if (json === undefined) {
          ok = false;
          error = `output_format json: the output is not valid JSON: ${output.slice(0, 200)}`;
        }
      }
      output = stripNewline(output);
      // The state's timeout aborts the signal too (run-state.ts): the step timed out, it was not cancelled.
      const timedOut =
        signal.aborted &&
        (signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError";
      if (timedOut) {
        ok = false;
        error = `timed out after ${timeoutMs} ms`;
      }
      const status = signal.aborted && !timedOut ? "cancelled" : ok ? "success" : "failure";
      const exitCode = result.exitCode ?? (ok ? 0 : 1);
      const tokens = {
        tokensUsed: result.tokensUsed,
        tokensInput: result.tokensInput,
        tokensOutput: result.tokensOutput,
        tokensEstimated: result.tokensEstimated,
      };
      const conversation = conversationOf({
        output,
        failed: status !== "success",
        ...(result.sessionId === undefined ? {} : { sessionId: result.sessionId }),
        ...(result.tokensUsed === undefined ? {} : { tokensUsed: result.tokensUsed }),
        ...(request.chat ? { chat: result } : {}),
      });
      return {
        result: {
          ...conversation,
          status,
          output,
          stdout: raw,
          stderr: "",
          exitCode,
          response: parseJson(output),
          json,
          ...tokens,
          attempts: at.attempt,
          error,
        },
        record: {
          status: recordedStatus(status),
          exitCode,
          stdout: raw,
          stderr: "",
          output,
          ...tokens,
          ...(result.costUsd === undefined ? {} : { costUsd: result.costUsd }),
          ...(result.sessionId === undefined ? {} : { sessionId: result.sessionId }),
          ...(result.agentVersion === undefined ? {} : { agentVersion: result.agentVersion }),
          ...conversation,
          error:
            status === "success"
              ? undefined
              : status === "cancelled"
                ? { code: "EXECUTION.CANCELLED", message: "cancelled" }
                : {
                    code: timedOut
                      ? "EXECUTION.TIMEOUT"
                      : (result.errorCode ?? "EXECUTION.AGENT_FAILED"),
                    message: error ?? `exited with code ${exitCode}`,
                  },
        },
      };
    },
    adopt,
  );
};

/** Runs hook actions in order; a failing hook is reported, never fatal. */
export const runHooks = async (
  deps: ActionDeps,
  hooks: HookAction[],
  label: string,
  scope: EvalEnv,
  signal: AbortSignal,
  /** The state the hooks belong to (none for the workflow's own) and where it sits. */
  at: { state?: string; path: StepPath },
) => {
  const stateName = at.state;
  for (const hook of hooks) {
    switch (hook.kind) {
      case "log":
        deps.events({
          type: "log",
          state: stateName,
          message: deps.scrubber.scrub(renderTemplate(hook.message, scope)),
        });
        break;
      case "command": {
        const { script, env } = renderShell(hook.command, scope);
        const r = await deps.runProcess({
          stateName: stateName ?? label,
          purpose: stateName ? "hook" : "workflow_hook",
          attempt: 1,
          path: at.path,
          argv: ["/bin/sh", "-c", script],
          env: { ...deps.env, ...env },
          timeoutMs: hook.timeoutMs,
          signal,
        });
        deps.events({ type: "hook.finished", state: stateName, hook: label, exitCode: r.exitCode });
        break;
      }
      default: {
        const never: never = hook;
        return never;
      }
    }
  }
};
