/**
 * Runs one attempt-level unit of work for the engine: a shell step (command or
 * script_file, through the process port with values passed as environment variables), an
 * agent step (through the AgentExecutor port) or a hook action. Retries, transitions and
 * checkpoints belong to the engine; this module only turns a state into a StateResult.
 */
import { AppError } from "../errors/app-error";
import type { Scrubber } from "../secrets/scrubber";
import type { EvalEnv } from "./evaluate-expression";
import type {
  AgentExecutor,
  BundleFiles,
  EventSink,
  ProcessRunner,
  StateResult,
} from "./engine-ports";
import { renderShell, renderTemplate } from "./template";
import type { AgentState, HookAction, StepState } from "./workflow-types";

export type ActionDeps = {
  runProcess: ProcessRunner;
  agents?: AgentExecutor;
  files?: BundleFiles;
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

export const runShellStep = async (
  deps: ActionDeps,
  state: StepState,
  scope: EvalEnv,
  signal: AbortSignal,
  attempt: number,
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
  const result = await deps.runProcess({
    stateName: state.name,
    purpose: "step",
    argv,
    stdin,
    env: { ...deps.env, ...env },
    cwd: state.dir === undefined ? undefined : renderTemplate(state.dir, scope),
    timeoutMs: state.timeoutMs,
    signal,
  });
  const max = state.capture?.maxSize ?? deps.outputCap;
  // Scrubbed before the cap, so the cap never cuts a secret that scrubbing would then miss.
  const stdout = cap(deps.scrubber.scrub(result.stdout), max);
  const stderr = cap(deps.scrubber.scrub(result.stderr), max);
  const ok = result.exitCode === 0 && !result.timedOut && !result.cancelled;
  const output = stripNewline(stdout);
  if (stdout) deps.events({ type: "output", state: state.name, stream: "stdout", text: stdout });
  if (stderr) deps.events({ type: "output", state: state.name, stream: "stderr", text: stderr });
  return {
    status: result.cancelled ? "cancelled" : ok ? "success" : "failure",
    output,
    stdout,
    stderr,
    exitCode: result.exitCode,
    response: parseJson(output),
    attempts: attempt,
    timedOut: result.timedOut,
    error: ok
      ? undefined
      : result.timedOut
        ? `timed out after ${state.timeoutMs} ms`
        : result.cancelled
          ? "cancelled"
          : `exited with code ${result.exitCode}`,
  };
};

/** Renders every string inside provider options (`api_key: "{{.env.KEY}}"`). */
const renderDeep = (value: unknown, scope: EvalEnv): unknown => {
  if (typeof value === "string") return renderTemplate(value, scope);
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, scope));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(v, scope)]));
  return value;
};

const stripFences = (text: string): string => {
  const m = /```[\w-]*\r?\n([\s\S]*?)\r?\n?```/.exec(text);
  return (m ? m[1]! : text).trim();
};

export const runAgentStep = async (
  deps: ActionDeps,
  state: AgentState,
  scope: EvalEnv,
  signal: AbortSignal,
  attempt: number,
): Promise<StateResult> => {
  if (!deps.agents)
    throw new AppError(
      "EXECUTION.AGENT_UNAVAILABLE",
      `no agent provider is configured to run "${state.name}"`,
    );
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
  const result = await deps.agents.execute({
    stateName: state.name,
    provider: renderTemplate(state.provider, scope),
    prompt: renderTemplate(template, scope),
    systemPrompt:
      state.systemPrompt === undefined ? undefined : renderTemplate(state.systemPrompt, scope),
    role: state.role === undefined ? undefined : renderTemplate(state.role, scope),
    options: renderDeep(state.options, scope) as Record<string, unknown>,
    outputFormat: state.outputFormat,
    mcpProxy: state.mcpProxy,
    timeoutMs: state.timeoutMs,
    signal,
  });
  const raw = deps.scrubber.scrub(result.output);
  let output = state.outputFormat ? stripFences(raw) : raw;
  let json: unknown;
  let error = result.error === undefined ? undefined : deps.scrubber.scrub(result.error);
  let ok = (result.exitCode ?? 0) === 0 && result.error === undefined;
  if (ok && state.outputFormat === "json") {
    json = parseJson(output);
    if (json === undefined) {
      ok = false;
      error = `output_format json: the output is not valid JSON: ${output.slice(0, 200)}`;
    }
  }
  output = stripNewline(output);
  return {
    status: signal.aborted ? "cancelled" : ok ? "success" : "failure",
    output,
    stdout: raw,
    stderr: "",
    exitCode: result.exitCode ?? (ok ? 0 : 1),
    response: parseJson(output),
    json,
    tokensUsed: result.tokensUsed,
    tokensInput: result.tokensInput,
    tokensOutput: result.tokensOutput,
    tokensEstimated: result.tokensEstimated,
    attempts: attempt,
    error,
  };
};

/** Runs hook actions in order; a failing hook is reported, never fatal. */
export const runHooks = async (
  deps: ActionDeps,
  hooks: HookAction[],
  label: string,
  scope: EvalEnv,
  signal: AbortSignal,
  stateName?: string,
) => {
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
